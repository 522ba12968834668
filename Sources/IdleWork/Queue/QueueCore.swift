import Foundation

/// The state and policy behind one ``IdleQueue``: its task list, cell records, background inbox, cost
/// predictor and frame clock, and the pass that serves them. Its later tasks' work (preparation) belongs to a
/// client (``LaterWorkClient``); the queue knows nothing else of it.
///
/// Separate from ``IdleQueue`` so that task handles and the scheduler refer to this object weakly, and an app's
/// references to its queue stay plain strong ones.
@MainActor
final class QueueCore {
  /// The scheduler whose passes serve this queue.
  let scheduler: IdleScheduler
  /// What the queue does in tracking passes (``IdleQueue/Configuration/scrolling``): nothing, or what
  /// the frame clock admits.
  let scrolling: PassPlanner.Scrolling
  /// Whether this is ``main``, which cannot be invalidated.
  nonisolated let isShared: Bool
  /// The frame clock, if the configuration fits passes to frames and has one. Made by ``start()`` on the main
  /// thread (a source's factory is main-actor); `nil` until then.
  var frameClock: FrameClock?
  /// What ``start()`` needs, kept from the initializer (which may run on any thread); `nil` once started.
  var startup: Startup?
  /// Predicts the next task's cost from measured ones.
  var predictor = CostPredictor()
  /// The owner of the queue's later tasks (preparation), made with the first.
  var client: (any LaterWorkClient)?
  /// Later tasks run since the last commit was measured (see ``learnCommit(_:)``).
  var appliesSinceCommit = 0
  /// The client's configuration: preparations running at once (``IdleQueue/Configuration/workers``).
  nonisolated let workerLimit: Int
  /// The client's configuration: bytes of results kept (``IdleQueue/Configuration/resultCacheLimit``).
  nonisolated let cacheLimit: Int
  /// Set by ``takeInForPass()`` for the ``serve(_:)`` that follows: how long this queue's take-in took
  /// and whether it took in results.
  var passTakeIn: (duration: UInt64, results: Bool)?
  /// Since when the queue has had no runnable work, as ``updateFrameClock()`` last saw it; `nil` while it has.
  var clockIdleSince: UInt64?
  /// Set by a pass that ended because the next task did not fit before the frame deadline: nanoseconds
  /// until that deadline, after which the next pass should come.
  private(set) var waitsForDeadline: UInt64?

  /// The pending tasks.
  // `nonisolated(unsafe)`: the language's only way for the initializer (any thread) to store this non-`Sendable`
  // value; that is before the queue is shared, and every other access is by this main-actor class's members.
  nonisolated(unsafe) var list: TaskList<QueuedTask>
  let inbox: BackgroundInbox
  let cells = CellRegistry()
  let notificationObservers = NotificationObservers()
  private(set) var isInvalidated = false
  /// Set when a pass found only parked tasks (cells off screen): no pass is asked for until a task is
  /// added or a cell is shown again, so an off-screen cell's work never keeps the loop spinning.
  var onlyParkedLeft = false

  /// What ``IdleQueue``'s `budget` does.
  var budget: IdleQueue.Budget {
    didSet { Validation.require(budget.validationFailure) }
  }

  /// What ``IdleQueue``'s `maximumQueueLength` does.
  var maximumQueueLength: Int {
    get { list.capacity }
    set {
      Validation.require(Validation.queueLengthFailure(newValue))
      list.capacity = newValue
      inbox.setLimit(newValue)
      release(list.trim(state: { $0.state }))
    }
  }

  /// What ``IdleQueue``'s `pendingTaskCount` does.
  var pendingTaskCount: Int { list.count + inbox.count }

  /// What ``IdleQueue``'s `statistics` does.
  var statistics: IdleQueue.Statistics {
    var statistics = list.statistics
    client?.addCounts(to: &statistics)
    return statistics
  }

