import Foundation

/// Serving passes: what a pass takes in, which tasks it runs (``PassPlanner`` decides, this carries it out), and
/// the frame clock's life around them.
extension QueueCore {

  /// Tasks queued, or a hand-over from other threads not yet taken in.
  var hasPendingWork: Bool {
    !isInvalidated
      && ((!list.isEmpty && !onlyParkedLeft) || inbox.needsDrain || (client?.hasArrivals ?? false)
        || (client?.hasMainThreadWork ?? false))
  }

  /// What the scheduler's pass does first: takes in what other threads handed over, noting when it began and
  /// whether results came, for ``serve(_:)`` to count in the pass.
  func takeInForPass() {
    let driver = scheduler.driver
    let start = driver.nanoseconds
    let results = client?.hasArrivals ?? false
    takeInBackgroundTasks()
    passTakeIn = (driver.nanoseconds &- start, results)
  }

  /// Takes in the tasks other threads handed over. A queue invalidated or released off the main thread whose
  /// main-thread half has not come yet (its inbox refuses items) is ended here instead, so that none of its
  /// tasks runs once that call has returned.
  func takeInBackgroundTasks() {
    guard let drained = inbox.drain() else {
      invalidate()
      return
    }
    // (Only a client hands results over while the pass takes them in: a queue without one skips the inbox's lock.)
    let arrivedInTakeIn = client.map { client in inbox.takingIn { client.takeInArrivals() } } ?? false
    // A later task may run now: the queue has work again, so its frame clock, stopped while it only waited, runs.
    if drained.workArrived || arrivedInTakeIn {
      onlyParkedLeft = false
      if !list.isEmpty { frameClock?.start() }
    }
    list.recordAddedAndEvicted(drained.dropped)
    for item in drained.items {
      enqueue(key: item.key, QueuedTask(work: .once(item.task)), discardable: false)
    }
  }

  /// Runs this queue's share of one pass; returns whether any task ran.
  ///
  /// Each step asks ``PassPlanner`` what to do with the oldest runnable task — run it, pass over it, end
  /// the pass, or end it and ask for a pass later — and carries the answer out: stale tasks met on the way
  /// leave (without counting against the budget), a task runs and its duration teaches the
  /// ``CostPredictor``, and a pass that ends waiting for a frame sets ``waitsForDeadline``. Tasks added
  /// during the pass (by a task, or by a slice re-posting itself) wait for a later pass, as `addTask` says.
  func serve(_ kind: IdlePassKind) -> Bool {
    waitsForDeadline = nil
    let takenIn = passTakeIn
    passTakeIn = nil
    // A tracking pass tells the pool that a scroll is tracked, and whether the frames are tight (prefetches are
    // paced only then: see `PrefetchPacing`).
    if kind == .tracking, let client {
      client.trackingPass(framesAreTight: frameClock?.framesAreTight(now: scheduler.driver.nanoseconds) ?? false)
    }
    let driver = scheduler.driver
    guard !isInvalidated, !list.isEmpty || (client?.hasMainThreadWork ?? false),
      kind != .tracking || scrolling != .pause
    else {
      // Results taken in on the main thread are the pass's work too, even when nothing is left to run.
      if let takenIn, takenIn.results { list.recordPass(duration: takenIn.duration) }
      return false
    }
    // This queue's share of the pass includes taking in what other threads handed it: the main thread's share
    // of each result (taking it in, caching it, delivering it) counts in `longestPassDuration` and in the
    // queue's own budget, as its tasks do — and another queue's take-in or tasks do not.
    let start = driver.nanoseconds &- (takenIn?.duration ?? 0)
    let horizon = list.nextSequenceNumber
    var own = BudgetMeter(budget, start: start)
    var didWork = takenIn?.results ?? false
    var ranTasks = false
    var passedOver = 0
    var searchFrom: UInt64?  // past the tasks passed over in this search; `nil`: from the head
    while !isInvalidated {
      if PassPlanner.endsBeforeLooking(
        kind: kind, scrolling: scrolling, hasFrameClock: frameClock != nil, own: own,
        now: driver.nanoseconds) != nil
      {
        break
      }
      let found = list.firstRunnable(from: searchFrom, below: horizon, state: { $0.state })
      didWork = didWork || !found.skipped.isEmpty
      release(found.skipped)
      if found.entry == nil, searchFrom == nil, !found.reachedHorizon { onlyParkedLeft = !list.isEmpty }
      let now = driver.nanoseconds
      let step = PassPlanner.next(
        PassPlanner.Input(
          kind: kind,
          candidate: found.entry.map { entry in
            PassPlanner.Candidate(
              costKind: entry.payload.costKind, estimate: entry.payload.estimatedCost, passedOver: passedOver)
          },
          predictor: predictor, own: own, now: now, frame: frameClock?.read(now: now),
          scrolling: scrolling))
      guard let entry = found.entry else {
        // No runnable task: the client's main-thread work (a visible row's preparation, then prefetches), a slice;
        // then from the head again, so that a result it made is applied before the next slice.
        guard !found.reachedHorizon, let client else { break }
        switch runMainThreadWork(kind, client: client, own: &own) {
        case .ran:
          didWork = true
          searchFrom = nil
          passedOver = 0
          continue
        case .passedOver:
          continue
        case .stop:
          break
        }
        break
      }
      switch step {
      case .end:
        break
      case .wait(let nanoseconds):
        waitsForDeadline = nanoseconds
      case .passOver:
        passedOver += 1
        searchFrom = entry.seq + 1
        continue
      case .run:
        didWork = true
        if run(entry, own: &own) { ranTasks = true }
        // From the head again: what ran may have changed what is runnable.
        searchFrom = nil
        passedOver = 0
        continue
      }
      break
    }
    if didWork { list.recordPass(duration: driver.nanoseconds &- start) }
    return ranTasks
  }

