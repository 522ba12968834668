import Foundation
import IdleWork

/// One queue's line into a ``WorkerPool``: its preparations, their arrived results, its run loop's wake-up, and its
/// bound of ``limit`` preparations at once (``Preparer/Configuration-swift.struct/workers``).
///
/// Outcomes reach the main thread through ``takeArrivals()``; only the first arrival after each take wakes the
/// run loop, so a burst costs one wake-up. One arriving after ``close()`` is released on the main thread.
///
/// `@unchecked Sendable`: `pool`, `limit`, `measuresResults`, `wake` and `checkCells` are immutable; every other
/// field is read and written only with the pool's lock held.
final class PreparationLine: @unchecked Sendable {
  let pool: WorkerPool
  let limit: Int
  /// Whether its queue has a result cache: only then do workers measure results (``arrived(bytes:)``).
  let measuresResults: Bool
  let wake: @Sendable () -> Void
  /// Called on the main thread, at most once per ``cellCheckInterval``, while a preparation for cells only polls
  /// `isCancelled()`: requests of released cells are dropped, so it learns it is cancelled.
  let checkCells: @Sendable (PreparationRun) -> Void

  /// How often a running preparation's cells are checked, at most: about half a 60 Hz frame.
  static let cellCheckInterval: UInt64 = 8_000_000

  // Guarded by the pool's lock.
  /// Preparations finished and not yet taken by the main thread.
  var arrivals: [PreparationRun] = []
  /// A prefetch of this line was held back because ``arrivals`` reached its bound: taking them in wakes workers.
  var prefetchWaitsForTakeIn = false
  /// The cache's room for this line's prefetched results (``noteCache(_:)``); none until the results taken are cached.
  var cacheRoom = CacheRoom()
  /// The sizes of the last results measured (at most ``recentSizesKept``): the result of a preparation not measured
  /// yet is reckoned at their largest (``estimateLocked(_:)``).
  var recentSizes: [Int] = []
  static let recentSizesKept = 8
  /// The size of each preparation's last result: what its next one is reckoned at (at most ``lastSizesKept``).
  var lastSizes: [PreparationIdentity: Int] = [:]
  static let lastSizesKept = 256
  /// Whether the cache has told its room for prefetched results: it had seen a result's size.
  var knowsCacheRoom = false
  /// The bytes of the results in ``arrivals``, measured by their workers (``PreparationRun/sizingsLocked``).
  var arrivedBytes = 0
  var isClosed = false
  var needsWake = true
  /// Preparations running now, and the most at once; and the bytes their results are reckoned at.
  var running = 0
  var runningBytes = 0
  var peakRunning = 0
  /// Preparations waiting to start that some request wants now.
  var wantedWaiting = 0
  /// Preparations running now that started as prefetches.
  var prefetchesRunning = 0
  /// Preparations running now, to cancel when the line closes.
  var runsUnderWay: [PreparationRun] = []

  init(
    pool: WorkerPool, limit: Int, measuresResults: Bool = true, wake: @escaping @Sendable () -> Void,
    checkCells: @escaping @Sendable (PreparationRun) -> Void
  ) {
    self.pool = pool
    self.limit = limit
    self.measuresResults = measuresResults
    self.wake = wake
    self.checkCells = checkCells
    pool.open(self)
  }

  // MARK: Main thread

  /// Puts a new preparation in line. After ``close()`` it is dropped at once.
  func submit(_ run: PreparationRun) {
    pool.lock.lock()
    defer { pool.lock.unlock() }
    guard !isClosed else {
      _ = run.life.apply(.queueEnded)
      return
    }
    if run.wanted > 0 { wantedWaiting += 1 }
    pool.submitLocked(run)
  }

  /// Changes a preparation's request counts: a waiting preparation no request needs is dropped; one newly wanted gets
  /// a worker. Returns how the preparation had finished, if it had and its outcome was not taken in yet, read in the
  /// same locked step.
  @discardableResult
  func adjust(
    _ run: PreparationRun, live: Int = 0, wanted: Int = 0, urgent: Int = 0, cells: Int = 0
  ) -> PreparationRun.Arrival {
    var released: Any?
    var cancelled: PreparationCancellation?
    pool.lock.lock()
    var finished = PreparationRun.Arrival.none
    switch run.outcome {
    case .success?: finished = .value
    case .failure?: finished = .error
    case nil: break
    }
    let effects = run.life.apply(.requests(.init(live: live, wanted: wanted, urgent: urgent, cells: cells)))
    wantedWaiting += effects.wantedWaiting
    if effects.becameVisible { pool.visibleRowArrivedLocked(run) }
    if effects.dropped {
      released = run.takePrepareLocked()
      pool.droppedLocked()
    }
    if effects.mayStart { pool.wantedLocked() }
    if effects.cancelRunning { cancelled = run.cancellation }
    if effects.joinedWhileRunning { pool.joinedLocked(run) }
    pool.lock.unlock()
    withExtendedLifetime(released) {}  // what `prepare` captured, freed here: main thread, no lock
    cancelled?.cancel()  // `async` work is cancelled as a task
    return finished
  }