  /// Creates the state of a queue served by `scheduler`
  /// (see ``IdleQueue/init(scheduler:priority:configuration:isShared:)``), on any thread: it only stores
  /// state; the queue starts serving on the main thread (``start()``), at once when created there.
  nonisolated init(
    scheduler: IdleScheduler, configuration: IdleQueue.Configuration, isShared: Bool
  ) {
    Validation.require(configuration.budget.validationFailure)
    Validation.require(Validation.queueLengthFailure(configuration.maximumQueueLength))
    Validation.require(Validation.workersFailure(configuration.workers))
    Validation.require(Validation.resultCacheLimitFailure(configuration.resultCacheLimit))
    self.workerLimit = configuration.workers
    self.cacheLimit = configuration.resultCacheLimit
    self.scheduler = scheduler
    self.budget = configuration.budget
    self.scrolling = configuration.scrolling.fitsToFrames ? .fitToFrames : .pause
    self.isShared = isShared
    self.startup = Startup(configuration: configuration)
    self.list = TaskList(capacity: configuration.maximumQueueLength)
    self.inbox = BackgroundInbox(limit: configuration.maximumQueueLength, wake: scheduler.waker)
    Self.onMainThread { [self] in start() }
  }

  // MARK: Adding

  /// What ``IdleQueue``'s `addTask(key:discardable:replacesPending:estimatedCost:_:)` does.
  func addTask(
    key: consuming TaskKey, discardable: Bool, replacesPending: Bool, estimatedCost: TimeInterval?,
    _ task: consuming @escaping @MainActor () -> Void
  ) -> IdleTaskHandle {
    if replacesPending, !isInvalidated {
      // A same-key task another thread handed over is pending too: take it in first, or it would run after
      // its replacement.
      takeInBackgroundTasks()
      release(list.cancel(key: key))
    }
    let cost = estimatedCost == nil ? nil : Validation.estimatedCost(estimatedCost)
    return enqueue(key: key, QueuedTask(work: .once(consume task), estimatedCost: cost), discardable: discardable)
  }

  /// Queues a cell task's `work` in the configuration of `cell` for `item`; its key is `key`, or the item
  /// when `key` is `nil`.
  ///
  /// What ``IdleQueue``'s `addTask(for:at:key:discardable:estimatedCost:_:)` and
  /// `addResumableTask(for:at:key:discardable:estimatedCost:_:)` do, given their closure for any cell.
  func enqueueCellTask<Item: Hashable>(
    _ work: consuming QueuedTask.Work, for cell: AnyObject, at item: Item, key: TaskKey?,
    estimatedCost: TimeInterval?, discardable: Bool
  ) -> IdleTaskHandle {
    let cost = estimatedCost == nil ? nil : Validation.estimatedCost(estimatedCost)
    // The record goes straight into the binding, and the binding into the task, in one expression: a copy of
    // either and its release were two atomic operations per task. (`consume` would say so, but the type
    // checker crashes on it here when building for iOS.)
    let task = QueuedTask(
      work: work, binding: CellBinding(current: cells.configuration(of: cell, for: item)), estimatedCost: cost)
    return enqueue(key: key ?? task.cellItem, task, discardable: discardable)
  }

  /// What ``IdleQueue``'s `addTaskFromAnyThread(key:_:)` does.
  nonisolated func addTaskFromAnyThread(
    key: consuming TaskKey, _ task: consuming @escaping @Sendable @MainActor () -> Void
  ) -> Bool {
    inbox.add(BackgroundInbox.Item(key: key, task: task))
  }

  // MARK: Cells

  /// What ``IdleQueue``'s `bind(_:to:)` does.
  func bind(_ cell: AnyObject, to item: some Hashable) {
    cells.bind(cell, to: item)
  }

  /// What ``IdleQueue``'s `cellWillDisplay(_:at:)` does.
  func cellWillDisplay(_ cell: AnyObject, at item: some Hashable) {
    let record = cells.configuration(of: cell, for: item)
    guard !record.isDisplayed else { return }
    record.isDisplayed = true
    client?.cellDisplayChanged(record)
    onlyParkedLeft = false
    if !list.isEmpty {
      scheduler.setNeedsPass()
      frameClock?.start()
    }
  }

  /// What ``IdleQueue``'s `cellDidEndDisplaying(_:at:)` does.
  func cellDidEndDisplaying(_ cell: AnyObject, at item: some Hashable) {
    guard let record = cells.live(cell), record.item.matches(item) else { return }
    record.isDisplayed = false
    client?.cellDisplayChanged(record)
  }

  // MARK: Removing

  /// What ``IdleQueue``'s `cancelTasks(forKey:)` does.
  func cancelTasks(forKey key: TaskKey) -> Int {
    takeInBackgroundTasks()
    let removed = list.cancel(key: key)
    release(removed)
    return removed.count
  }

