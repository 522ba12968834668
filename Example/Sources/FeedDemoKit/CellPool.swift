/// The table's reuse queue: cells that left the viewport wait here, still bound to their old row (UIKit
/// does not clear `currentIndexPath` until the cell is configured again), and are handed out last-in,
/// first-out.
@MainActor
final class CellPool {
  private var idle: [FeedCell] = []
  private let imageCount: Int

  /// Creates an empty pool of cells with `imageCount` image views.
  init(imageCount: Int) { self.imageCount = imageCount }

  /// A cell to configure: a reused one if any, else a new one.
  func dequeue() -> FeedCell { idle.popLast() ?? FeedCell(imageCount: imageCount) }

  /// Returns a cell that left the viewport.
  func recycle(_ cell: FeedCell) { idle.append(cell) }
}
