// Issue 16 item 8: a queue reached, made and ended from where apps and libraries really do it — a screen's
// `deinit`, a network callback, a library's background thread. `../shared/ios-check/run` type-checks this file
// against the iOS SDK as a client module of IdleWork; none of it compiled while `IdleQueue.main`,
// `IdleQueue(configuration:)` and `invalidate()` were main-actor.
import Foundation
import IdleWork
import UIKit

// MARK: (a) A screen that owns its queue and ends it when it goes

/// A screen with a queue of its own: `deinit` (nonisolated, like every `deinit`) ends it, releasing what its
/// pending tasks hold on the main thread.
final class GalleryViewController: UIViewController {
  let queue = IdleQueue(configuration: .scrollingFeed())

  deinit { queue.invalidate() }
}

// MARK: (b) The shared queue from a network callback

/// Decodes off the main thread, then hands the image view its image in an idle pass.
@MainActor
func showAvatar(_ data: Data, in imageView: UIImageView) {
  DispatchQueue.global().async {
    let image = UIImage(data: data)?.preparingForDisplay()
    let accepted = IdleQueue.main.addTaskFromAnyThread(key: "img") { [data] in
      imageView.image = image ?? UIImage(data: data)
    }
    assert(accepted, "IdleQueue.main is never invalidated")
  }
}

// MARK: (c) A library that makes its own queue off the main thread

/// Where the library keeps what it drew: main-thread state, filled in idle passes.
@MainActor
final class ThumbnailStore {
  static let shared = ThumbnailStore()
  var thumbnails: [URL: UIImage] = [:]
}

/// A library's prefetcher, created on whatever thread its client is on: it keeps its own queue, feeds it from
/// any thread, and ends it when it goes.
final class ThumbnailPrefetcher: Sendable {
  private let queue = IdleQueue(configuration: IdleQueue.Configuration(budget: .tasks(2), maximumQueueLength: 64))

  func prefetch(_ urls: [URL]) {
    for url in urls {
      queue.addTaskFromAnyThread(key: url) {
        let renderer = UIGraphicsImageRenderer(size: CGSize(width: 64, height: 64))
        ThumbnailStore.shared.thumbnails[url] = renderer.image { context in context.fill(context.format.bounds) }
      }
    }
  }

  deinit { queue.invalidate() }
}

/// A client calling the library from a background queue.
func warmThumbnails(_ urls: [URL]) {
  DispatchQueue.global(qos: .utility).async {
    let prefetcher = ThumbnailPrefetcher()
    prefetcher.prefetch(urls)
  }
}
