import Foundation
import IdleWork

/// The one process-wide pool of workers that runs every queue's preparations (``shared``), so an app with a queue per
/// screen still has at most ``limit`` running at once: the largest `Preparer.Configuration.workers` of its
/// queues. Each queue reaches it through its own ``PreparationLine``, bounded by its own `workers`.
///
/// The pool keeps its own list of preparations not started, so unstarted work can be removed and the order is the app's
/// (``WorkerPick``); a preparation leaves the list only when a worker is free for it. A worker is a lane: two serial
/// dispatch queues, one on the global `userInitiated` queue for visible rows' preparations and one on the `utility`
/// queue for prefetches', so a prefetch takes only the cores visible work leaves (on Linux too, where libdispatch runs
/// those queues' threads at a niceness per class). A visible row that joins a running prefetch sends its queue an
/// empty `userInitiated` block: on Apple's platforms that overrides the running block's QoS; Linux's libdispatch has
/// no such override, and the prefetch ends at `utility`.
///
/// The pool never drops the last reference to a preparation or an outcome: what a preparation captured may have to be
/// freed on the main thread and never under a lock, so it goes to ``releaseOnMain(_:)``'s bin, emptied on the main
/// queue outside the lock. A pool made `byHand` dispatches nothing: tests run preparations with
/// ``runByHand(maximum:)``.
///
/// `@unchecked Sendable`: every mutable field — here, in the ``PreparationLine``s and in the lock-guarded fields of
/// the ``PreparationRun``s — is read and written only with `lock` held; `byHand` and `submit` are
/// immutable.
final class WorkerPool: @unchecked Sendable {
  /// The process-wide pool every queue on a run-loop driver uses.
  static let shared = WorkerPool(byHand: false)

  let lock = NSLock()
  let byHand: Bool
  /// Sends a preparation's block to its lane at its QoS (tests log what is asked of it).
  private let submit: Submit
  /// Preparations not started, in submission order (entries dropped meanwhile are skipped and compacted away).
  var waiting: [PreparationRun] = []
  /// Entries of `waiting` that were dropped and not yet taken out.
  var droppedInWaiting = 0
  var lines: [ObjectIdentifier: Int] = [:]
  /// Workers busy at most: the largest bound of the open lines.
  var limit = 0
  /// The lanes made so far, and those with no preparation.
  private var lanes: [Lane] = []
  private var freeLanes: [Int] = []
  var busyLanes: Int { lanes.count - freeLanes.count }
  /// The preparation each busy lane's block is to run.
  private var laneRuns: [Int: PreparationRun] = [:]
  var peak = 0
  /// Preparations running that started while no visible request wanted them (prefetches).
  private var prefetchesRunning = 0
  /// References to drop on the main thread (see ``releaseOnMain(_:)``).
  var releaseBin: [AnyObject] = []
  /// When a start the pacing held back is due, if one is scheduled.
  private var pacingWakeAt: UInt64?

  /// A worker: where its visible rows' preparations run, and where its prefetches do.
  private struct Lane {
    let visible: DispatchQueue
    let prefetch: DispatchQueue

    init(_ number: Int) {
      visible = DispatchQueue(label: "IdleWork worker \(number)", target: .global(qos: .userInitiated))
      prefetch = DispatchQueue(label: "IdleWork worker \(number), prefetch", target: .global(qos: .utility))
    }
  }

  /// How a block reaches a lane's queue: the queue, the QoS, the block.
  typealias Submit = @Sendable (DispatchQueue, DispatchQoS, @escaping @Sendable () -> Void) -> Void

  /// The real thing: the block runs at `qos`, even on a lane with work of a lower one waiting.
  static let dispatch: Submit = { lane, qos, block in lane.async(qos: qos, flags: .enforceQoS, execute: block) }

  init(byHand: Bool, submit: @escaping Submit = WorkerPool.dispatch) {
    self.byHand = byHand
    self.submit = submit
  }

  // MARK: Running

  /// Runs up to `maximum` preparations on the calling thread, in the order workers take them; returns how many.
  func runByHand(maximum: Int) -> Int {
    var count = 0
    lock.lock()
    while count < maximum, let run = pickLocked() {
      let wakes = runLocked(run)
      lock.unlock()
      for wake in wakes { wake() }
      lock.lock()
      count += 1
    }
    lock.unlock()
    return count
  }