  /// Sets the pool order of a preparation a prefetch now wants: the earlier of its places in the prefetch order, or
  /// `distance` `exactly` (its prefetch was passed, or asked for again).
  func setDistance(_ run: PreparationRun, _ distance: Int, exactly: Bool = false) {
    pool.lock.lock()
    defer { pool.lock.unlock() }
    run.distance = exactly ? distance : min(run.distance, distance)
  }

  /// The preparation's prefetch ended: its place goes, so a discardable task keeping it waits after every prefetch.
  func forgetDistance(_ run: PreparationRun) {
    pool.lock.lock()
    defer { pool.lock.unlock() }
    run.distance = Int.max
  }

  /// Whether the preparation finished (its outcome may not have been taken in yet).
  func hasFinished(_ run: PreparationRun) -> Bool {
    pool.lock.lock()
    defer { pool.lock.unlock() }
    if case .finished = run.phase { return true }
    return false
  }

  /// Whether a request may still join the preparation: it waits or runs with a live request (else it may have been
  /// told it is cancelled), or finished with a value awaiting a pass (a reloaded row then applies it).
  func isJoinable(_ run: PreparationRun) -> Bool {
    pool.lock.lock()
    defer { pool.lock.unlock() }
    switch run.phase {
    case .waiting, .running: return run.live > 0
    case .finished:
      if case .success? = run.outcome { return true }
      return false
    case .dropped: return false
    }
  }

  /// A preparation's cells were checked on the main thread: the next poll may ask again.
  func cellsChecked(_ run: PreparationRun) {
    pool.lock.lock()
    defer { pool.lock.unlock() }
    run.cellCheckPending = false
  }

  /// Whether preparations finished since the last ``takeArrivals()``.
  var hasArrivals: Bool {
    pool.lock.lock()
    defer { pool.lock.unlock() }
    return !arrivals.isEmpty
  }

  /// Takes the preparations finished since the last call, with their outcomes (taken out of the preparations).
  func takeArrivals() -> [(run: PreparationRun, outcome: Result<any Sendable, any Error>)] {
    pool.lock.lock()
    defer { pool.lock.unlock() }
    needsWake = true
    guard !arrivals.isEmpty else { return [] }
    let taken = arrivals.map { run in
      defer { run.outcome = nil }
      return (run, run.outcome!)
    }
    arrivals = []
    arrivedBytes = 0
    // The results taken are counted nowhere until they are in the cache (``noteCache``): till then, no room.
    cacheRoom = CacheRoom()
    pool.arrivalsTakenLocked(self)
    return taken
  }

  /// The cache's room for prefetched results, as the main thread last told it (see ``ResultCache``).
  struct CacheRoom {
    /// Bytes a result may take beside those a prefetch wants and those tasks hold.
    var free = 0
    /// Bytes a result ranked before every wanted one may take (it may push them out), and the nearest wanted place.
    var freeBefore = 0
    var nearestWanted = Int.min
    /// The cache's whole room: no estimate counts more, so a preparation whose last result was larger than the
    /// cache still starts once the cache is empty of what it must keep.
    var whole = 0
  }

  /// The cache's room (``CacheRoom``), less what the queue's other line has on its way.
  func noteCache(_ room: CacheRoom) {
    pool.lock.lock()
    defer { pool.lock.unlock() }
    cacheRoom = room
    knowsCacheRoom = !recentSizes.isEmpty
    // Results that arrived meanwhile may have held a prefetch back: with room for them, it may start now.
    if prefetchWaitsForTakeIn, resultsOnTheirWayFit(nil) { pool.arrivalsTakenLocked(self) }
  }

  /// Whether `run`, a prefetch, may start: the results on their way and its own fit in the cache's room for it,
  /// by its place in the order rows will appear. Before any result's size is known, as many as the line's bound may
  /// be on their way, to learn it. Lock held.
  func prefetchFits(_ run: PreparationRun) -> Bool {
    guard knowsCacheRoom else { return arrivals.count + running < limit }
    return resultsOnTheirWayFit(run)
  }

