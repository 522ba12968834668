import Foundation
import IdleWork

/// One preparation — on a worker, or on the main thread in its queue's passes: a `prepare` closure, the requests
/// waiting for its result, and where it stands (its ``PreparationLife``, the pure rule of its phases). Requests for
/// the same content share one preparation.
///
/// `@unchecked Sendable`: the fields marked *guarded by the pool's lock* are read and written only with the
/// ``WorkerPool``'s lock held (workers and the main thread both reach them); those marked *main thread only*
/// are touched only by the queue's main-actor code; the rest are immutable. A preparation is always freed on the
/// main thread, outside any lock (see ``WorkerPool``): what `prepare` captured is released there.
final class PreparationRun: @unchecked Sendable {
  /// Whether a preparation's outcome reached the main thread.
  enum Arrival {
    case none
    case value
    case error
  }

  /// The work, run on a worker. Guarded by the pool's lock: taken out when the preparation is dropped
  /// (``takePrepareLocked()``), so what it captures is freed at once, on the main thread, outside the lock.
  private var work: PreparationWork?
  /// The content key requests share the preparation and the cache by.
  let content: PreparedContent?
  let line: PreparationLine

  // Guarded by the pool's lock.
  /// Its phase and the requests that wait for it: changed only through ``PreparationLife/apply(_:)``.
  var life = PreparationLife()
  var phase: PreparationLife.Phase { life.phase }
  var live: Int { life.requests.live }
  var wanted: Int { life.requests.wanted }
  var urgent: Int { life.requests.urgent }
  var cells: Int { life.requests.cells }
  var outcome: Result<any Sendable, any Error>?
  /// Pool order among preparations no visible request wants: the prefetch's place, nearest first (`Int.max`: a
  /// discardable task's).
  var distance = Int.max
  /// When a visible request last came to want it, in the pool's count of such moments: the pool starts the latest
  /// visible row first (`WorkerPool.pickLocked()`).
  var visibleSince: UInt64 = 0
  /// Whether it started while no visible request wanted it: it counts against the prefetch share until it ends.
  var startedAsPrefetch = false
  /// The worker lane it runs on (``WorkerPool``), once sent to one.
  var lane: Int?
  /// What the line counts its result at while it runs (``PreparationLine/estimateLocked(_:)``).
  var countedBytes = 0
  /// Whether a check of the cells on the main thread is on its way, and when the last one was asked for.
  var cellCheckPending = false
  var lastCellCheck: UInt64 = 0

  /// Cancels its `async` work as a task when nothing waits for it any more (see ``PreparationLine``).
  let cancellation = PreparationCancellation()

  // Main thread only.
  /// Whether a live prefetch of its queue holds it (see `QueuePreparation.prefetches`).
  var isPrefetched = false
  /// Whether a prefetch ever held it: a result with no task waiting then goes to the cache for later.
  var wasPrefetched = false
  /// Whether its result arrived for a prefetch alone: it counts wasted only if it leaves the cache unused.
  var keptForLater = false
  /// The requests that joined the preparation and are still in the queue's list, in order.
  var requests: [PreparedRequest] = []
  var arrival: Arrival = .none
  var applied = false
  /// Whether the preparation's end was counted, so it is counted once.
  var settled = false
  /// Its result's pin in the cache, held for its tasks (``ResultCache/pin(_:)``) until it is settled.
  var cachePin: ResultCache.Pin?
  /// How the waiting tasks size the result for the cache, with the task each came with (`nil`: a prefetch's); the
  /// last stays, so a result is never cached at no size. Written on the main thread with the pool's lock held, read
  /// there without it (no other thread writes it) and by the worker that made the result (``sizingsLocked``).
  private var sizings: [(owner: ObjectIdentifier?, size: @Sendable (any Sendable) -> Int)] = []

  /// Whether a request has not left, as the main thread sees it.
  @MainActor var hasLiveRequests: Bool { requests.contains { $0.isLive } }

