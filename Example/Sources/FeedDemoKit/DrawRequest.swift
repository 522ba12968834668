import Foundation

/// One image draw that `cellForRow` hands to the strategy under test.
///
/// The strategy decides when (and whether) to call ``run()``. Baselines guard it the way their users do
/// (`cell.currentIndexPath == indexPath`); IdleWork does that check itself. ``run()`` itself does not
/// guard: it draws, and the benchmark records whether the draw was stale or off screen.
@MainActor
final class DrawRequest {
  /// The cell the image goes into.
  let cell: FeedCell
  /// The row the image belongs to.
  let indexPath: IndexPath
  /// Which of the row's images.
  let imageIndex: Int
  private unowned let feed: FeedView
  /// Whether the draw has run.
  private(set) var hasRun = false

  /// Creates a request for image `imageIndex` of `indexPath` in `cell`.
  init(cell: FeedCell, indexPath: IndexPath, imageIndex: Int, feed: FeedView) {
    self.cell = cell
    self.indexPath = indexPath
    self.imageIndex = imageIndex
    self.feed = feed
  }

  /// The user's stale guard: whether the cell still shows this row.
  var cellStillShowsRow: Bool { cell.currentIndexPath == indexPath }

  /// Rasterises the image into the cell now.
  func run() {
    hasRun = true
    feed.performDraw(self)
  }

  /// Tells the benchmark the strategy dropped this request because its queue was full.
  func reportEvicted() {
    feed.recordEviction(self)
  }
}
