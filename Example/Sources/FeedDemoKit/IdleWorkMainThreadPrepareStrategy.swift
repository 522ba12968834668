import Foundation
import IdleWork
import IdleWorkPreparation

extension IdleWorkStrategy {
  /// The draw as a main-thread preparation, as an app whose drawing code must stay on the main thread writes it:
  /// `Preparation.mainThread(slices:)` at the tile granularity of ``Granularity/tiles`` — each slice draws a tile,
  /// then more while `timeRemaining()` exceeds a tile's measured cost — used by the rows' tasks and by the
  /// prefetches alike, so a prefetched row, a row scrolled back to and a row reconfigured unchanged apply their
  /// cached result inside `cellForRow`.
  static func tileDraw(cost: TileCost) -> Preparation<DrawContent, RenderedImage> {
    Preparation.mainThread(
      resultBytes: { (image: RenderedImage) in image.byteCount },
      slices: { (content: DrawContent) in
        var tiles = TileRender(content.job)
        return { timeRemaining in
          repeat {
            let start = Clock.now
            let image = tiles.drawNext()
            cost.record(seconds: Double(Clock.now - start) / 1e9)
            if let image { return image }
          } while timeRemaining() > cost.seconds ?? .infinity
          return nil
        }
      })
  }

  /// `scrollViewWillEndDragging(_:withVelocity:targetContentOffset:)`, the landing recipe: the rows on screen where
  /// the fling will stop are prefetched `first`, in the order they will appear.
  func prefetchLandingRows(atOffset offset: Double, in feed: FeedView) {
    guard let preparer, let preparation = preparation(in: feed) else { return }
    let rows = feed.model.visibleRows(atOffset: offset)
    let ordered = offset >= feed.offset ? Array(rows) : Array(rows.reversed())
    preparer.prefetch(preparation, from: ordered.flatMap { feed.drawContents(ofRow: $0) }, first: true)
  }
}

/// A tile's measured cost in seconds (moving average, weight 1/4), as the app measures it; `nil` until the first
/// tile is drawn.
@MainActor
final class TileCost {
  private(set) var seconds: TimeInterval?

  func record(seconds measured: TimeInterval) {
    seconds = seconds.map { $0 + 0.25 * (measured - $0) } ?? measured
  }
}
