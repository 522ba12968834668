// The README's code as an app would write it: the first screen's snippet and the Quick start, verbatim inside
// the scaffolding they assume. `../shared/ios-check/run` type-checks this file against the iOS SDK as a client
// module of IdleWork; if the README's code stops compiling, CI fails.
import IdleWork
import UIKit

// MARK: Scaffolding the snippets assume

/// The app's renderer: a few milliseconds of real drawing per thumbnail.
enum ImageRenderer {
  static func drawRoundedThumbnail(_ slot: Int) -> UIImage {
    UIGraphicsImageRenderer(size: CGSize(width: 85, height: 85)).image { context in
      UIBezierPath(roundedRect: context.format.bounds, cornerRadius: 8 + CGFloat(slot)).fill()
    }
  }
}

/// One image of a feed item.
struct FeedImage {
  let slot: Int
  func draw() -> UIImage { ImageRenderer.drawRoundedThumbnail(slot) }
}

/// A feed item.
struct FeedItem {
  let title: String
  let images: [FeedImage]
}

/// An app cell, with the labels and image views the first snippet uses.
final class FeedCell: UITableViewCell {
  let titleLabel = UILabel()
  let imageViews = [UIImageView(), UIImageView(), UIImageView()]
}

// MARK: The README's first screen

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

// MARK: The README's Quick start

final class FeedViewController: UITableViewController {
  override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
    let cell = tableView.dequeueReusableCell(withIdentifier: "Feed", for: indexPath)
    IdleQueue.main.bind(cell, to: indexPath)  // a new configuration: the cell's earlier tasks are stale
    cell.textLabel?.text = "Row \(indexPath.row)"  // cheap work stays synchronous
    for slot in 0..<3 {
      IdleQueue.main.addTask(for: cell, at: indexPath) { cell in
        // Runs in a later idle pass, only if `cell` still shows this configuration of `indexPath`.
        let view = cell.contentView.viewWithTag(slot + 1) as? UIImageView
        view?.image = ImageRenderer.drawRoundedThumbnail(slot)  // a few ms of real drawing
      }
    }
    return cell
  }

  override func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) {
    IdleQueue.main.cellWillDisplay(cell, at: indexPath)  // shown again: its waiting draws may run
  }

  override func tableView(
    _ tableView: UITableView, didEndDisplaying cell: UITableViewCell, forRowAt indexPath: IndexPath
  ) {
    IdleQueue.main.cellDidEndDisplaying(cell, at: indexPath)  // off screen: its draws wait
  }
}

// MARK: The README's other one-liners

@MainActor
func otherReadmeSnippets(queue: IdleQueue, indexPath: IndexPath) async throws {
  let image = try await queue.perform(key: indexPath) { ImageRenderer.drawRoundedThumbnail(0) }
  _ = image
  queue.addTask(key: "layout", replacesPending: true) {}
  let own = IdleQueue(configuration: .init(budget: .seconds(0.004), maximumQueueLength: Int.max))
  own.invalidate()
}

/// A DWU-era cell with its own `currentIndexPath` keeps compiling and can be bound.
final class LegacyCell: UITableViewCell {
  var currentIndexPath: IndexPath?
}

@MainActor
func bindLegacy(_ cell: LegacyCell, at indexPath: IndexPath) {
  cell.currentIndexPath = indexPath
  IdleQueue.main.bind(cell, to: indexPath)
}
