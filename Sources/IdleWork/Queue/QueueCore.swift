import Foundation

/// The state and policy behind one ``IdleQueue``: its task list, cell records, background inbox, cost
/// predictor and frame clock, and the pass that serves them.
///
/// Separate from ``IdleQueue`` so that nothing holds a weak reference to the object apps keep: the
/// scheduler's member list and task handles refer to this object weakly instead. A weakly referenced
/// object takes the slow path for every retain and release, and an app retains its queue around every
/// `addTask` call (a property read): that alone doubled the cost of an addition.
@MainActor
final class QueueCore {
  /// The scheduler whose passes serve this queue.
  let scheduler: IdleScheduler
  /// Opt-in work during scrolls; `nil` runs nothing while a scroll is tracked.
  var scrollingSlack: IdleQueue.ScrollingSlack? {
    didSet { stampsAdditions = Self.stampsAdditions(for: scrollingSlack) }
  }
  /// Whether additions are stamped with the time (for scrolling slack's `minimumWait`; 0 needs no stamp).
  private var stampsAdditions: Bool
  /// Whether this is ``main``, which cannot be invalidated.
  private let isShared: Bool
  /// The frame deadline, if the configuration gives one.
  let frameClock: FrameClock?
  /// Predicts the next task's cost from measured ones.
  var predictor = CostPredictor()
  /// Set by a pass that ended because the next task did not fit before the frame deadline: nanoseconds
  /// until that deadline, after which the next pass should come.
  private(set) var waitsForDeadline: UInt64?

  /// The pending tasks. Exclusivity is not checked at run time (it cost a third of `addTask`): every
  /// access is a single call on the main actor that runs no task and calls back nothing that touches
  /// the queue — tasks run, and dropped tasks' hooks are told, between accesses.
  @exclusivity(unchecked) var list: TaskList<QueuedTask>
  let inbox: BackgroundInbox
  let cells = CellRegistry()
  let notificationObservers = NotificationObservers()
  @exclusivity(unchecked) private(set) var isInvalidated = false
  /// Set when a pass found only parked tasks (cells off screen): no pass is asked for until a task is
  /// added or a cell is shown again, so an off-screen cell's work never keeps the loop spinning.
  @exclusivity(unchecked) private var onlyParkedLeft = false
  /// What this queue's handles refer to: one object per queue, so that a handle costs a retain rather
  /// than a weak reference's set-up.
  let handleTarget = IdleTaskHandle.Target()

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
  var statistics: IdleQueue.Statistics { list.statistics }

