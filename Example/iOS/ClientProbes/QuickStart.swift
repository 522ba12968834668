// The README's code as an app would write it: the Quick start (the recommended setup, the prepared-task variant and
// the minimal variant on `IdleQueue.main`) and its other snippets, verbatim inside the scaffolding they assume.
// `../shared/ios-check/run` type-checks this file against the iOS SDK as a client module of IdleWork; if the
// README's code stops compiling, CI fails.
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
  let caption: String
  let images: [FeedImage]
}

/// An app cell, with the labels and image views the first snippet uses.
final class FeedCell: UITableViewCell {
  let titleLabel = UILabel()
  let imageViews = [UIImageView(), UIImageView(), UIImageView()]
}

// MARK: The README's Quick start: the recommended setup for a feed

final class FeedViewController: UITableViewController {
  let queue = IdleQueue(configuration: .scrollingFeed())  // the screen's own; it ends when the screen goes

  override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
    let cell = tableView.dequeueReusableCell(withIdentifier: "Feed", for: indexPath)
    queue.bind(cell, to: indexPath)  // a new configuration: the cell's earlier draws are stale
    cell.textLabel?.text = "Row \(indexPath.row)"  // cheap work stays synchronous
    for slot in 0..<3 {
      queue.addTask(for: cell, at: indexPath) { cell in
        // Runs between frames, only if `cell` still shows this configuration of `indexPath`.
        let view = cell.contentView.viewWithTag(slot + 1) as? UIImageView
        view?.image = ImageRenderer.drawRoundedThumbnail(slot)  // a few ms of real drawing
      }
    }
    return cell
  }

  override func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) {
    queue.cellWillDisplay(cell, at: indexPath)  // shown again: its waiting draws may run
  }

  override func tableView(
    _ tableView: UITableView, didEndDisplaying cell: UITableViewCell, forRowAt indexPath: IndexPath
  ) {
    queue.cellDidEndDisplaying(cell, at: indexPath)  // off screen: its draws wait behind the visible rows'
  }
}

// MARK: The README's Quick start: the prepared-task variant

/// The README's `Preparation`, made once.
let readmeThumbnail = Preparation { (slot: Int, isCancelled) in  // once, as a stored property: tasks share by it
  ImageRenderer.drawRoundedThumbnail(slot)  // on a worker thread: UIGraphicsImageRenderer is safe there
}

extension FeedViewController {
  /// The same cell's three draws as prepared tasks, as the README's second snippet writes them.
  func queuePreparedDraws(for cell: UITableViewCell, at indexPath: IndexPath) {
    let thumbnail = readmeThumbnail
    for slot in 0..<3 {
      queue.addTask(for: cell, at: indexPath, prepare: thumbnail, from: slot) { cell, image in
        (cell.contentView.viewWithTag(slot + 1) as? UIImageView)?.image = image  // on the main thread
      }
    }
  }
}

// MARK: The README's Quick start: prefetching

/// A photo of the feed, as the prefetching line names it.
struct QuickStartPhoto: Hashable, Sendable {
  let slot: Int
}

@MainActor
func prefetchRows(
  _ indexPaths: [IndexPath], photos: [QuickStartPhoto], queue: IdleQueue,
  thumbnail: Preparation<QuickStartPhoto, UIImage>
) {
  queue.prefetch(thumbnail, from: indexPaths.map { photos[$0.row] })  // in tableView(_:prefetchRowsAt:)
}

// MARK: The README's Quick start: the minimal variant, on `IdleQueue.main`

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

// MARK: The README's other snippets

/// The README's "Background threads": a screen's queue ends with its `deinit`.
final class ScreenWithItsOwnQueue: UIViewController {
  let queue = IdleQueue(configuration: .scrollingFeed())
  deinit { queue.invalidate() }
}

@MainActor
func otherReadmeSnippets(queue: IdleQueue, indexPath: IndexPath) {
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
