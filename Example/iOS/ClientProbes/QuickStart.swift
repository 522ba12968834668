// The README's code as an app would write it: the Quick start (the recommended setup) and its other snippets,
// verbatim inside the scaffolding they assume. The DWU-shaped snippet, which needs the IdleWork product alone, is in
// DWUStyleFeed.swift.
// `../shared/ios-check/run` type-checks this file against the iOS SDK as a client module of IdleWork; if the
// README's code stops compiling, CI fails.
import IdleWork
import IdleWorkPreparation
import UIKit

// MARK: Scaffolding the snippets assume

/// A photo of the feed: the input of the README's `Preparation`.
struct Photo: Hashable, Sendable {
  let id: Int
  let title: String
}

/// The app's renderer: a few milliseconds of real drawing per thumbnail, safe on any thread.
enum ThumbnailRenderer {
  static func draw(_ photo: Photo) -> UIImage {
    UIGraphicsImageRenderer(size: CGSize(width: 85, height: 85)).image { context in
      UIBezierPath(roundedRect: context.format.bounds, cornerRadius: 8 + CGFloat(photo.id % 8)).fill()
    }
  }
}

/// The README's cell.
final class PhotoCell: UITableViewCell {
  let titleLabel = UILabel()
  let photoView = UIImageView()
}

// MARK: The README's Quick start

final class PhotoFeedController: UITableViewController, UITableViewDataSourcePrefetching {
  let queue = IdleQueue(configuration: .scrollingFeed())  // the screen's own queue
  lazy var preparer = Preparer(queue: queue)  // the queue's workers and result cache (32 MB by default)
  var photos: [Photo] = []

  // The work, said once: made on a worker thread, cached by its input (32 MB by default).
  let thumbnail = Preparation { (photo: Photo, isCancelled) in
    ThumbnailRenderer.draw(photo)  // UIGraphicsImageRenderer is safe off the main thread
  }

  override func viewDidLoad() {
    super.viewDidLoad()
    tableView.prefetchDataSource = self  // without it, prefetchRowsAt is never called
  }

  override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
    let cell = tableView.dequeueReusableCell(withIdentifier: "Photo", for: indexPath) as! PhotoCell
    let photo = photos[indexPath.row]
    queue.bind(cell, to: indexPath)  // the cell's earlier tasks are stale from now on
    cell.titleLabel.text = photo.title  // cheap work stays here
    preparer.addTask(for: cell, at: indexPath, prepare: thumbnail, from: photo) { cell, image in
      cell.photoView.image = image  // in a pass, only if the cell still shows this row
    }
    return cell
  }

  func tableView(_ tableView: UITableView, prefetchRowsAt indexPaths: [IndexPath]) {
    preparer.prefetch(thumbnail, from: indexPaths.map { photos[$0.row] })
  }

  func tableView(_ tableView: UITableView, cancelPrefetchingForRowsAt indexPaths: [IndexPath]) {
    preparer.cancelPrefetching(thumbnail, from: indexPaths.map { photos[$0.row] })
  }

  override func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) {
    queue.cellWillDisplay(cell, at: indexPath)  // on screen: its tasks go first
  }

  override func tableView(
    _ tableView: UITableView, didEndDisplaying cell: UITableViewCell, forRowAt indexPath: IndexPath
  ) {
    queue.cellDidEndDisplaying(cell, at: indexPath)  // off screen: its tasks wait behind the visible rows'
  }
}

/// The README's main-thread line: the same calls with a main-thread preparation.
@MainActor
let legacyThumbnail = Preparation.mainThread { (photo: Photo) in ThumbnailRenderer.draw(photo) }

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