  /// What ``IdleQueue``'s `removeAllTasks()` does.
  func removeAllTasks() {
    takeInBackgroundTasks()
    release(list.cancelAll())
  }

  /// What ``IdleQueue``'s `dropDiscardableTasks()` does.
  @discardableResult
  func dropDiscardableTasks() -> Int {
    takeInBackgroundTasks()
    let removed = list.cancelAll(where: { $0.isDiscardable })
    release(removed)
    return removed.count + (client?.dropLowPriorityWork() ?? 0)
  }

  /// What ``IdleQueue``'s `invalidate()` does, on the main thread (see ``invalidateFromAnyThread()``).
  func invalidate() {
    Validation.require(isShared ? Self.sharedQueueInvalidated : nil)
    guard !isInvalidated else { return }
    isInvalidated = true
    notificationObservers.removeAll()
    let closed = inbox.close()
    list.recordAddedAndEvicted(closed.dropped)
    list.recordAddedAndCancelled(closed.items.count)
    release(list.cancelAll())
    client?.queueEnded()
    frameClock?.stop()
    scheduler.detach(self)
  }

  // MARK: Serving passes

  /// Tasks queued, or a hand-over from other threads not yet taken in.
  var hasPendingWork: Bool {
    !isInvalidated
      && ((!list.isEmpty && !onlyParkedLeft) || inbox.needsDrain || (client?.hasArrivals ?? false))
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
    client?.takeInArrivals()
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
    guard !isInvalidated, !list.isEmpty, kind != .tracking || scrolling != .pause else {
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
      guard let entry = found.entry else { break }
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

  /// Runs one task (or slice) the planner admitted, measuring it for the predictor; returns whether it ran.
  private func run(_ entry: TaskList<QueuedTask>.Entry, own: inout BudgetMeter) -> Bool {
    let driver = scheduler.driver
    let now = driver.nanoseconds
    // A slice that reads `timeRemaining` sizes itself to the time left; what it costs once started is its
    // longest stretch without looking at the clock (from its start, between reads, to its end).
    var lastLook = now
    var longestStretch: UInt64 = 0
    let meter = own
    func look() -> TimeInterval {
      let time = driver.nanoseconds
      longestStretch = max(longestStretch, time &- lastLook)
      lastLook = time
      return timeRemaining(own: meter)
    }
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
    predictor.record(entry.payload.costKind, duration: max(longestStretch, driver.nanoseconds &- lastLook))
    own.recordTask()
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
  /// applying a result sets a bitmap, and the commit that follows copies it to the render server.
  func learnCommit(_ duration: UInt64) {
    guard client != nil else { return }
    predictor.recordCommit(duration: duration, applies: appliesSinceCommit)
    appliesSinceCommit = 0
  }

  /// Whether the queue waits for results (a later task's, or a prefetch's).
  var awaitsResults: Bool {
    !isInvalidated && (client?.isAwaitingResults ?? false)
  }

  // MARK: Internals

  @discardableResult @inline(__always)
  func enqueue(key: consuming TaskKey, _ task: consuming QueuedTask, discardable: Bool) -> IdleTaskHandle {
    guard !isInvalidated else { return IdleTaskHandle(queue: nil, seq: 0) }
    // A cell task may go stale; a prepared one is passed over until its result arrives.
    let canBeStale: Bool
    if case .later = task.work { canBeStale = true } else { canBeStale = task.binding != nil }
    let (seq, removed) = list.append(
      key: key, payload: task, canBeStale: canBeStale, isDiscardable: discardable, state: { $0.state })
    onlyParkedLeft = false
    if !removed.isEmpty { release(removed) }
    if !list.isEmpty {
      scheduler.setNeedsPass()
      frameClock?.start()
      clockIdleSince = nil  // work came: the keep-alive while its result is prepared counts from now
    }
    return IdleTaskHandle(queue: self, seq: seq)
  }

  /// Tells prepared tasks how they left, and signposts evictions; the payloads are freed when `removed` goes.
  func release(_ removed: [TaskList<QueuedTask>.Removal]) {
    for removal in removed {
      if case .later(let work) = removal.entry.payload.work { work.left(removal.fate) }
      guard removal.fate != .executed else { continue }
      if removal.fate == .evicted { PassSignposts.taskEvicted(pending: list.count, maximumQueueLength: list.capacity) }
    }
  }
}