  /// What one look at the client's main-thread work did.
  private enum MainThreadStep {
    /// A slice ran (or the piece ended without one): look at the tasks again.
    case ran
    /// The piece was passed over: look at the next.
    case passedOver
    /// End the pass.
    case stop
  }

  /// Runs one slice of the client's main-thread work if ``PassPlanner`` admits it — a visible row's preparation as
  /// a task, a prefetch only where it costs no frame. Only a slice of the app's code is measured and counted in
  /// the budget.
  private func runMainThreadWork(
    _ kind: IdlePassKind, client: any LaterWorkClient, own: inout BudgetMeter
  ) -> MainThreadStep {
    guard let next = client.nextMainThreadWork() else { return .stop }
    let driver = scheduler.driver
    let now = driver.nanoseconds
    // Its cost is its own preparation's measure (the predictor's `.mainPreparation` average stays unmeasured).
    let input = PassPlanner.Input(
      kind: kind, candidate: PassPlanner.Candidate(costKind: .mainPreparation, estimate: next.cost),
      predictor: predictor, own: own, now: now, frame: frameClock?.read(now: now), scrolling: scrolling)
    switch next.work == .visibleRow ? PassPlanner.next(input) : PassPlanner.nextInSlack(input) {
    case .run: break
    case .wait(let nanoseconds):
      // Not before the frame: a piece behind it may fit the time left; if none does, the pass waits as this one.
      waitsForDeadline = min(waitsForDeadline ?? nanoseconds, nanoseconds)
      client.passOverMainThreadWork()
      return .passedOver
    case .end: return .stop
    case .passOver:
      client.passOverMainThreadWork()
      return .passedOver
    }
    var ranSlice = false
    let duration = measuring(own) { look in ranSlice = client.runMainThreadSlice(timeRemaining: look) }
    guard ranSlice else { return .ran }
    client.mainThreadSliceTook(duration)
    own.recordTask()
    return .ran
  }

  /// Runs `body`, given the time a slice may spend; returns what it cost: for a slice that reads `timeRemaining`
  /// and sizes itself to it, its longest stretch without looking at the clock (from its start, between reads, to
  /// its end).
  private func measuring(_ own: BudgetMeter, _ body: (_ timeRemaining: () -> TimeInterval) -> Void) -> UInt64 {
    let driver = scheduler.driver
    var lastLook = driver.nanoseconds
    var longestStretch: UInt64 = 0
    body {
      let time = driver.nanoseconds
      longestStretch = max(longestStretch, time &- lastLook)
      lastLook = time
      return timeRemaining(own: own)
    }
    return max(longestStretch, driver.nanoseconds &- lastLook)
  }

  /// Runs one task (or slice) the planner admitted, measuring it for the predictor; returns whether it ran.
  private func run(_ entry: TaskList<QueuedTask>.Entry, own: inout BudgetMeter) -> Bool {
    let kind = entry.payload.costKind
    var ran = false
    let duration = measuring(own) { look in ran = runWork(of: entry, look) }
    guard ran else { return false }
    predictor.record(kind, duration: duration)
    own.recordTask()
    return true
  }