  /// Whether the work should stop: no request waits for it, its queue ended, or every cell it works for was
  /// released. Only the main thread may look at cells (a worker must not hold a UI object), so a poll asks it to,
  /// at most once per ``PreparationLine/cellCheckInterval``; a later poll sees the answer. Lock held.
  func isCancelledLocked() -> Bool {
    if line.isClosed || live == 0 { return true }
    guard cells == live else { return false }
    let now = DispatchTime.now().uptimeNanoseconds
    if !cellCheckPending, now &- lastCellCheck >= PreparationLine.cellCheckInterval {
      cellCheckPending = true
      lastCellCheck = now
      let line = line
      DispatchQueue.main.async { [self] in line.checkCells(self) }
    }
    return false
  }

  /// A task (`owner`) or a prefetch (`nil`) joining the preparation brings its way of sizing the result for the cache.
  @MainActor func adoptResultBytes(_ resultBytes: (@Sendable (any Sendable) -> Int)?, for owner: AnyObject?) {
    guard let resultBytes else { return }
    let owner = owner.map(ObjectIdentifier.init)
    line.pool.lock.lock()
    defer { line.pool.lock.unlock() }
    if owner == nil, sizings.contains(where: { $0.owner == nil }) { return }
    sizings.append((owner, resultBytes))
  }

  /// The task `owner` left: its sizing goes, unless it is the last.
  @MainActor func forgetResultBytes(of owner: AnyObject) {
    line.pool.lock.lock()
    defer { line.pool.lock.unlock() }
    guard sizings.count > 1, let index = sizings.firstIndex(where: { $0.owner == ObjectIdentifier(owner) }) else {
      return
    }
    sizings.remove(at: index)
  }

  /// The size the cache counts for the result: the largest a joined task reports, since undercounting would let
  /// the cache grow past its limit.
  @MainActor func resultBytes(of value: any Sendable) -> Int {
    Self.largestSize(of: value, by: sizings.map(\.size))
  }

  /// The largest size `sizings` give `value` (at least 0), on the main thread and on the worker alike.
  static func largestSize(of value: any Sendable, by sizings: [@Sendable (any Sendable) -> Int]) -> Int {
    sizings.reduce(0) { largest, sizing in max(largest, sizing(value)) }
  }

  init(
    line: PreparationLine, content: PreparedContent?, resultBytes: (@Sendable (any Sendable) -> Int)?,
    prepare: PreparationPlace
  ) {
    self.line = line
    self.content = content
    switch prepare {
    case .worker(let work):
      self.work = work
      runsOnMainThread = false
    case .mainThread(let start):
      mainThreadStart = start
      runsOnMainThread = true
    }
    if let resultBytes { sizings.append((nil, resultBytes)) }
  }

  // Main thread only: the work of a preparation that runs on the main thread, in its queue's passes.
  /// Makes its slices when it starts; `nil` for a worker's preparation.
  private(set) var mainThreadStart: (@MainActor () -> MainThreadSlices<any Sendable>)?
  /// The slices of the main-thread work under way.
  var slices: MainThreadSlices<any Sendable>?

  /// Whether its work runs on the main thread (immutable).
  let runsOnMainThread: Bool

  /// Its main-thread work's slices, made as it starts.
  @MainActor func mainThreadSlices() -> MainThreadSlices<any Sendable> { mainThreadStart!() }

  /// Drops the main-thread work once it ended (what it captured is freed).
  func endMainThreadWork() {
    mainThreadStart = nil
    slices = nil
  }

  /// The sizings, for the worker to use outside the lock (the preparation holds them: the copy frees none). Lock held.
  var sizingsLocked: [@Sendable (any Sendable) -> Int] { sizings.map(\.size) }

  /// The work, for the worker that starts the preparation. Lock held.
  func prepareLocked() -> PreparationWork? { work }

  /// Takes the work out of a dropped preparation — a worker's, or a main-thread start — for the caller to release
  /// outside the lock. Lock held; on the main thread (what drops a preparation runs there).
  func takePrepareLocked() -> Any? {
    defer {
      work = nil
      mainThreadStart = nil
    }
    return work ?? mainThreadStart.map { $0 as Any }
  }
}