  /// Starts what may start on free lanes, up to the pool's limit.
  func startWorkerLocked() {
    guard !byHand, !lines.isEmpty else { return }
    while busyLanes < limit, let run = pickLocked() {
      let lane: Int
      if let free = freeLanes.popLast() {
        lane = free
      } else {
        lane = lanes.count
        lanes.append(Lane(lane + 1))
      }
      peak = max(peak, busyLanes)
      sendLocked(run, to: lane)
    }
    scheduleHeldBackStartLocked()
  }

  /// Sends a picked preparation to `lane` as one block at its QoS. Lock held. The block holds the lane's number, not
  /// the preparation: libdispatch drops a block off the main thread, and so must never hold a preparation's last
  /// reference.
  private func sendLocked(_ run: PreparationRun, to lane: Int) {
    run.lane = lane
    laneRuns[lane] = run
    let block: @Sendable () -> Void = { [self] in runNext(on: lane) }
    if run.startedAsPrefetch {
      submit(lanes[lane].prefetch, .utility, block)
    } else {
      submit(lanes[lane].visible, .userInitiated, block)
    }
  }

  /// A lane's block: runs the lane's preparation (lock released meanwhile) and hands it over, then takes the next
  /// preparation the pick rule allows on the same lane — past the pool's limit too, so that a queue's preparation is
  /// not held back by another queue's orphaned one — or frees the lane.
  private func runNext(on lane: Int) {
    lock.lock()
    let wakes = runLocked(laneRuns.removeValue(forKey: lane)!)
    if let next = pickLocked() {
      sendLocked(next, to: lane)
    } else {
      freeLanes.append(lane)
      scheduleHeldBackStartLocked()
    }
    lock.unlock()
    for wake in wakes { wake() }
  }

  /// Runs a picked preparation (lock released meanwhile) and hands it over; returns the wake-ups due, to call without
  /// the lock. Its references to the preparation end with the lock held, once the preparation is in arrivals or the
  /// release bin.
  private func runLocked(_ run: PreparationRun) -> [@Sendable () -> Void] {
    let line = run.line
    let work = run.prepareLocked()
    lock.unlock()
    var outcome: Result<any Sendable, any Error>? = perform(run, work)
    // Measured here, off the lock, as the cache will count it, so prefetches know the bytes waiting for a pass.
    var bytes = 0
    if line.measuresResults, case .success(let value)? = outcome {
      lock.lock()
      let sizings = run.sizingsLocked
      lock.unlock()
      bytes = PreparationRun.largestSize(of: value, by: sizings)
    }
    lock.lock()
    if case .success? = outcome {
      endRunLocked(run, succeeded: true)
    } else {
      endRunLocked(run, succeeded: false)
    }
    // Not `Optional.take()`: the iOS SDK `ios-check` type-checks against predates it.
    let taken = outcome!
    outcome = nil
    guard !line.isClosed else {
      releaseOnMainLocked([run, OutcomeBox(taken)])
      return []
    }
    run.outcome = taken
    line.arrivals.append(run)
    line.arrived(run, bytes: bytes)
    guard line.needsWake else { return [] }
    line.needsWake = false
    return [line.wake]
  }

  /// A visible row joined a running prefetch: its queue gets an empty `userInitiated` block, which raises the running
  /// one where the platform overrides a serial queue's QoS (Apple's). Lock held.
  func joinedLocked(_ run: PreparationRun) {
    guard !byHand, run.startedAsPrefetch, let lane = run.lane else { return }
    submit(lanes[lane].prefetch, .userInitiated) {}
  }

  /// When the pacing held a prefetch back and no lane will look again before the pacing ends, one look is scheduled
  /// for then. Lock held.
  private func scheduleHeldBackStartLocked() {
    guard prefetchHeldBack, !byHand, let endsAt = pacing.endsAt, pacingWakeAt.map({ $0 > endsAt }) ?? true
    else { return }
    pacingWakeAt = endsAt
    DispatchQueue.global(qos: .userInitiated).asyncAfter(deadline: DispatchTime(uptimeNanoseconds: endsAt)) {
      [self] in
      lock.lock()
      if pacingWakeAt == endsAt { pacingWakeAt = nil }
      startWorkerLocked()
      lock.unlock()
    }
  }

  /// A running preparation finished: it leaves its line's running count (and the prefetch share). Lock held.
  func endRunLocked(_ run: PreparationRun, succeeded: Bool) {
    let line = run.line
    line.running -= 1
    line.runningBytes -= run.countedBytes
    if let index = line.runsUnderWay.firstIndex(where: { $0 === run }) { line.runsUnderWay.remove(at: index) }
    if run.startedAsPrefetch {
      prefetchesRunning -= 1
      line.prefetchesRunning -= 1
    }
    _ = run.life.apply(.finished(succeeded: succeeded))
  }

