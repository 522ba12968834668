import Foundation

/// The one process-wide pool of worker threads that runs every queue's renders (``shared``), so an app with a
/// queue per screen still has at most ``limit`` workers: the largest ``IdleQueue/Configuration/workers`` of its
/// queues. Each queue reaches it through its own ``PreparationLine``, bounded by its own `workers`.
///
/// Workers take work from the pool's own list, not one GCD dispatch per item, so unstarted work can be removed
/// and the order is the app's (``pickLocked()``). Threads wait on a condition (never polling), end after
/// ``idleTimeout``, and run at `userInitiated`; a prefetch runs lowered (``WorkerPriority``).
///
/// The pool never drops the last reference to a render or an outcome: what a render captured may have to be
/// freed on the main thread and never under a lock, so it goes to ``releaseOnMain(_:)``'s bin, emptied on the main
/// queue outside the lock. A pool made `byHand` starts no thread: tests run renders with ``runByHand(maximum:)``.
///
/// `@unchecked Sendable`: every mutable field — here, in the ``PreparationLine``s and in the lock-guarded fields of
/// the ``PreparationRun``s — is read and written only with `condition` (a lock) held; `byHand` is immutable.
final class WorkerPool: @unchecked Sendable {
  /// The process-wide pool every queue on a run-loop driver uses.
  static let shared = WorkerPool(byHand: false)

  /// How long a worker with nothing to do waits before it ends.
  static let idleTimeout: TimeInterval = 10
  static let idleTimeoutNanoseconds = UInt64(idleTimeout * 1e9)

  let condition = NSCondition()
  let byHand: Bool
  /// How a worker lowers itself for a prefetch (see ``WorkerPriority``).
  private let priority: WorkerPriority
  /// Whether workers lower themselves for prefetches: until raising one back fails.
  private var lowersPrefetches = true
  /// Where worker threads are started from (see ``startWorkerLocked()``).
  private let starter = DispatchQueue(label: "IdleWork worker starter", qos: .userInitiated)
  /// Renders not started, in submission order (entries dropped meanwhile are skipped and compacted away).
  private var waiting: [PreparationRun] = []
  /// Entries of `waiting` that were dropped and not yet taken out.
  private var droppedInWaiting = 0
  private var lines: [ObjectIdentifier: Int] = [:]
  /// Threads at most: the largest bound of the open lines.
  private var limit = 0
  private var threads = 0
  private var idle = 0
  /// Signals sent to idle workers that have not woken yet.
  private var signalled = 0
  private var peak = 0
  /// Renders running that started while no visible request wanted them (prefetches).
  private var prefetchesRunning = 0
  /// References to drop on the main thread (see ``releaseOnMain(_:)``).
  private var releaseBin: [AnyObject] = []

  init(byHand: Bool, priority: WorkerPriority = .platform) {
    self.byHand = byHand
    self.priority = priority
  }

  /// Whether workers still lower themselves for prefetches, for tests. Takes the lock.
  var lowersPrefetchesNow: Bool {
    condition.lock()
    defer { condition.unlock() }
    return lowersPrefetches
  }

  // MARK: Lines (lock held by the caller unless said otherwise)

  /// A line opens: the pool may grow to its bound. Takes the lock.
  func open(_ line: PreparationLine) {
    condition.lock()
    defer { condition.unlock() }
    lines[ObjectIdentifier(line)] = line.limit
    let grown = line.limit - limit
    limit = max(limit, line.limit)
    // Renders already waiting may start on the threads the larger limit allows.
    for _ in 0..<max(0, min(grown, waiting.count)) { startWorkerLocked() }
  }

  /// A line closed: its waiting renders are dropped and returned, to release on the main thread.
  func closeLocked(_ line: PreparationLine) -> [PreparationRun] {
    lines[ObjectIdentifier(line)] = nil
    limit = lines.values.max() ?? 0
    var dropped: [PreparationRun] = []
    for render in waiting where render.line === line && render.phase == .waiting {
      render.phase = .dropped
      dropped.append(render)
    }
    compactLocked()
    condition.broadcast()
    return dropped
  }

