import Foundation

/// One preparation off the main thread: a `prepare` closure, the requests waiting for its result, and where
/// it stands. Requests for the same content share one render (see `QueueCore.addPreparedTask`).
///
/// `@unchecked Sendable`: the fields marked *guarded by the pool's lock* are read and written only with the
/// ``WorkerPool``'s lock held (workers and the main thread both reach them); those marked *main thread only*
/// are touched only by the queue's main-actor code; the rest are immutable. A render is always freed on the
/// main thread, outside any lock (see ``WorkerPool``): what `prepare` captured is released there.
final class Render: @unchecked Sendable {
  /// Where a render stands.
  enum Phase {
    /// Waiting for a worker (while no request wants it now — every requesting cell off screen — it waits
    /// without being started).
    case waiting
    /// A worker is running `prepare`.
    case running
    /// `prepare` returned or threw; the outcome waits for the main thread, or has reached it.
    case finished
    /// Dropped before it started: no request wanted it any more, or the queue ended.
    case dropped
  }

  /// Whether a render's outcome reached the main thread.
  enum Arrival {
    case none
    case value
    case error
  }

  /// The work, run on a worker; its argument says whether it is cancelled. Guarded by the pool's lock: taken
  /// out (``takePrepareLocked()``) when the render is dropped, so that what it captures is freed at once — by
  /// the caller, on the main thread, outside the lock — not when the pool next tidies its list.
  private var work: RenderWork?
  /// The content key requests share the render and the cache by; `nil` for none.
  let content: PreparedContent?
  /// The queue's line into the worker pool.
  let line: RenderLine

  // Guarded by the pool's lock.
  var phase = Phase.waiting
  /// Requests that have not left (applied, stale, evicted, cancelled or failed).
  var live = 0
  /// Live requests whose cell is on screen (or that have no cell): the render is started only while this is
  /// above 0, so a row that left the screen does not spend a worker.
  var wanted = 0
  /// Wanted requests that are not discardable: renders with some go before prefetches.
  var urgent = 0
  /// What `prepare` gave, once it finished.
  var outcome: Result<any Sendable, any Error>?
  /// Pool order among renders no visible request wants: a prefetch's place in the order prefetches were asked
  /// for, the nearest first (`QueueCore.prefetchesAsked`; `Int.max` for a discardable task's render).
  var distance = Int.max
  /// When a visible request last came to want it — its cell's task was added, or the cell came back on screen —
  /// in the pool's count of such moments: among visible rows' renders the pool starts the latest first (see
  /// `WorkerPool.pickLocked()`).
  var visibleSince: UInt64 = 0
  /// Whether a worker started it while no visible request wanted it: it counts against the pool's prefetch
  /// share until it ends.
  var startedAsPrefetch = false
  /// Live requests that belong to a cell (the rest are plain tasks or prefetches, which no cell ends).
  var cells = 0
  /// Whether a check of the cells on the main thread is on its way, and when the last one was asked for.
  var cellCheckPending = false
  var lastCellCheck: UInt64 = 0

  /// Cancels its `async` work as a task when nothing waits for it any more (see ``RenderLine``).
  let cancellation = RenderCancellation()

  // Main thread only.
  /// Whether a live prefetch of its queue holds it (see `QueueCore.prefetch`).
  var isPrefetched = false
  /// Whether a prefetch ever held it: a result that arrives with no task waiting then goes to the cache for later
  /// (even if the prefetch was cancelled meanwhile), and counts wasted only if it leaves the cache unused.
  var wasPrefetched = false
  /// Whether its result arrived for a prefetch alone (no task waiting): kept in the cache for later, it counts
  /// wasted only if it leaves the cache unused, not when the render is settled.
  var keptForLater = false
  /// The requests that joined the render and are still in the queue's list, in order. A request stops
  /// counting (its own flag) when its configuration is replaced, and is removed when it leaves the list.
  var requests: [PreparedRequest] = []
  /// Whether the outcome reached the main thread, and whether it was a value or an error.
  var arrival: Arrival = .none
  /// Whether some request applied the result.
  var applied = false
  /// Whether the render's end was counted (wasted or not), so that it is counted once.
  var settled = false
  /// Its result's pin in the cache, held for its tasks (``ResultCache/pin(_:)``) until it is settled.
  var cachePin: ResultCache.Pin?
  /// How the tasks waiting for the render size its result for the cache: each task's `resultBytes`, or the default
  /// for its value's type (`ResultSize`), with the task it came with (`nil`: a prefetch's, one per render); tasks
  /// without content bring nothing, their results are never cached. A task's sizing leaves with the task, but the
  /// last one stays, so that a result is never cached at no size. Written on the main thread with the pool's lock
  /// held, read there without it (no other thread writes it) and by the worker that made the result
  /// (``sizingsLocked``).
  private var sizings: [(owner: ObjectIdentifier?, size: @Sendable (any Sendable) -> Int)] = []

