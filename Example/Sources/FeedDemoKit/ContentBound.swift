/// The strategy-independent lower bound of the content-complete time: every visible row's three draws,
/// each measured in isolation on the main thread with no run loop turning, summed. No scheduling policy
/// can make the screen complete faster than doing exactly that work back to back; the ratio of the
/// measured time to this bound is what a policy costs on top. (A ratio below 1 means the strategy drew
/// some of those rows before the scroll stopped.)
@MainActor
final class ContentBound {
  private var cache: [String: Double] = [:]
  private var buffer: [UInt8] = []
  private var sink: UInt32 = 0

  /// Creates an empty cache.
  init() {}

  /// The bound for `rows` of `model` in content `version`, ms: each draw timed three times, the fastest
  /// kept (a lower bound wants the run least disturbed by the shared machine). Cached per rows and version.
  func milliseconds(model: FeedModel, rows: ClosedRange<Int>, version: Int) -> Double {
    let key = "\(model.rowHeight)/\(model.drawPasses)/\(rows)/\(version)"
    if let cached = cache[key] { return cached }
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
    cache[key] = total + Double(sink & 1) * 1e-12
    return cache[key] ?? total
  }
}