  /// Runs `run`'s work. The work was read under the lock and the preparation keeps it, so this copy is not the last
  /// reference.
  private func perform(_ run: PreparationRun, _ work: PreparationWork?) -> Result<any Sendable, any Error> {
    let isCancelled: @Sendable () -> Bool = { [self] in
      lock.lock()
      defer { lock.unlock() }
      return run.isCancelledLocked()
    }
    let context = PreparationContext(
      isCancelled: isCancelled, cancellation: run.cancellation, isPrefetch: run.startedAsPrefetch,
      turnsMainRunLoop: byHand && Thread.isMainThread)
    return Result { try work!(context) }
  }

  /// Takes the preparation ``WorkerPick`` chooses out of line, marking it running, and notes what the choice passed
  /// over.
  private func pickLocked() -> PreparationRun? {
    guard let chosen = chooseLocked() else { return nil }
    let run = markRunningLocked(waiting.remove(at: chosen.index))
    if chosen.isPrefetch {
      run.startedAsPrefetch = true
      prefetchesRunning += 1
      run.line.prefetchesRunning += 1
    }
    return run
  }

  /// A preparation taken out of `waiting` is running. Lock held.
  @discardableResult
  func markRunningLocked(_ run: PreparationRun) -> PreparationRun {
    run.line.wantedWaiting += run.life.apply(.started).wantedWaiting
    run.line.running += 1
    run.line.peakRunning = max(run.line.peakRunning, run.line.running)
    run.countedBytes = run.line.estimateLocked(run)
    run.line.runningBytes += run.countedBytes
    run.line.runsUnderWay.append(run)
    return run
  }

  /// The waiting preparation ``WorkerPick`` chooses, by its index in `waiting`, noting what the choice passed over.
  func chooseLocked(passingOver passedOver: [PreparationRun] = []) -> (index: Int, isPrefetch: Bool)? {
    let paced = isPacingLocked
    let candidates = waiting.map { run -> WorkerPick.Candidate in
      let line = run.line
      let isStartable =
        run.phase == .waiting && run.wanted > 0 && !line.isClosed && line.running < line.limit
        && !passedOver.contains { $0 === run }
      guard isStartable, run.urgent == 0 else {
        return WorkerPick.Candidate(
          isStartable: isStartable, isVisible: true, hasCells: run.cells > 0, visibleSince: run.visibleSince)
      }
      return WorkerPick.Candidate(
        isStartable: true, isVisible: false, hasCells: run.cells > 0, distance: run.distance,
        resultsFit: line.prefetchFits(run),
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

  /// Set by a pick that the pacing held back: a start is then scheduled for when the pacing ends.
  private var prefetchHeldBack = false

  private var pacing = PrefetchPacing()

  private var isPacingLocked: Bool { pacing.isPacing(at: DispatchTime.now().uptimeNanoseconds) }

  /// Whether a tracking pass lately found the main thread's frames tight, for tests. Takes the lock.
  var framesWereTightLately: Bool {
    lock.lock()
    defer { lock.unlock() }
    return pacing.framesWereTightLately(at: DispatchTime.now().uptimeNanoseconds)
  }

  /// How many times a preparation became wanted by a visible row: the count ``PreparationRun/visibleSince`` is taken
  /// from.
  private var visibleMoments: UInt64 = 0

  /// A visible row's preparation became startable: it is the latest (``PreparationRun/visibleSince``); if no worker is
  /// free for it, the pacing notes it. Lock held.
  func visibleRowArrivedLocked(_ run: PreparationRun) {
    visibleMoments &+= 1
    run.visibleSince = visibleMoments
    let line = run.line
    if busyLanes >= limit || line.running >= line.limit {
      pacing.noteVisibleRowWaited(at: DispatchTime.now().uptimeNanoseconds)
    }
  }

  /// A queue ran a tracking pass, which found the frames tight or not (see ``PrefetchPacing``). Takes the lock.
  func noteTracking(framesAreTight: Bool) {
    lock.lock()
    pacing.noteTracking(at: DispatchTime.now().uptimeNanoseconds, framesAreTight: framesAreTight)
    lock.unlock()
  }
}

/// An outcome handed to the release bin (which holds objects).
final class OutcomeBox {
  let outcome: Result<any Sendable, any Error>
  init(_ outcome: Result<any Sendable, any Error>) { self.outcome = outcome }
}
