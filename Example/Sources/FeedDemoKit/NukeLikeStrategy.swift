import Dispatch
import Foundation

/// An image library's way, modelled on Nuke (kean/Nuke) as its users write a feed: each image view loads its
/// image through a ``NukeLikePipeline`` as `NukeExtensions.loadImage(with:into:)` does
/// (`Sources/NukeExtensions/ImageViewExtensions.swift`, `ImageViewController.loadImage`):
///
/// - the view's previous task is cancelled first (one task per image view: a reused or reconfigured cell's old
///   request cannot land in it);
/// - the memory cache is read synchronously: a hit sets the image inside `cellForRow`;
/// - on a miss the image view is cleared (`isPrepareForReuseEnabled`, on by default: "Remove previously displayed
///   images") and a `.normal` request joins or starts the pipeline's task for the image;
/// - the completion runs on the main queue and sets the image if the task is still the view's (Nuke delivers
///   nothing after `cancel()`) and the cell still shows the row — the guard `LazyImage`'s view and the index-path
///   check amount to;
/// - `didEndDisplaying` cancels the cell's tasks (`cancelRequest(for:)`, as users write it there or in
///   `prepareForReuse`): a task no other request shares is cancelled, and a running draw stops at its next pass.
///
/// With `prefetching` (`nukePrefetch`) the table's prefetching drives an `ImagePrefetcher` on the same pipeline:
/// `startPrefetching(with:)` in `prefetchRowsAt`, `stopPrefetching(with:)` in `cancelPrefetchingForRowsAt` — at most
/// 2 prefetches at once, at `.low` (`utility`), each joined by the display request of a row that appears before
/// it finished. Without it (`nukePipeline`) only the cache and the sharing of tasks work ahead.
@MainActor
final class NukeLikeStrategy: FeedStrategy {
  /// The image view's task (`ImageViewController.task`), or none once its image was set.
  @MainActor
  private final class ViewTask {
    var subscription: NukeLikePipeline.Subscription?
  }

  /// One image view: a cell's image at `index`.
  private struct ViewKey: Hashable {
    let cell: ObjectIdentifier
    let index: Int
  }

  /// Whether `prefetchRowsAt` drives an `ImagePrefetcher` (`nukePrefetch`).
  let prefetching: Bool
  /// The pipeline (with its memory cache and prefetcher) the views load through.
  let pipeline: NukeLikePipeline
  private var viewTasks: [ViewKey: ViewTask] = [:]
  private var ledger: RenderLedger?
  private var installed = false

  /// The strategy without prefetching (`nukePipeline`) or with it (`nukePrefetch`), loading through `pipeline`.
  init(prefetching: Bool = false, pipeline: NukeLikePipeline = NukeLikePipeline()) {
    self.prefetching = prefetching
    self.pipeline = pipeline
  }

  var prefetches: Bool { prefetching }

  /// The memory cache's cost limit (32 MB; see ``NukeLikePipeline/Configuration/costLimit``).
  var resultByteLimit: Int? { pipeline.configuration.costLimit }

  func install(for workload: Workload, displayLink: DisplayLink?) { installed = true }

  /// `imageView.loadImage(with: request, into: view)` for the request's image view.
  func schedule(_ request: DrawRequest) {
    ledger = request.ledger
    let key = ViewKey(cell: ObjectIdentifier(request.cell), index: request.imageIndex)
    cancelOutstandingTask(key)
    let content = DrawContent(request.job)
    if let image = pipeline.cachedImage(for: content) {
      request.apply(image)  // "Quick synchronous memory cache lookup": in cellForRow, no blank frame
      return
    }
    request.clearImage()
    let task = ViewTask()
    viewTasks[key] = task
    task.subscription = pipeline.loadImage(content, priority: .normal) { [weak self] image in
      guard let self, self.installed, self.viewTasks[key] === task else { return }
      self.viewTasks[key] = nil
      guard request.cellStillShowsRow else { return }
      request.apply(image)
    }
  }

  /// `cancelRequest(for:)` on each of the cell's image views, and — as a careful user does, the lever the careful
  /// GCD peer has too — `stopPrefetching(with:)` for the row's images, so a prefetch of a row that has come and gone
  /// no longer keeps its task alive (UIKit sends no cancel for a row that appeared).
  func cellDidEndDisplaying(_ cell: FeedCell, forRowAt indexPath: IndexPath) {
    for index in 0..<cell.imageCount {
      cancelOutstandingTask(ViewKey(cell: ObjectIdentifier(cell), index: index))
    }
    if prefetching, let feed { pipeline.stopPrefetching(feed.drawContents(ofRow: indexPath[1])) }
  }

  /// `ImageViewController.cancelOutstandingTask()`.
  private func cancelOutstandingTask(_ key: ViewKey) {
    guard let task = viewTasks.removeValue(forKey: key) else { return }
    if let subscription = task.subscription { pipeline.cancel(subscription) }
  }

  /// `prefetcher.startPrefetching(with:)` for the rows' images, nearest first.
  func prefetchRows(_ rows: [Int], in feed: FeedView) {
    guard prefetching else { return }
    ledger = feed.ledger
    self.feed = feed
    pipeline.startPrefetching(rows.flatMap { feed.drawContents(ofRow: $0) })
  }

  /// `prefetcher.stopPrefetching(with:)` for the rows' images.
  func cancelPrefetchingRows(_ rows: [Int], in feed: FeedView) {
    guard prefetching else { return }
    pipeline.stopPrefetching(rows.flatMap { feed.drawContents(ofRow: $0) })
  }

  /// The table whose rows it prefetches (set by the first prefetch), for the rows' images when one leaves.
  private weak var feed: FeedView?

  func scheduleTask(key: Int, _ task: @escaping @MainActor () -> Void) {
    DispatchQueue.main.async { MainActor.assumeIsolated { task() } }
  }

  /// `prefetcher.stopPrefetching()` and every view's `cancelRequest(for:)`.
  func discardPending() {
    pipeline.stopPrefetching()
    for key in Array(viewTasks.keys) { cancelOutstandingTask(key) }
  }

  var pendingCount: Int { ledger?.outstandingJobs ?? 0 }

  func uninstall() {
    discardPending()
    pipeline.removeAllCachedImages()
    installed = false
  }
}
