/// The strategy-independent lower bound of the content-complete time: every visible row's three draws,
/// each measured in isolation on the main thread with no run loop turning, summed. No scheduling policy
/// can make the screen complete faster than doing exactly that work back to back; the ratio of the
/// measured time to this bound is what a policy costs on top. (A ratio below 1 means the strategy drew
/// some of those rows before the scroll stopped.)
@MainActor
final class ContentBound {
  private var cache: [String: Double] = [:]
  private var fresh: Set<String> = []
  private var buffer: [UInt8] = []
  private var sink: UInt32 = 0

  /// Creates an empty cache.
  init() {}

  /// Marks every bound for re-measuring at its next use (the benchmark calls it once per round, so the
  /// bound is measured in every round, not only in one moment of the shared machine).
  func refresh() { fresh = [] }

  /// The bound for `rows` of `model` in content `version`, ms: each draw timed three times, the fastest
  /// kept, and the smallest sum over every measurement so far (a lower bound wants the run least disturbed
  /// by the shared machine). Measured at the first use after each ``refresh()``, cached otherwise.
  func milliseconds(model: FeedModel, rows: ClosedRange<Int>, version: Int) -> Double {
    let key = "\(model.rowHeight)/\(model.drawPasses)/\(rows)/\(version)"
    if fresh.contains(key), let cached = cache[key] { return cached }
    fresh.insert(key)
    var total = 0.0
    for row in rows {
      for image in 0..<model.imagesPerRow {
        var best = Double.infinity
        for _ in 0..<3 {
          let start = Clock.now
          sink &+= model.draw(row: row, image: image, version: version, into: &buffer)
          best = min(best, Clock.milliseconds(from: start, to: Clock.now))
        }
        total += best
      }
    }
    let bound = min(total + Double(sink & 1) * 1e-12, cache[key] ?? .infinity)
    cache[key] = bound
    return bound
  }
}