  /// Takes the dropped renders out of `waiting`, into the release bin: they may be the last references.
  private func compactLocked() {
    var kept: [PreparationRun] = []
    var gone: [AnyObject] = []
    for render in waiting {
      if render.phase == .waiting { kept.append(render) } else { gone.append(render) }
    }
    waiting = kept
    droppedInWaiting = 0
    releaseOnMainLocked(gone)
  }

  /// Puts a new render in line; starts a worker for it if some request wants it now.
  func submitLocked(_ render: PreparationRun) {
    waiting.append(render)
    if render.urgent > 0 { visibleRowArrivedLocked(render) }
    if render.wanted > 0 { startWorkerLocked() }
  }

  /// A waiting render was dropped: it is skipped, and the list compacted once dropped entries are half of it.
  func droppedLocked() {
    droppedInWaiting += 1
    if droppedInWaiting >= 32, droppedInWaiting * 2 >= waiting.count { compactLocked() }
  }

  /// Some render of `line` may have become runnable (wanted, or the line below its bound again).
  func wantedLocked() { startWorkerLocked() }

  func waitingCountLocked(of line: PreparationLine) -> Int {
    waiting.reduce(0) { $0 + ($1.line === line && $1.phase == .waiting ? 1 : 0) }
  }

  /// Worker threads alive now, and the most alive at once.
  var threadCounts: (now: Int, peak: Int) {
    condition.lock()
    defer { condition.unlock() }
    return (threads, peak)
  }

  /// Hands `references` to the main thread, which drops them outside the lock. Lock held.
  func releaseOnMainLocked(_ references: [AnyObject]) {
    guard !references.isEmpty else { return }
    releaseBin.append(contentsOf: references)
    guard releaseBin.count == references.count else { return }
    DispatchQueue.main.async { [self] in
      condition.lock()
      let released = releaseBin
      releaseBin = []
      condition.unlock()
      withExtendedLifetime(released) {}
    }
  }

  // MARK: Running

  /// Runs up to `maximum` renders on the calling thread, in the order workers take them; returns how many.
  func runByHand(maximum: Int) -> Int {
    var count = 0
    var wakes: [@Sendable () -> Void] = []
    var endsThread = false
    condition.lock()
    while count < maximum, runOneLocked(wakes: &wakes, endsThread: &endsThread) { count += 1 }
    condition.unlock()
    for wake in wakes { wake() }
    return count
  }

  // MARK: Main-thread renders

  // A queue's main-thread preparations live in a pool of their own made `byHand`, so that the bookkeeping of
  // workers' renders (waiting, wanted, dropped, cancelled, arrived) serves them unchanged; the queue's passes
  // choose, start and finish them with the calls below.

  /// What a render started by hand may do now.
  enum ByHand {
    /// Run its next slice.
    case run
    /// Stop: nothing waits for its result any more, or its queue ended.
    case cancelled
    /// Nothing: it is not waiting to start, nor running.
    case none
  }

  /// Starts `render` on the calling thread if it waits and a request wants it; says whether it may run a slice.
  func startByHand(_ render: PreparationRun) -> ByHand {
    condition.lock()
    defer { condition.unlock() }
    if render.phase == .running { return render.isCancelledLocked() ? .cancelled : .run }
    guard render.phase == .waiting, render.wanted > 0, !render.line.isClosed,
      let index = waiting.firstIndex(where: { $0 === render })
    else { return .none }
    markRunningLocked(waiting.remove(at: index))
    render.line.running += 1
    render.line.peakRunning = max(render.line.peakRunning, render.line.running)
    return .run
  }

  /// The renders under way on the calling thread that nothing waits for any more: their next step only ends them.
  func abandonedByHand(of line: PreparationLine) -> [PreparationRun] {
    condition.lock()
    defer { condition.unlock() }
    return line.runningRenders.filter { $0.live == 0 }
  }

