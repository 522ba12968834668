import Dispatch
import Foundation

/// ``WorkItemStrategy`` and ``WorkItemPrefetchStrategy`` as a careful GCD user writes them — the strongest
/// `DispatchWorkItem` code a developer who knows GCD's levers would pick:
///
/// - the draws of visible rows go to `DispatchQueue.global(qos: .userInitiated)`, prefetches to
///   `DispatchQueue.global(qos: .utility)` (below the visible work, as IdleWork's prefetches run); a visible row
///   that needs an image whose prefetch has not started cancels that item and submits a `userInitiated` one in
///   its place, and one whose prefetch is running waits for it (GCD cannot raise a running block's QoS);
/// - the draw checks `item.isCancelled` between its passes (``RenderJob/render(isCancelled:)`` polls before
///   every band of every rasterisation) and stops early, so `cancel()` stops a running item too, not only one
///   that has not started;
/// - `didEndDisplaying` and `cancelPrefetchingForRowsAt` cancel the row's items, running or not, unless another
///   cell still waits for that image;
/// - an item per image, keyed by content: a cell that needs an image being drawn (its prefetch, or another
///   cell's item) waits for that item instead of drawing it again;
/// - as the careful ``WorkItemStrategy`` user, the image view is cleared only in `prepareForReuse`, and the
///   result is applied with `DispatchQueue.main.async` behind the index-path check
///   (`cell.currentIndexPath == indexPath`), which cannot see a row reconfigured in place.
///
/// With `prefetching` (`workItemCarefulPrefetch`) `prefetchRowsAt` starts the items and their images go to a cache
/// bounded as an `NSCache` with a `totalCostLimit` of 32 MB (``WorkItemPrefetchStrategy``'s; the oldest go
/// first), which `cellForRow` reads first; without it (`workItemCareful`) nothing is kept, as ``WorkItemStrategy``.
@MainActor
final class CarefulWorkItemStrategy: FeedStrategy {
  /// Hands a work item to GCD at a QoS class: by default the global queue of that class. A seam: tests record
  /// the QoS and run the items by hand.
  typealias Submit = @MainActor (DispatchQoS.QoSClass, DispatchWorkItem) -> Void
  /// Draws a job, polling `isCancelled` between its passes: ``RenderJob/render(isCancelled:)`` by default. A
  /// seam: tests hold a draw at a pass boundary to cancel it while it runs.
  typealias Render = @Sendable (RenderJob, () -> Bool) -> RenderedImage?

  /// `DispatchQueue.global(qos:).async(execute:)`.
  static let globalQueues: Submit = { qos, work in DispatchQueue.global(qos: qos).async(execute: work) }
  /// ``RenderJob/render(isCancelled:)``.
  nonisolated static let render: Render = { job, isCancelled in job.render(isCancelled: isCancelled) }

  /// One image being drawn: its current item (a raised prefetch gets a new one), and the cells waiting for it.
  @MainActor
  private final class Job {
    let content: DrawContent
    var state = CancellableDrawState()
    var work: DispatchWorkItem?
    var qos: DispatchQoS.QoSClass
    var waiting: [DrawRequest] = []

    init(content: DrawContent, qos: DispatchQoS.QoSClass) {
      self.content = content
      self.qos = qos
    }
  }

  /// Whether `prefetchRowsAt` starts items and results are cached (`workItemCarefulPrefetch`).
  let prefetching: Bool
  private let submitWork: Submit
  private let renderJob: Render
  private var jobs: [DrawContent: Job] = [:]
  private var cache = OldestFirstImageCache(limit: WorkItemPrefetchStrategy.cacheLimit)
  private var ledger: RenderLedger?
  private var installed = false

  /// The strategy without prefetching (`workItemCareful`) or with it (`workItemCarefulPrefetch`); `submit` and
  /// `render` are the tests' seams.
  init(
    prefetching: Bool = false, submit: @escaping Submit = CarefulWorkItemStrategy.globalQueues,
    render: @escaping Render = CarefulWorkItemStrategy.render
  ) {
    self.prefetching = prefetching
    self.submitWork = submit
    self.renderJob = render
  }

  var prefetches: Bool { prefetching }

  /// The cache's limit when prefetching (``WorkItemPrefetchStrategy/cacheLimit``); nothing is kept otherwise.
  var resultByteLimit: Int? { prefetching ? WorkItemPrefetchStrategy.cacheLimit : nil }

  func install(for workload: Workload, displayLink: DisplayLink?) { installed = true }

  func schedule(_ request: DrawRequest) {
    ledger = request.ledger
    let content = DrawContent(request.job)
    if let image = cache[content] {
      request.apply(image)  // in cellForRow: no blank frame
      return
    }
    if let job = jobs[content] {
      job.waiting.append(request)
      // A prefetch not started yet is re-submitted at the visible rows' QoS; a running one is waited for.
      if job.qos != .userInitiated, job.state.cancelIfQueued() {
        job.work?.cancel()
        submit(job, at: .userInitiated)
      }
      return
    }
    start(content, for: request, at: .userInitiated)
  }

