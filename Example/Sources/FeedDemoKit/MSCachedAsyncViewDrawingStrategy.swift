import Dispatch
import Foundation

/// A re-implementation of MSCachedAsyncViewDrawing (mindsnacks/MSCachedAsyncViewDrawing,
/// `MSCachedAsyncViewDrawing.m`; the view as its sample's `MSAsyncDrawingCell.m` writes it), written fresh
/// for this benchmark:
///
/// - `drawViewAsyncWithCacheKey:...`: the cache is looked up on the caller's (main) thread, and a hit calls
///   the completion synchronously; a miss draws on one private `DISPATCH_QUEUE_CONCURRENT` queue (no limit
///   of its own), stores the image in the cache and calls the completion with `dispatch_async(main)`;
/// - the cache is an `NSCache` with no limits set (`_MSCachedAsyncViewDrawingMemoryImageCache`): it never
///   evicts without memory pressure, so it grows with every image drawn;
/// - no cancellation, no sharing of a draw already in flight, no priority;
/// - the caller's check, as the sample cell writes it: the view reloads its image only when its
///   configuration changed (`if (circleColor != _circleColor) [self setNeedsImageReload]`), reloading
///   clears it (`self.image = nil`), and the completion sets the image only if the configuration it
///   captured is still the view's ("Prevent race conditions").
///
/// With `prefetching` (the `msCachedAsyncPrefetch` kind) the app warms the cache ahead, the one prefetch path
/// the library allows: in `prefetchRowsAt` it calls the same `drawViewAsyncWithCacheKey:...` with each image's
/// cache key and a completion that ignores the image (`^(UIImage *image) {}` — not `nil`: the library calls
/// the block unconditionally, on a hit at once and on a miss through `dispatch_async(main)`), so the image
/// lands in the `NSCache` and `cellForRow` later finds it there and sets it synchronously. A prefetch of a key
/// already cached costs a lookup. Nothing is shared with a draw in flight: a row that appears before its
/// prefetch finished misses the cache and draws again. `cancelPrefetchingForRowsAt` does nothing: the library
/// has no cancellation.
@MainActor
final class MSCachedAsyncViewDrawingStrategy: FeedStrategy {
  /// The sample's image view: its configuration (the content it should show).
  private struct Configuration: Equatable {
    var row: Int
    var version: Int
  }

  private struct ViewKey: Hashable {
    let cell: ObjectIdentifier
    let index: Int
  }

  private var configurations: [ViewKey: Configuration] = [:]
  private let cache = ImageCache()
  /// `dispatch_queue_create(..., DISPATCH_QUEUE_CONCURRENT)` with no QoS: on iOS such a queue runs a block
  /// dispatched from the main thread at the main thread's QoS, capped at `userInitiated` (the QoS an async block
  /// inherits from a `userInteractive` thread); Linux's libdispatch would run it at the default QoS, below the
  /// other strategies' workers, so it is given that QoS here.
  private let dispatchQueue = DispatchQueue(
    label: "com.mindsnacks.view_drawing.queue", qos: .userInitiated, attributes: .concurrent)
  private var ledger: RenderLedger?
  private var installed = false
  /// Whether `prefetchRowsAt` warms the cache (`msCachedAsyncPrefetch`).
  let prefetching: Bool

  /// The strategy without prefetching (`msCachedAsync`) or with the cache warmed ahead
  /// (`msCachedAsyncPrefetch`).
  init(prefetching: Bool = false) { self.prefetching = prefetching }

  var prefetches: Bool { prefetching }

  func install(for workload: Workload, displayLink: DisplayLink?) { installed = true }

  func schedule(_ request: DrawRequest) {
    ledger = request.ledger
    if !request.cellIsOnScreen {
      // A dequeued cell, not one reconfigured in place: `prepareForReuse` cleared its images here, so its
      // views forget their configuration with them.
      configurations[ViewKey(cell: ObjectIdentifier(request.cell), index: request.imageIndex)] = nil
    }
    let key = ViewKey(cell: ObjectIdentifier(request.cell), index: request.imageIndex)
    let configuration = Configuration(row: request.row, version: request.version)
    // `setCircleColor:`: reload only when the configuration changed.
    guard configurations[key] != configuration else { return }
    configurations[key] = configuration
    // `setNeedsImageReload`: `self.image = nil; [self loadImage];`
    request.clearImage()
    loadImage(request, key: key, configuration: configuration)
  }

  private func loadImage(_ request: DrawRequest, key: ViewKey, configuration: Configuration) {
    // The completion: "Prevent race conditions" — set only if the view still has that configuration.
    drawViewAsync(
      cacheKey: Self.cacheKey(request.job), job: request.job
    ) { [weak self] image in
      guard let self, self.installed, self.configurations[key] == configuration else { return }
      request.apply(image)
    }
  }

  /// The app's cache key of an image: its row, which of the row's images, and its content version.
  private static func cacheKey(_ job: RenderJob) -> String {
    "com.mindsnacks.feed.\(job.row).\(job.imageIndex).\(job.version)"
  }

  /// `drawViewAsyncWithCacheKey:size:backgroundColor:drawBlock:completionBlock:`: a hit calls `completion` at
  /// once; a miss draws on the concurrent queue, stores the image and calls `completion` through
  /// `dispatch_async(main)`.
  private func drawViewAsync(
    cacheKey: String, job: RenderJob, completion: @escaping @MainActor (RenderedImage) -> Void
  ) {
    if let cached = cache.image(forKey: cacheKey) {
      completion(cached)
      return
    }
    let ledger = job.ledger
    let cache = self.cache
    ledger.jobStarted()
    dispatchQueue.async {
      guard let image = job.render() else {
        ledger.jobEnded()
        return
      }
      cache.setImage(image, forKey: cacheKey)
      DispatchQueue.main.async {
        MainActor.assumeIsolated {
          completion(image)
          ledger.jobEnded()
        }
      }
    }
  }

  /// `tableView(_:prefetchRowsAt:)`: the same draw for each image of the rows, with a completion that ignores
  /// the image.
  func prefetchRows(_ rows: [Int], in feed: FeedView) {
    guard prefetching else { return }
    ledger = feed.ledger
    for content in rows.flatMap({ feed.drawContents(ofRow: $0) }) {
      drawViewAsync(cacheKey: Self.cacheKey(content.job), job: content.job) { _ in }
    }
  }

  /// `tableView(_:cancelPrefetchingForRowsAt:)`: nothing — the library has no cancellation.
  func cancelPrefetchingRows(_ rows: [Int], in feed: FeedView) {}

  /// No cancellation: nothing to do.
  func cellDidEndDisplaying(_ cell: FeedCell, forRowAt indexPath: IndexPath) {}

  func scheduleTask(key: Int, _ task: @escaping @MainActor () -> Void) {
    DispatchQueue.main.async { MainActor.assumeIsolated { task() } }
  }

  func discardPending() {}

  var pendingCount: Int { ledger?.outstandingJobs ?? 0 }

  func uninstall() {
    installed = false
    configurations.removeAll()
    cache.removeAll()
  }

  /// `NSCache` with no `countLimit` or `totalCostLimit`: nothing is evicted.
  private final class ImageCache: Sendable {
    private let images = Locked<[String: RenderedImage]>([:])
    func image(forKey key: String) -> RenderedImage? { images.value[key] }
    func setImage(_ image: RenderedImage, forKey key: String) { images.withValue { $0[key] = image } }
    func removeAll() { images.value = [:] }
  }
}