  /// Runs the task's work (or a slice of it); returns whether it ran.
  private func runWork(of entry: TaskList<QueuedTask>.Entry, _ look: () -> TimeInterval) -> Bool {
    var done: Bool?  // whether a resumable task finished; `nil` for a one-shot task
    switch entry.payload.work {
    case .once(let run):
      guard let taken = list.takeForRun(entry.seq) else { return false }
      withExtendedLifetime(taken) { run() }
    case .onCell(let run):
      guard let cell = liveCell(of: entry) else { return false }
      guard let taken = list.takeForRun(entry.seq) else { return false }
      withExtendedLifetime(taken) { run(cell) }
    case .resumable(let run):
      done = run(look)
    case .resumableOnCell(let run):
      guard let cell = liveCell(of: entry) else { return false }
      done = run(cell, look)
    case .later(let work):
      var cell: AnyObject?
      if entry.payload.binding != nil {
        guard let live = liveCell(of: entry) else { return false }
        cell = live
      }
      guard let taken = list.takeForRun(entry.seq) else { return false }
      withExtendedLifetime(taken) { work.run(cell: cell) }
      work.left(.executed)
      appliesSinceCommit += 1
    }
    if let done, let finished = list.recordSlice(entry.seq, finished: done) { release([finished]) }
    return true
  }

  /// The cell of a cell task about to run; `nil` if it was released since the pass looked (the last
  /// reference may go on another thread at any time), and then the task is skipped as stale.
  private func liveCell(of entry: TaskList<QueuedTask>.Entry) -> AnyObject? {
    if let cell = entry.payload.binding?.record.cell { return cell }
    if let removal = list.skipAsStale(entry.seq) { release([removal]) }
    return nil
  }

  /// Drops the tasks of cells that were released (or configured again) while only parked tasks are left,
  /// so that what their closures capture — a screen's view controller — is freed at the next pass of the
  /// run loop, not when the queue next runs. Called at every pass that finds no work to do; a scan of the
  /// pending cell tasks, which such a queue holds few of.
  func purgeReleasedCells() {
    guard onlyParkedLeft, !isInvalidated else { return }
    release(list.purgeStale(state: { $0.state }))
  }

  /// The seconds a resumable slice may still spend now: the least of the time left before the frame
  /// deadline (less the margin) and of the `.seconds` budget; 0 when neither applies (then a slice does one step).
  private func timeRemaining(own: BudgetMeter) -> TimeInterval {
    let now = scheduler.driver.nanoseconds
    var left: Int64?
    func limit(_ value: Int64) { left = min(left ?? value, value) }
    if let frameTimeLeft = frameClock?.timeLeft() { limit(frameTimeLeft &- Int64(FrameAdmission.margin)) }
    if let budgetLeft = own.timeLeft(now: now) { limit(Int64(clamping: budgetLeft)) }
    return Double(max(left ?? 0, 0)) / 1e9
  }

  /// Starts the frame clock when runnable work is pending; stops it when the queue is drained or holds only
  /// off-screen cells' work, so a display link ticks only while needed. While the queue only waits for results,
  /// a running clock keeps running for ``clockKeepAliveWhilePreparing`` — a result that arrives meanwhile is
  /// admitted against a frame it knows — then stops, so a hung `prepare` does not keep a display link ticking.
  func updateFrameClock() {
    guard let frameClock else { return }
    if hasPendingWork {
      clockIdleSince = nil
      frameClock.start()
      return
    }
    let now = scheduler.driver.nanoseconds
    let since = clockIdleSince ?? now
    clockIdleSince = since
    if awaitsResults, frameClock.isRunning, now &- since < Self.clockKeepAliveWhilePreparing { return }
    frameClock.stop()
  }

  /// How long a frame clock keeps running while the queue only waits for results: 0.1 s, six 60 Hz frames.
  nonisolated static let clockKeepAliveWhilePreparing: UInt64 = 100_000_000

  /// Teaches the predictor what the commit before this pass cost after the later tasks run since the last one:
  /// applying a result sets a bitmap, and the commit that follows copies it to the preparation server.
  func learnCommit(_ duration: UInt64) {
    guard measuresCommits else { return }
    predictor.recordCommit(duration: duration, applies: appliesSinceCommit)
    appliesSinceCommit = 0
  }

  /// Whether the queue waits for results (a later task's, or a prefetch's).
  var awaitsResults: Bool {
    !isInvalidated && (client?.isAwaitingResults ?? false)
  }
}