  func prefetchRows(_ rows: [Int], in feed: FeedView) {
    guard prefetching else { return }
    ledger = feed.ledger
    for content in rows.flatMap({ feed.drawContents(ofRow: $0) }) where cache[content] == nil && jobs[content] == nil {
      start(content, for: nil, at: .utility)
    }
  }

  func cancelPrefetchingRows(_ rows: [Int], in feed: FeedView) {
    for content in rows.flatMap({ feed.drawContents(ofRow: $0) }) {
      guard let job = jobs[content], job.waiting.isEmpty else { continue }
      cancel(job)
      jobs[content] = nil
    }
  }

  /// `workItems[indexPath]?.cancel()`, running items included: the row's items no other cell waits for.
  func cellDidEndDisplaying(_ cell: FeedCell, forRowAt indexPath: IndexPath) {
    for (content, job) in jobs where content.job.row == indexPath[1] {
      job.waiting.removeAll { $0.cell === cell }
      guard job.waiting.isEmpty else { continue }
      cancel(job)
      jobs[content] = nil
    }
  }

  /// Starts an item drawing `content` at `qos`; `request`'s cell waits for it (none for a prefetch).
  private func start(_ content: DrawContent, for request: DrawRequest?, at qos: DispatchQoS.QoSClass) {
    guard let ledger else { return }
    let job = Job(content: content, qos: qos)
    if let request { job.waiting.append(request) }
    jobs[content] = job
    ledger.jobStarted()
    submit(job, at: qos)
  }

  /// Gives `job` a new item at `qos` and submits it; the ledger counts the job once, however often it is
  /// submitted.
  private func submit(_ job: Job, at qos: DispatchQoS.QoSClass) {
    guard let ledger else { return }
    let state = CancellableDrawState()
    let render = renderJob
    let renderJob = job.content.job
    let work = DispatchWorkItem { @Sendable [weak self] in
      guard state.start() else { return }  // cancelled before it started: the cancel ended the job
      // `guard !item.isCancelled` between the passes: a cancelled draw stops at the next one.
      let image = render(renderJob) { state.isCancelled }
      guard let image, state.finish() else {
        ledger.jobEnded()  // stopped early, or cancelled after its last pass: nothing to apply
        return
      }
      DispatchQueue.main.async {
        MainActor.assumeIsolated {
          defer { ledger.jobEnded() }
          self?.finish(job, image: image)
        }
      }
    }
    job.state = state
    job.work = work
    job.qos = qos
    submitWork(qos, work)
  }

  /// An item finished: its image goes to the cache (when prefetching) and to the cells still showing the row
  /// they asked for.
  private func finish(_ job: Job, image: RenderedImage) {
    if jobs[job.content] === job { jobs[job.content] = nil }
    guard installed else { return }
    if prefetching { cache.insert(image, for: job.content) }
    for request in job.waiting where request.cellStillShowsRow {
      request.apply(image)
    }
  }

  /// `item.cancel()`: an item that has not started never runs (its job ends here); a running one stops at its
  /// next pass (its worker ends the job).
  private func cancel(_ job: Job) {
    job.work?.cancel()
    if job.state.cancel() == .beforeStart { ledger?.jobEnded() }
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

  /// The QoS the item drawing `content` was last submitted at, while it is being drawn (for tests).
  func drawQoS(of content: DrawContent) -> DispatchQoS.QoSClass? { jobs[content]?.qos }
}

/// A careful work item's state: as ``WorkItemState``, but a running item can be cancelled too — its draw sees it
/// at the next pass — and a finished one no longer can.
final class CancellableDrawState: Sendable {
  enum State { case queued, running, cancelled, finished }
  /// What ``cancel()`` stopped.
  enum Cancellation { case beforeStart, whileRunning, nothing }
  private let state = Locked(State.queued)

  /// The item starts: whether it may (it was not cancelled first).
  func start() -> Bool {
    state.withValue { state in
      guard state == .queued else { return false }
      state = .running
      return true
    }
  }

  /// The draw is done: whether its result stands (it was not cancelled after its last pass).
  func finish() -> Bool {
    state.withValue { state in
      guard state == .running else { return false }
      state = .finished
      return true
    }
  }

  /// `cancel()`, on an item that has not started or is running.
  func cancel() -> Cancellation {
    state.withValue { state in
      switch state {
      case .queued:
        state = .cancelled
        return .beforeStart
      case .running:
        state = .cancelled
        return .whileRunning
      case .cancelled, .finished:
        return .nothing
      }
    }
  }

  /// Cancels the item only if it has not started; returns whether it did.
  func cancelIfQueued() -> Bool {
    state.withValue { state in
      guard state == .queued else { return false }
      state = .cancelled
      return true
    }
  }

  /// `item.isCancelled`, as the draw polls it between passes.
  var isCancelled: Bool { state.value == .cancelled }
}