  /// The render to run next on the calling thread, with whether a visible row's request wants it; `nil` if none
  /// waits. It is only chosen: ``startByHand(_:)`` starts it once the pass admits it. Those in `passedOver` are
  /// not chosen. A visible row's under way comes first; then a visible row's the pick rule chooses; then any under
  /// way (a prefetch's, or a row's gone off screen); then the prefetch the pick rule chooses.
  func nextByHand(
    of line: PreparationLine, passingOver passedOver: [PreparationRun] = []
  ) -> (render: PreparationRun, isVisible: Bool)? {
    condition.lock()
    defer { condition.unlock() }
    func isEligible(_ render: PreparationRun) -> Bool { !passedOver.contains { $0 === render } }
    let running = line.runningRenders.filter(isEligible)
    if let visible = running.first(where: { $0.urgent > 0 }) { return (visible, true) }
    let chosen = chooseLocked(passingOver: passedOver).map { waiting[$0.index] }
    if let chosen, chosen.urgent > 0 { return (chosen, true) }
    if let running = running.first { return (running, false) }
    return chosen.map { ($0, false) }
  }

  /// Ends every render of `line` under way on the calling thread (its queue ended); returns them, for the caller to
  /// release what their work captured.
  func endAllByHand(of line: PreparationLine) -> [PreparationRun] {
    condition.lock()
    defer { condition.unlock() }
    let ended = line.runningRenders
    for render in ended { endRunLocked(render) }
    return ended
  }

  /// A render started by hand ended with `outcome`: it arrives as a worker's would.
  func finishByHand(_ render: PreparationRun, _ outcome: Result<any Sendable, any Error>) {
    condition.lock()
    defer { condition.unlock() }
    let line = render.line
    guard render.phase == .running else { return }
    endRunLocked(render)
    guard !line.isClosed else { return }
    render.outcome = outcome
    line.arrivals.append(render)
  }