  /// Whether a request has not left, as the main thread sees it.
  @MainActor var hasLiveRequests: Bool { requests.contains { $0.isLive } }

  /// Whether the work should stop: no request waits for it any more (cancelled, evicted, configured again,
  /// stale), its queue ended, or every cell it works for was released. A released cell is only seen on the
  /// main thread (a worker must not load a reference to a UI object: its release there could free it off the
  /// main thread), so a poll asks the main thread to look, at most once per ``RenderLine/cellCheckInterval``;
  /// a later poll sees the answer. Lock held.
  func isCancelledLocked() -> Bool {
    if line.isClosed || live == 0 { return true }
    guard cells == live else { return false }
    let now = DispatchTime.now().uptimeNanoseconds
    if !cellCheckPending, now &- lastCellCheck >= RenderLine.cellCheckInterval {
      cellCheckPending = true
      lastCellCheck = now
      let line = line
      DispatchQueue.main.async { [self] in line.checkCells(self) }
    }
    return false
  }

  /// A task (`owner`) or a prefetch (`nil`) joining the render brings its way of sizing the result for the cache.
  @MainActor func adoptResultBytes(_ resultBytes: (@Sendable (any Sendable) -> Int)?, for owner: AnyObject?) {
    guard let resultBytes else { return }
    let owner = owner.map(ObjectIdentifier.init)
    line.pool.condition.lock()
    defer { line.pool.condition.unlock() }
    if owner == nil, sizings.contains(where: { $0.owner == nil }) { return }
    sizings.append((owner, resultBytes))
  }

  /// The task `owner` left: its sizing goes, unless it is the last.
  @MainActor func forgetResultBytes(of owner: AnyObject) {
    line.pool.condition.lock()
    defer { line.pool.condition.unlock() }
    guard sizings.count > 1, let index = sizings.firstIndex(where: { $0.owner == ObjectIdentifier(owner) }) else {
      return
    }
    sizings.remove(at: index)
  }

  /// The size in bytes the cache counts for `value`, the render's result: the largest that a joined task
  /// reports — overcounting a result only makes the cache keep less, while undercounting lets it grow past its
  /// limit.
  @MainActor func resultBytes(of value: any Sendable) -> Int {
    Self.largestSize(of: value, by: sizings.map(\.size))
  }

  /// The largest size `sizings` give `value` (0 for none, or only negative ones): how the cache counts a result,
  /// on the main thread, and how the worker that made it counts it on its way there.
  static func largestSize(of value: any Sendable, by sizings: [@Sendable (any Sendable) -> Int]) -> Int {
    sizings.reduce(0) { largest, sizing in max(largest, sizing(value)) }
  }

  init(
    line: RenderLine, content: PreparedContent?, resultBytes: (@Sendable (any Sendable) -> Int)?,
    prepare: @escaping RenderWork
  ) {
    self.line = line
    self.content = content
    self.work = prepare
    if let resultBytes { sizings.append((nil, resultBytes)) }
  }

  /// The sizings of the tasks joined so far, for the worker that made the result to measure it as the cache will
  /// (``RenderLine/arrivedBytes``), outside the lock: the render holds them, so the copy never frees one. Lock held.
  var sizingsLocked: [@Sendable (any Sendable) -> Int] { sizings.map(\.size) }

  /// The work, for the worker that starts the render. Lock held.
  func prepareLocked() -> RenderWork? { work }

  /// Takes the work out of a dropped render, for the caller to release outside the lock. Lock held.
  func takePrepareLocked() -> RenderWork? {
    defer { work = nil }
    return work
  }
}