  /// Creates the state of a queue served by `scheduler`
  /// (see ``IdleQueue/init(scheduler:priority:configuration:isShared:)``).
  init(scheduler: IdleScheduler, priority: Int, configuration: IdleQueue.Configuration, isShared: Bool) {
    Validation.require(configuration.budget.validationFailure)
    Validation.require(Validation.queueLengthFailure(configuration.maximumQueueLength))
    self.scheduler = scheduler
    self.budget = configuration.budget
    self.scrollingSlack = configuration.scrollingSlack
    self.stampsAdditions = Self.stampsAdditions(for: configuration.scrollingSlack)
    self.isShared = isShared
    if let deadline = configuration.frameDeadline {
      self.frameClock = FrameClock(source: ClosureFrameClockSource(deadline))
    } else if let makeSource = configuration.frameClockSource {
      self.frameClock = FrameClock(source: makeSource())
    } else {
      self.frameClock = nil
    }
    self.list = TaskList(capacity: configuration.maximumQueueLength)
    defer { handleTarget.queue = self }
    self.inbox = BackgroundInbox(limit: configuration.maximumQueueLength, wake: scheduler.driver.makeWaker())
    scheduler.attach(self, priority: priority)
    if scheduler.isStopped { invalidate() }
    observeMemoryWarnings()
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
  /// when `keyIsItem` (then `key` is not read).
  ///
  /// What ``IdleQueue``'s `addTask(for:at:key:discardable:estimatedCost:_:)` and
  /// `addResumableTask(for:at:key:discardable:estimatedCost:_:)` do, once their closure is retyped.
  func enqueueCellTask<Item: Hashable, Key: Hashable>(
    _ work: consuming QueuedTask.Work, for cell: AnyObject, at item: Item, key: Key, keyIsItem: Bool,
    estimatedCost: TimeInterval?, discardable: Bool
  ) -> IdleTaskHandle {
    let cost = estimatedCost == nil ? nil : Validation.estimatedCost(estimatedCost)
    // The record goes straight into the binding, and the binding into the task, in one expression: a copy of
    // either and its release were two atomic operations per task. (`consume` would say so, but the type
    // checker crashes on it here when building for iOS.)
    let task = QueuedTask(
      work: work, binding: CellBinding(current: cells.configuration(of: cell, for: item)), estimatedCost: cost)
    return enqueue(key: keyIsItem ? task.cellItem : TaskKey(key), task, discardable: discardable)
  }

  /// What ``IdleQueue``'s `addTaskFromAnyThread(key:_:)` does.
  nonisolated func addTaskFromAnyThread(key: TaskKey, _ task: @escaping @Sendable @MainActor () -> Void) -> Bool {
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
    return removed.count
  }

  /// What ``IdleQueue``'s `invalidate()` does.
  func invalidate() {
    Validation.require(
      isShared
        ? "IdleWork: IdleQueue.main cannot be invalidated: the whole app shares it. Call removeAllTasks() "
          + "on it, or create your own IdleQueue() and invalidate that." : nil)
    guard !isInvalidated else { return }
    isInvalidated = true
    notificationObservers.removeAll()
    let closed = inbox.close()
    list.recordAddedAndEvicted(closed.dropped)
    list.recordAddedAndCancelled(closed.items.count)
    release(list.cancelAll())
    frameClock?.stop()
    scheduler.detach(self)
  }

  // MARK: Serving passes

  /// Tasks queued, or a hand-over from other threads not yet taken in.
  var hasPendingWork: Bool { !isInvalidated && ((!list.isEmpty && !onlyParkedLeft) || inbox.needsDrain) }

  func takeInBackgroundTasks() {
    let drained = inbox.drain()
    list.recordAddedAndEvicted(drained.dropped)
    for item in drained.items {
      enqueue(key: item.key, QueuedTask(work: .once(item.task)), discardable: false)
    }
  }

  /// Runs this queue's share of one pass; returns whether any task ran.
  ///
  /// Before each task: the budgets must allow it (a `.seconds` budget only if the task's predicted cost
  /// fits in what is left), and with a frame clock the task must fit before the frame deadline
  /// (``FrameAdmission``). A pass that ends because a task does not fit before the deadline sets
  /// ``waitsForDeadline``. Each task's duration is measured and teaches the ``CostPredictor``.
  func serve(_ kind: IdlePassKind, total: inout BudgetMeter?) -> Bool {
    waitsForDeadline = nil
    guard !isInvalidated, !list.isEmpty else { return false }
    let slack = kind == .tracking ? scrollingSlack : nil
    if kind == .tracking, slack == nil { return false }
    // The preset with no frame clock at all (no `frameDeadline`, no display link): no frame is ever known,
    // so nothing runs while scrolling.
    if kind == .tracking, slack?.followsFrameClock == true, frameClock == nil { return false }
    let driver = scheduler.driver
    let start = driver.nanoseconds
    var own = BudgetMeter(budget, start: start)
    var didWork = false
    var ranTasks = false
    while !isInvalidated {
      var now = driver.nanoseconds
      guard own.allowsAnother(now: now), total?.allowsAnother(now: now) ?? true else { break }
      let (candidate, skipped) = list.firstRunnable(state: { $0.state })
      didWork = didWork || !skipped.isEmpty
      release(skipped)
      guard let entry = candidate else {
        onlyParkedLeft = !list.isEmpty
        break
      }
      if let slack, !slack.allows(waited: now &- entry.enqueuedAt) { break }
      let costKind: CostPredictor.Kind = entry.payload.isResumableWork ? .slice : .task
      let predicted = predictor.predict(costKind, estimate: entry.payload.estimatedCost)
      guard own.allowsAnother(now: now, predicted: predicted),
        total?.allowsAnother(now: now, predicted: predicted) ?? true
      else { break }
      if let frameClock {
        let timeLeft = frameClock.timeLeft()
        // While a scroll is tracked, a cost never measured (and not estimated) is treated as never fitting:
        // it is tried once, as the first task of a pass at a frame's start (at least half the frame left),
        // which measures it; from then on tasks are admitted by their predicted cost. Waiting for an idle
        // pass instead would leave every row blank through a fling that starts before the first idle pass.
        let probes = kind == .tracking && !predictor.knows(costKind, estimate: entry.payload.estimatedCost)
        // No frame known: nothing while scrolling, under the preset or for a cost never measured.
        if timeLeft == nil, probes || slack?.followsFrameClock == true { break }
        let isFirst = own.tasksRun == 0 && (total?.tasksRun ?? 0) == 0
        let decision = FrameAdmission.decide(
          predicted: probes ? UInt64.max : predicted, timeLeft: timeLeft, frameLength: frameClock.frameLength,
          isFirstInPass: isFirst && (kind == .idle || probes))
        if case .wait(let wait) = decision {
          waitsForDeadline = wait
          break
        }
      }
      didWork = true
      if let claim = entry.payload.claim, !claim() {
        // Cancelled from another thread (an awaiting `perform`): it must not start.
        if let removal = list.cancel(entry.seq) { release([removal]) }
        continue
      }
      now = driver.nanoseconds
      // A slice that reads `timeRemaining` sizes itself to the time left; what it costs once started is its
      // longest stretch without looking at the clock (from its start, between reads, to its end).
      var lastLook = now
      var longestStretch: UInt64 = 0
      func look() -> TimeInterval {
        let time = driver.nanoseconds
        longestStretch = max(longestStretch, time &- lastLook)
        lastLook = time
        return timeRemaining(own: own, total: total)
      }
      var slice: IdleQueue.SliceResult?  // a resumable task's result; `nil` for a one-shot task
      switch entry.payload.work {
      case .once(let run):
        guard let taken = list.takeForRun(entry.seq) else { continue }
        withExtendedLifetime(taken) { run() }
      case .onCell(let run):
        guard let taken = list.takeForRun(entry.seq) else { continue }
        withExtendedLifetime(taken) { if let cell = taken.payload.binding?.record.cell { run(cell) } }
      case .resumable(let run):
        slice = run(look)
      case .resumableOnCell(let run):
        slice = entry.payload.binding?.record.cell.map { run($0, look) } ?? .done
      }
      if let slice, let finished = list.recordSlice(entry.seq, finished: slice == .done) { release([finished]) }
      predictor.record(costKind, duration: max(longestStretch, driver.nanoseconds &- lastLook))
      own.recordTask()
      total?.recordTask()
      ranTasks = true
    }
    if didWork { list.recordPass(duration: driver.nanoseconds &- start) }
    return ranTasks
  }

  /// The seconds a resumable slice may still spend now: the least of the time left before the frame
  /// deadline (less the margin) and of the `.seconds` budgets; 0 when none applies (then a slice does one
  /// step, as before slices could read the time).
  private func timeRemaining(own: BudgetMeter, total: BudgetMeter?) -> TimeInterval {
    let now = scheduler.driver.nanoseconds
    var left: Int64?
    func limit(_ value: Int64) { left = min(left ?? value, value) }
    if let frameTimeLeft = frameClock?.timeLeft() { limit(frameTimeLeft - Int64(FrameAdmission.margin)) }
    if let budgetLeft = own.timeLeft(now: now) { limit(Int64(clamping: budgetLeft)) }
    if let budgetLeft = total?.timeLeft(now: now) { limit(Int64(clamping: budgetLeft)) }
    return Double(max(left ?? 0, 0)) / 1e9
  }

  /// Starts the frame clock when work is pending; stops it when the queue is drained (or holds only
  /// off-screen cells' work), so a display link ticks only while it is needed.
  func updateFrameClock() {
    guard let frameClock else { return }
    if hasPendingWork { frameClock.start() } else { frameClock.stop() }
  }

  // MARK: Internals

  /// Whether additions need a time stamp under `slack`: only for a `minimumWait` to check.
  private static func stampsAdditions(for slack: IdleQueue.ScrollingSlack?) -> Bool {
    (slack?.minimumWait ?? 0) > 0
  }

  @discardableResult @inline(__always)
  func enqueue(key: consuming TaskKey, _ task: consuming QueuedTask, discardable: Bool) -> IdleTaskHandle {
    guard !isInvalidated else {
      task.onDrop?(.cancelled)  // tells an awaiting `perform` at once
      return IdleTaskHandle(target: nil, seq: 0)
    }
    // The clock is read only for scrolling slack's minimum wait; it costs ~20 ns per addition otherwise.
    let now = stampsAdditions ? scheduler.driver.nanoseconds : 0
    // Matched, not compared with `nil`: `!=` takes the optional as a generic argument, a copy of the binding
    // (a retain and a release per task).
    let canBeStale: Bool
    if case .some = task.binding { canBeStale = true } else { canBeStale = false }
    let (seq, removed) = list.append(
      key: key, payload: task, canBeStale: canBeStale, isDiscardable: discardable, now: now, state: { $0.state })
    onlyParkedLeft = false
    if !removed.isEmpty { release(removed) }
    if !list.isEmpty {
      scheduler.setNeedsPass()
      frameClock?.start()
    }
    return IdleTaskHandle(target: handleTarget, seq: seq)
  }

  /// Tells dropped tasks' observers how they left; the payloads are freed when `removed` goes.
  func release(_ removed: [TaskList<QueuedTask>.Removal]) {
    for removal in removed where removal.fate != .executed {
      if removal.fate == .evicted { PassSignposts.taskEvicted(pending: list.count, maximumQueueLength: list.capacity) }
      removal.entry.payload.onDrop?(removal.fate)
    }
  }
}
