import Foundation

/// The feed's content and geometry: DWURunLoopWorkDistribution's demo table — 399 rows of 135 pt, each
/// with a title and three images — seen through an iPhone-sized viewport of 812 pt.
struct FeedModel: Sendable {
  /// Rows in the feed.
  let rowCount: Int
  /// Row height in points.
  let rowHeight: Double
  /// Viewport height in points.
  let viewportHeight: Double
  /// Images per row.
  let imagesPerRow: Int
  /// The seed every strategy's feed is built from.
  let seed: UInt64

  /// The feed of DWU's demo.
  static func standard(seed: UInt64) -> FeedModel {
    FeedModel(rowCount: 399, rowHeight: 135, viewportHeight: 812, imagesPerRow: 3, seed: seed)
  }

  /// The largest scroll offset.
  var maximumOffset: Double { max(0, Double(rowCount) * rowHeight - viewportHeight) }

  /// Rows whose frame intersects the viewport at `offset`.
  func visibleRows(atOffset offset: Double) -> ClosedRange<Int> {
    let first = max(0, Int((offset / rowHeight).rounded(.down)))
    let last = min(rowCount - 1, Int(((offset + viewportHeight) / rowHeight).rounded(.up)) - 1)
    return first...max(first, last)
  }

  /// The seed of image `image` of `row`.
  func imageSeed(row: Int, image: Int) -> UInt64 {
    var rng = SplitMix(seed: seed ^ (UInt64(row) &* 0x1000_0001) ^ (UInt64(image) &* 0x9E37))
    return rng.next()
  }

  /// The title of `row`, laid out synchronously in `cellForRow`.
  func title(row: Int) -> String { "Row \(row) · a short caption for the feed item number \(row)" }
}
