import Foundation

/// One image draw that `cellForRow` hands to the strategy under test.
///
/// The strategy decides when (and whether) to call ``run()``. Baselines guard it the way their users do
/// (`cell.currentIndexPath == indexPath`); IdleWork does that check itself; the `noGuard` canary does not
/// check at all. ``run()`` itself does not guard: it draws, and the benchmark records what it was worth.
@MainActor
final class DrawRequest {
  /// The cell the image goes into.
  let cell: FeedCell
  /// The row the image belongs to.
  let indexPath: IndexPath
  /// The content version the image was requested for (a reload bumps it).
  let version: Int
  /// Which of the row's images.
  let imageIndex: Int
  private unowned let feed: FeedView
  /// Whether the draw has run (sliced: its last tile has, so the image shows).
  private(set) var hasRun = false
  /// Tiles drawn so far, when the draw is sliced (``runNextTile()``).
  private(set) var tilesDrawn = 0

  /// Creates a request for image `imageIndex` of `indexPath` (content `version`) in `cell`.
  init(cell: FeedCell, indexPath: IndexPath, version: Int, imageIndex: Int, feed: FeedView) {
    self.cell = cell
    self.indexPath = indexPath
    self.version = version
    self.imageIndex = imageIndex
    self.feed = feed
  }

  /// The row, `indexPath[1]`.
  var row: Int { indexPath[1] }

  /// The user's stale guard, as DWU's demo writes it: whether the cell still shows this index path. It
  /// cannot see a content change at the same index path (a reload that lands the cell on the same row).
  var cellStillShowsRow: Bool { cell.currentIndexPath == indexPath }

  /// Rasterises the image into the cell now.
  func run() {
    hasRun = true
    feed.performDraw(self)
  }

  /// Draws the next tile of the image (``FeedModel/tilesPerDraw`` of them make the draw); returns whether
  /// that was the last, so the image now shows.
  func runNextTile() -> Bool {
    precondition(!hasRun, "the draw is complete")
    let tile = tilesDrawn
    tilesDrawn += 1
    if tilesDrawn == feed.model.tilesPerDraw { hasRun = true }
    feed.performTile(tile, of: self)
    return hasRun
  }

  /// Tells the benchmark the strategy dropped this request because its queue was full.
  func reportEvicted() {
    feed.recordEviction(self)
  }
}
