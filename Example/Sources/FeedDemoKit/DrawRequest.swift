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

  /// Tiles the draw is cut into (``FeedModel/tilesPerDraw``).
  var tileCount: Int { feed.model.tilesPerDraw }

  /// Whether tile `tile` is the one the draw needs next: every earlier tile is drawn and the image does not
  /// show yet. A tile that was skipped (stale) or dropped (a queue limit) leaves every later one not next.
  func isNextTile(_ tile: Int) -> Bool { !hasRun && tilesDrawn == tile }

  /// Draws tile `tile` if it is the next (``isNextTile(_:)``), as ``runNextTile()``; returns whether it drew.
  func runTile(_ tile: Int) -> Bool {
    guard isNextTile(tile) else { return false }
    _ = runNextTile()
    return true
  }

  /// What a worker thread needs to draw this image off the main thread.
  var job: RenderJob {
    RenderJob(model: feed.model, row: row, version: version, imageIndex: imageIndex, ledger: feed.ledger)
  }

  /// The scenario's ledger (a background strategy counts its outstanding jobs there).
  var ledger: RenderLedger { feed.ledger }

  /// Sets a rendered image on the request's cell (a background strategy's apply), recorded and judged.
  func apply(_ image: RenderedImage) {
    hasRun = true
    feed.apply(image, to: cell)
  }

  /// Sets a rendered image on `cell`, which need not be the request's (a strategy that keeps its own
  /// record of which cell shows what).
  func apply(_ image: RenderedImage, to cell: FeedCell) {
    hasRun = true
    feed.apply(image, to: cell)
  }

  /// Clears the request's image view (`imageView.image = nil` before an asynchronous draw).
  func clearImage() { feed.clearImage(index: imageIndex, of: cell) }

  /// Whether the request's cell is on screen now.
  var cellIsOnScreen: Bool { feed.isOnScreen(cell) }

  /// The display pass of the commit (`-[CALayer setNeedsDisplay]` → `-display`).
  var commit: CommitObserver { feed.commit }

  /// Tells the benchmark the strategy dropped this request because its queue was full.
  func reportEvicted() {
    feed.recordEviction(self)
  }
}
