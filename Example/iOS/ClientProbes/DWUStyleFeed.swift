// The README's DWU-shaped snippet as an app would write it, with the IdleWork product alone: no preparation product,
// no worker threads. `../shared/ios-check/run` type-checks this file against the iOS SDK as a client module that
// imports IdleWork only; if the snippet stops compiling with `import IdleWork` alone, CI fails.
import IdleWork
import UIKit

// MARK: Scaffolding the snippet assumes

/// One image of a feed item (the DWU-shaped snippet).
struct FeedImage {
  let slot: Int
  func draw() -> UIImage { UIGraphicsImageRenderer(size: CGSize(width: 85, height: 85)).image { _ in } }
}

/// A feed item (the DWU-shaped snippet).
struct FeedItem {
  let title: String
  let images: [FeedImage]
}

/// A cell with the labels and image views the DWU-shaped snippet uses.
final class FeedCell: UITableViewCell {
  let titleLabel = UILabel()
  let imageViews = [UIImageView(), UIImageView(), UIImageView()]
}

// MARK: The README's DWU-shaped snippet, on `IdleQueue.main`

@MainActor
func configureFirstScreen(_ cell: FeedCell, at indexPath: IndexPath, with item: FeedItem) {
  // In tableView(_:cellForRowAt:): the label now, the three image draws one per idle pass.
  IdleQueue.main.bind(cell, to: indexPath)
  cell.titleLabel.text = item.title
  for (slot, image) in item.images.enumerated() {
    IdleQueue.main.addTask(for: cell, at: indexPath) { cell in
      cell.imageViews[slot].image = image.draw()  // skipped if the cell was configured again by then
    }
  }
}