  /// Whether a render of `line` is under way or could start now (a prefetch only with room for its result). Takes
  /// the lock.
  func hasStartableWork(of line: PreparationLine) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    return line.running > 0
      || waiting.contains {
        $0.line === line && $0.phase == .waiting && $0.wanted > 0 && !line.isClosed
          && ($0.urgent > 0 || line.prefetchFits($0))
      }
  }

  /// `line`'s arrivals were taken in: a prefetch they held back may start, on as many workers as the line may use.
  func arrivalsTakenLocked(_ line: PreparationLine) {
    guard line.prefetchWaitsForTakeIn else { return }
    line.prefetchWaitsForTakeIn = false
    for _ in 0..<max(1, line.limit - line.running) { startWorkerLocked() }
  }

  /// Wakes an idle worker, or starts a thread if none is idle and the limit allows.
  private func startWorkerLocked() {
    guard !byHand, !lines.isEmpty else { return }
    if idle > signalled {
      signalled += 1
      condition.signal()
    } else if threads < limit {
      threads += 1
      peak = max(peak, threads)
      // Started from a `userInitiated` queue: on Linux `qualityOfService` changes nothing and a thread inherits
      // its creator's priority. A serial queue of its own gets a thread even when the global ones are busy.
      starter.async { [self] in
        let thread = Thread { [self] in work() }
        thread.name = "IdleWork worker"
        thread.qualityOfService = .userInitiated
        thread.start()
      }
    }
  }

  /// A worker's life: run the most urgent render, or wait on the condition; end after ``idleTimeout`` idle, with no
  /// line open, when idle with more threads than the limit, or when it could not be raised back after a prefetch.
  private func work() {
    condition.lock()
    var endsThread = false
    while !lines.isEmpty {
      var wakes: [@Sendable () -> Void] = []
      if runOneLocked(wakes: &wakes, endsThread: &endsThread) {
        if !wakes.isEmpty {
          condition.unlock()
          for wake in wakes { wake() }
          condition.lock()
        }
        if endsThread { break }
        continue
      }
      // More threads than the limit (a queue with more workers ended): one with nothing to do ends.
      if threads > limit { break }
      // A prefetch held back by the pacing may start when the pacing ends: wait until then at most.
      let now = DispatchTime.now().uptimeNanoseconds
      let pacingEnds = prefetchHeldBack ? pacing.endsAt : nil
      let waitNanoseconds = pacingEnds.map { $0 > now ? min($0 - now, Self.idleTimeoutNanoseconds) : 0 }
      idle += 1
      let signalledInTime = condition.wait(
        until: Date(timeIntervalSinceNow: Double(waitNanoseconds ?? Self.idleTimeoutNanoseconds) / 1e9))
      idle -= 1
      if signalled > 0 {
        signalled -= 1
      } else if !signalledInTime, pacingEnds == nil, !hasStartableWorkLocked {
        break  // idle for the whole timeout, and still nothing to do
      }
    }
    threads -= 1
    if endsThread, hasStartableWorkLocked { startWorkerLocked() }  // another thread takes what waits
    condition.unlock()
  }

  /// Picks, runs (lock released meanwhile) and hands over one render; returns whether one ran. A wake-up due goes
  /// to `wakes`, to call without the lock; `endsThread` is set if a lowered worker could not be raised back. Its
  /// references to the render end with the lock held, once the render is in arrivals or the release bin.
  private func runOneLocked(wakes: inout [@Sendable () -> Void], endsThread: inout Bool) -> Bool {
    guard let render = pickLocked() else { return false }
    let line = render.line
    line.running += 1
    line.peakRunning = max(line.peakRunning, line.running)
    let work = render.prepareLocked()
    let lowering = !byHand && render.startedAsPrefetch && lowersPrefetches ? PrefetchLowering(priority) : nil
    condition.unlock()
    lowering?.lower()
    var outcome: Result<any Sendable, any Error>? = run(render, work, lowering)
    lowering?.raise()
    // Measured here, off the lock, as the cache will count it, so prefetches know the bytes waiting for a pass.
    var bytes = 0
    if line.measuresResults, case .success(let value)? = outcome {
      condition.lock()
      let sizings = render.sizingsLocked
      condition.unlock()
      bytes = PreparationRun.largestSize(of: value, by: sizings)
    }
    condition.lock()
    if lowering?.raiseFailed == true {
      lowersPrefetches = false
      endsThread = true
    }
    endRunLocked(render)
    // Not `Optional.take()`: the iOS SDK `ios-check` type-checks against predates it.
    let taken = outcome!
    outcome = nil
    if line.isClosed {
      releaseOnMainLocked([render, OutcomeBox(taken)])
    } else {
      render.outcome = taken
      line.arrivals.append(render)
      line.arrived(render, bytes: bytes)
      if line.needsWake {
        line.needsWake = false
        wakes.append(line.wake)
      }
    }
    return true
  }

  /// A running render finished: it leaves its line's running count (and the prefetch share). Lock held.
  private func endRunLocked(_ render: PreparationRun) {
    let line = render.line
    line.running -= 1
    line.runningBytes -= render.countedBytes
    if let index = line.runningRenders.firstIndex(where: { $0 === render }) { line.runningRenders.remove(at: index) }
    if render.startedAsPrefetch {
      prefetchesRunning -= 1
      line.prefetchesRunning -= 1
    }
    render.phase = .finished
  }

  /// Runs `render`'s work; a poll that finds a lowered prefetch joined by a visible request raises the worker
  /// back. The work was read under the lock and the render keeps it, so this copy is not the last reference.
  private func run(
    _ render: PreparationRun, _ work: PreparationWork?, _ lowering: PrefetchLowering?
  ) -> Result<any Sendable, any Error> {
    let isCancelled: @Sendable () -> Bool = { [self] in
      condition.lock()
      let cancelled = render.isCancelledLocked()
      let joined = lowering != nil && render.urgent > 0
      condition.unlock()
      if joined { lowering?.raise() }
      return cancelled
    }
    let context = PreparationContext(
      isCancelled: isCancelled, cancellation: render.cancellation, isPrefetch: render.startedAsPrefetch,
      turnsMainRunLoop: byHand && Thread.isMainThread)
    return Result { try work!(context) }
  }

  /// Takes the render ``WorkerPick`` chooses out of line, marking it running, and notes what the choice passed over.
  private func pickLocked() -> PreparationRun? {
    guard let chosen = chooseLocked() else { return nil }
    let render = markRunningLocked(waiting.remove(at: chosen.index))
    if chosen.isPrefetch {
      render.startedAsPrefetch = true
      prefetchesRunning += 1
      render.line.prefetchesRunning += 1
    }
    return render
  }

  /// A render taken out of `waiting` is running. Lock held.
  @discardableResult
  private func markRunningLocked(_ render: PreparationRun) -> PreparationRun {
    render.phase = .running
    render.countedBytes = render.line.estimateLocked(render)
    render.line.runningBytes += render.countedBytes
    render.line.wantedWaiting -= 1
    render.line.runningRenders.append(render)
    return render
  }

  /// The waiting render ``WorkerPick`` chooses, by its index in `waiting`, noting what the choice passed over.
  private func chooseLocked(passingOver passedOver: [PreparationRun] = []) -> (index: Int, isPrefetch: Bool)? {
    let paced = isPacingLocked
    let candidates = waiting.map { render -> WorkerPick.Candidate in
      let line = render.line
      let isStartable =
        render.phase == .waiting && render.wanted > 0 && !line.isClosed && line.running < line.limit
        && !passedOver.contains { $0 === render }
      guard isStartable, render.urgent == 0 else {
        return WorkerPick.Candidate(
          isStartable: isStartable, isVisible: true, hasCells: render.cells > 0, visibleSince: render.visibleSince)
      }
      return WorkerPick.Candidate(
        isStartable: true, isVisible: false, hasCells: render.cells > 0, distance: render.distance,
        resultsFit: line.prefetchFits(render),
        pacingAllows: prefetchMayStart(on: line, paced: paced))
    }
    let choice = WorkerPick.choose(candidates)
    for index in choice.waitingForTakeIn { waiting[index].line.prefetchWaitsForTakeIn = true }
    prefetchHeldBack = choice.heldBackByPacing
    return choice.index.map { ($0, choice.isPrefetch) }
  }

  /// Whether a prefetch of `line` may start now, within the pacing's share of the pool's and the line's workers.
  private func prefetchMayStart(on line: PreparationLine, paced: Bool) -> Bool {
    guard paced else { return true }  // (the line's bound was checked by the caller)
    return prefetchesRunning < max(1, limit - 1) && line.prefetchesRunning < max(1, line.limit - 1)
  }

  /// Whether some render could start now (a worker that timed out looks once more before it ends).
  private var hasStartableWorkLocked: Bool {
    waiting.contains { $0.phase == .waiting && $0.wanted > 0 && !$0.line.isClosed && $0.line.running < $0.line.limit }
  }

  /// Set by a pick that the pacing held back: a worker then waits only until the pacing ends.
  private var prefetchHeldBack = false

  private var pacing = PrefetchPacing()

  private var isPacingLocked: Bool { pacing.isPacing(at: DispatchTime.now().uptimeNanoseconds) }

  /// Whether a tracking pass lately found the main thread's frames tight, for tests. Takes the lock.
  var framesWereTightLately: Bool {
    condition.lock()
    defer { condition.unlock() }
    return pacing.framesWereTightLately(at: DispatchTime.now().uptimeNanoseconds)
  }

  /// How many times a render became wanted by a visible row: the count ``PreparationRun/visibleSince`` is taken from.
  private var visibleMoments: UInt64 = 0

  /// A visible row's preparation became startable: it is the latest (``PreparationRun/visibleSince``); if no worker is free
  /// for it, the pacing notes it. Lock held.
  func visibleRowArrivedLocked(_ render: PreparationRun) {
    visibleMoments &+= 1
    render.visibleSince = visibleMoments
    let line = render.line
    if (idle <= signalled && threads >= limit) || line.running >= line.limit {
      pacing.noteVisibleRowWaited(at: DispatchTime.now().uptimeNanoseconds)
    }
  }

  /// A queue ran a tracking pass, which found the frames tight or not (see ``PrefetchPacing``). Takes the lock.
  func noteTracking(framesAreTight: Bool) {
    condition.lock()
    pacing.noteTracking(at: DispatchTime.now().uptimeNanoseconds, framesAreTight: framesAreTight)
    condition.unlock()
  }
}

/// An outcome handed to the release bin (which holds objects).
final class OutcomeBox {
  let outcome: Result<any Sendable, any Error>
  init(_ outcome: Result<any Sendable, any Error>) { self.outcome = outcome }
}
