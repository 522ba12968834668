import Dispatch
import Foundation

/// ``WorkItemStrategy`` with the prefetching its users write (`UITableViewDataSourcePrefetching`): a
/// `DispatchWorkItem` per image started in `prefetchRowsAt` on the global queue, drawing into a cache bounded as
/// an `NSCache` with a `totalCostLimit` of 32 MB would be (IdleWork's preset keeps as much; the oldest go first);
/// `cancelPrefetchingForRowsAt` cancels the rows' items that have not started. `cellForRow` applies a cached image
/// at once; otherwise it waits for the row's prefetch under way — the careful user's code keeps the prefetch's item
/// by content and adds a completion — or starts an item of its own. As ``WorkItemStrategy``'s careful user, it
/// clears the image view only in `prepareForReuse` (not again in `cellForRow`), so a row reconfigured with
/// unchanged content keeps its image until the new one is set. Results are
/// applied with `DispatchQueue.main.async` behind the index-path check; `didEndDisplaying` cancels the row's
/// items that have not started, as ``WorkItemStrategy`` does.
@MainActor
final class WorkItemPrefetchStrategy: FeedStrategy {

  /// One image being drawn: its item, and the cells waiting for it (none for a prefetch nobody asked for yet).
  @MainActor
  private final class Job {
    let item = WorkItemState()
    var work: DispatchWorkItem?
    var waiting: [DrawRequest] = []
  }

  /// The cache's limit: what IdleWork's `.scrollingFeed()` keeps.
  nonisolated static let cacheLimit = 32 << 20

  private var jobs: [DrawContent: Job] = [:]
  private var cache = OldestFirstImageCache(limit: WorkItemPrefetchStrategy.cacheLimit)
  private var ledger: RenderLedger?
  private var installed = false

  var prefetches: Bool { true }

  /// The cache's limit (``cacheLimit``), as the app sets `NSCache.totalCostLimit`.
  var resultByteLimit: Int? { Self.cacheLimit }

  func install(for workload: Workload, displayLink: DisplayLink?) { installed = true }

  func schedule(_ request: DrawRequest) {
    ledger = request.ledger
    let content = DrawContent(request.job)
    if let image = cache[content] {
      request.apply(image)  // in cellForRow: no blank frame
      return
    }
    if let job = jobs[content] {
      job.waiting.append(request)  // the prefetch under way: its completion applies it too
      return
    }
    start(content, for: request)
  }

  func prefetchRows(_ rows: [Int], in feed: FeedView) {
    ledger = feed.ledger
    for content in rows.flatMap({ feed.drawContents(ofRow: $0) }) where cache[content] == nil && jobs[content] == nil {
      start(content, for: nil)
    }
  }

  func cancelPrefetchingRows(_ rows: [Int], in feed: FeedView) {
    for content in rows.flatMap({ feed.drawContents(ofRow: $0) }) {
      guard let job = jobs[content], job.waiting.isEmpty else { continue }
      if cancel(job) { jobs[content] = nil }
    }
  }

  /// Starts a work item drawing `content` into the cache; `request`'s cell waits for it (none for a prefetch).
  private func start(_ content: DrawContent, for request: DrawRequest?) {
    guard let ledger else { return }
    let job = Job()
    if let request { job.waiting.append(request) }
    let item = job.item
    let render = content.job
    let work = DispatchWorkItem { @Sendable [weak self] in
      guard item.start() else { return }
      let image = render.render()
      DispatchQueue.main.async {
        MainActor.assumeIsolated {
          defer { ledger.jobEnded() }
          self?.finish(content, job: job, image: image)
        }
      }
    }
    job.work = work
    jobs[content] = job
    ledger.jobStarted()
    DispatchQueue.global(qos: .userInitiated).async(execute: work)
  }

  /// An item finished: its image goes to the cache and to the cells still showing the row they asked for.
  private func finish(_ content: DrawContent, job: Job, image: RenderedImage?) {
    if jobs[content] === job { jobs[content] = nil }
    guard installed, let image else { return }
    cache.insert(image, for: content)
    for request in job.waiting where request.cell.currentIndexPath == request.indexPath {
      request.apply(image)
    }
  }

  /// `cancel()`: stops an item that has not started; returns whether it had not.
  @discardableResult
  private func cancel(_ job: Job) -> Bool {
    let ended = job.item.cancel()
    job.work?.cancel()
    if ended { ledger?.jobEnded() }
    return ended
  }

  /// `workItems[indexPath]?.cancel()`: the row's items that have not started, unless another cell waits.
  func cellDidEndDisplaying(_ cell: FeedCell, forRowAt indexPath: IndexPath) {
    for (content, job) in jobs where content.job.row == indexPath[1] {
      job.waiting.removeAll { $0.cell === cell }
      if job.waiting.isEmpty, cancel(job) { jobs[content] = nil }
    }
  }

  func scheduleTask(key: Int, _ task: @escaping @MainActor () -> Void) {
    DispatchQueue.main.async { MainActor.assumeIsolated { task() } }
  }

  func discardPending() {
    for job in jobs.values { cancel(job) }
    jobs.removeAll()
  }

  var pendingCount: Int { ledger?.outstandingJobs ?? 0 }

  func uninstall() {
    discardPending()
    cache.removeAll()
    installed = false
  }
}