  /// The bytes of this line's results on their way: those arrived, and those running as estimated when they
  /// started. Lock held.
  var bytesOnTheirWayLocked: Int {
    let (bytes, overflow) = runningBytes.addingReportingOverflow(arrivedBytes)
    return overflow ? .max : bytes
  }

  /// What `run`'s result is reckoned at: its preparation's last result, or the largest recent size. Lock held.
  func estimateLocked(_ run: PreparationRun) -> Int {
    run.content.flatMap { lastSizes[$0.work] } ?? recentSizes.max() ?? 0
  }

  /// ``bytesOnTheirWayLocked``, taking the lock.
  var bytesOnTheirWay: Int {
    pool.lock.lock()
    defer { pool.lock.unlock() }
    return bytesOnTheirWayLocked
  }

  /// Whether the results on their way and one more — `run`, a prefetch (see ``estimateLocked(_:)``; `nil`: the
  /// largest recent size) — fit in the cache's room for it. Capped at ``waitingResultsCap``, since sizes counted
  /// small bound nothing. Lock held.
  func resultsOnTheirWayFit(_ run: PreparationRun?) -> Bool {
    guard !recentSizes.isEmpty, cacheRoom.whole > 0, arrivals.count < waitingResultsCap else { return false }
    let distance = run?.distance ?? .max
    let free = distance < cacheRoom.nearestWanted ? cacheRoom.freeBefore : cacheRoom.free
    let estimate = min(run.map(estimateLocked) ?? recentSizes.max()!, cacheRoom.whole)
    let (bytes, overflow) = bytesOnTheirWayLocked.addingReportingOverflow(estimate)
    return !overflow && bytes <= free
  }

  /// `run`'s result took `bytes` (as the cache will count it). Lock held.
  func measuredLocked(_ bytes: Int, of run: PreparationRun) {
    if recentSizes.count == Self.recentSizesKept { recentSizes.removeFirst() }
    recentSizes.append(bytes)
    guard let work = run.content?.work else { return }
    // Bounded: preparations made anew per row would each add one.
    if lastSizes.count >= Self.lastSizesKept, lastSizes[work] == nil { lastSizes = [:] }
    lastSizes[work] = bytes
  }

  /// ``measuredLocked(_:of:)``, taking the lock (the main thread measures its own preparations' results).
  func measured(_ bytes: Int, of run: PreparationRun) {
    pool.lock.lock()
    defer { pool.lock.unlock() }
    measuredLocked(bytes, of: run)
  }

  /// A worker put `run`'s result of `bytes` (as the cache will count it) in ``arrivals``. Lock held.
  func arrived(_ run: PreparationRun, bytes: Int) {
    let (sum, overflow) = arrivedBytes.addingReportingOverflow(bytes)
    arrivedBytes = overflow ? Int.max : sum
    measuredLocked(bytes, of: run)
  }

  /// Results waiting for the main thread at most while prefetches go on.
  var waitingResultsCap: Int { 4 * limit }

  /// Ends the line: waiting preparations are dropped, running ones cancelled. Returns the arrivals not taken and what
  /// was dropped, for the caller to release on the main thread, outside the lock.
  func close() -> (arrivals: [(run: PreparationRun, outcome: Result<any Sendable, any Error>)], dropped: [Any]) {
    pool.lock.lock()
    isClosed = true
    let dropped = pool.closeLocked(self)
    let work = dropped.map { $0.takePrepareLocked() as Any }
    let running = runsUnderWay.map(\.cancellation)
    wantedWaiting = 0
    pool.lock.unlock()
    for cancellation in running { cancellation.cancel() }
    return (takeArrivals(), dropped + work)
  }

  /// Whether a result is on its way: a preparation of this line runs, or waits while some request wants it.
  var isPreparing: Bool {
    pool.lock.lock()
    defer { pool.lock.unlock() }
    return running > 0 || wantedWaiting > 0
  }

  /// Preparations of this line waiting to start (wanted or not).
  var waitingCount: Int {
    pool.lock.lock()
    defer { pool.lock.unlock() }
    return pool.waitingCountLocked(of: self)
  }

  /// The most preparations of this line that ran at once.
  var peakRunningCount: Int {
    pool.lock.lock()
    defer { pool.lock.unlock() }
    return peakRunning
  }
}
