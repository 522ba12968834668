/// The strategy-independent lower bound of the content-complete time: every visible row's draws, each
/// measured in isolation on the main thread with no run loop turning, summed. No scheduling policy can make
/// the screen complete faster than doing exactly that work back to back; the ratio of the measured time to
/// this bound is what a policy costs on top. (A ratio below 1 means the strategy drew some of those rows
/// before the scroll stopped.)
///
/// This machine changes speed by up to 1.5× for stretches of 0.1 s to seconds (host contention), so a
/// bound measured in one moment can sit above what a strategy later achieves. Each draw therefore keeps
/// the fastest time any measurement of it has seen, and the bound sums those per-draw minima: measurements
/// spread over the whole benchmark (``refresh()`` before every profile and rate of every round) pull each
/// draw down to the machine's fast state, even when no single measurement was fast throughout.
@MainActor
final class ContentBound {
  /// Times one draw, in milliseconds: wall time by default; tests inject a scripted timer.
  typealias Timer = (_ draw: () -> Void) -> Double

  private let time: Timer
  private var fastest: [DrawKey: Double] = [:]
  private var fresh: Set<String> = []
  private var buffer: [UInt8] = []
  private var sink: UInt32 = 0

  /// One draw's identity: the same image of the same row in the same content, at the same cost.
  private struct DrawKey: Hashable {
    let rowHeight: Double
    let drawPasses: Int
    let imagePixels: Int
    let row: Int
    let image: Int
    let version: Int
  }

  /// Creates an empty bound that times draws with `time` (wall time unless a test scripts it).
  init(time: @escaping Timer = ContentBound.wallTime) { self.time = time }

  /// Wall time of `draw`, ms.
  nonisolated static func wallTime(_ draw: () -> Void) -> Double {
    let start = Clock.now
    draw()
    return Clock.milliseconds(from: start, to: Clock.now)
  }

  /// Marks every bound for re-measuring at its next use. The benchmark calls it before every profile and
  /// rate of every round, so each draw is measured in many moments of the shared machine.
  func refresh() { fresh = [] }

  /// The fastest time any measurement saw for one image draw of `model`'s cost (rows of its height, its
  /// draw passes, its image size), ns; 0 before any measurement. The blank bound's draw length (``BlankBound``).
  func fastestDrawNanos(model: FeedModel) -> UInt64 {
    let times = fastest.filter {
      $0.key.rowHeight == model.rowHeight && $0.key.drawPasses == model.drawPasses
        && $0.key.imagePixels == model.imagePixels
    }
    guard let best = times.values.min(), best.isFinite else { return 0 }
    return UInt64(best * 1e6)
  }

  /// The bound for `rows` of `model` in content `version`, ms: the sum over those rows' draws of each
  /// draw's fastest time so far. At the first use after each ``refresh()`` every draw is timed three
  /// times more; otherwise the minima already known are summed.
  func milliseconds(model: FeedModel, rows: ClosedRange<Int>, version: Int) -> Double {
    let measure = fresh.insert("\(model.rowHeight)/\(model.drawPasses)/\(model.imagePixels)/\(rows)/\(version)")
      .inserted
    var total = 0.0
    for row in rows {
      for image in 0..<model.imagesPerRow {
        let key = DrawKey(
          rowHeight: model.rowHeight, drawPasses: model.drawPasses, imagePixels: model.imagePixels, row: row,
          image: image, version: version)
        var best = fastest[key] ?? .infinity
        if measure {
          for _ in 0..<3 {
            best = min(best, time { sink &+= model.draw(row: row, image: image, version: version, into: &buffer) })
          }
          fastest[key] = best
        }
        total += best
      }
    }
    return total + Double(sink & 1) * 1e-12
  }
}
