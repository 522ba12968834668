import Foundation

/// The state and policy behind one ``IdleQueue``: its task list, cell records, background inbox, cost
/// predictor and frame clock, and the pass that serves them. Its later tasks' work (preparation) belongs to a
/// client (``LaterWorkClient``); the queue knows nothing else of it.
///
/// Separate from ``IdleQueue`` so that task handles and the scheduler refer to this object weakly, and an app's
/// references to its queue stay plain strong ones.
@MainActor
package final class QueueCore {
  /// The scheduler whose passes serve this queue.
  package let scheduler: IdleScheduler
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
  package var client: (any LaterWorkClient)?
  /// Later tasks run since the last commit was measured (see ``learnCommit(_:)``).
  var appliesSinceCommit = 0
  /// Set by ``takeInForPass()`` for the ``serve(_:)`` that follows: how long this queue's take-in took
  /// and whether it took in results.
  var passTakeIn: (duration: UInt64, results: Bool)?
  /// Since when the queue has had no runnable work, as ``updateFrameClock()`` last saw it; `nil` while it has.
  var clockIdleSince: UInt64?
  /// Set by a pass that ended because the next task did not fit before the frame deadline: nanoseconds
  /// until that deadline, after which the next pass should come.
  var waitsForDeadline: UInt64?
  /// Whether a pass is being run: work found meanwhile needs no request, the scheduler looks once it ends.
  package var isInPass = false

  /// The pending tasks.
  // `nonisolated(unsafe)`: the language's only way for the initializer (any thread) to store this non-`Sendable`
  // value; that is before the queue is shared, and every other access is by this main-actor class's members.
  nonisolated(unsafe) var list: TaskList<QueuedTask>
  let inbox: BackgroundInbox
  let cells = CellRegistry()
  let notificationObservers = NotificationObservers()
  package private(set) var isInvalidated = false
  /// Set when a pass found only parked tasks (cells off screen): no pass is asked for until a task is
  /// added or a cell is shown again, so an off-screen cell's work never keeps the loop spinning.
  var onlyParkedLeft = false
  /// Whether the driver was asked to measure commits (see ``enqueue(key:_:discardable:)``).
  private(set) var measuresCommits = false

  /// What ``IdleQueue``'s `budget` does.
  var budget: IdleQueue.Budget {
    didSet { Validation.require(budget.validationFailure) }
  }

  /// What ``IdleQueue``'s `maximumQueueLength` does.
  package var maximumQueueLength: Int {
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
  /// (see ``IdleQueue/init(scheduler:priority:configuration:isShared:)``), on any thread: it only stores
  /// state; the queue starts serving on the main thread (``start()``), at once when created there.
  nonisolated init(
    scheduler: IdleScheduler, configuration: IdleQueue.Configuration, isShared: Bool
  ) {
    Validation.require(configuration.budget.validationFailure)
    Validation.require(Validation.queueLengthFailure(configuration.maximumQueueLength))
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

  /// What ``IdleQueue``'s `addTask(key:droppable:replacesPending:estimatedCost:_:)` does.
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
  /// What ``IdleQueue``'s `addTask(for:at:key:droppable:estimatedCost:_:)` and
  /// `addResumableTask(for:at:key:droppable:estimatedCost:_:)` do, given their closure for any cell.
  func enqueueCellTask<Item: Hashable>(
    _ work: consuming QueuedTask.Work, for cell: AnyObject, at item: Item, key: TaskKey?,
    estimatedCost: TimeInterval?, discardable: Bool
  ) -> IdleTaskHandle {
    let cost = estimatedCost == nil ? nil : Validation.estimatedCost(estimatedCost)
    let task = QueuedTask(
      work: work, binding: cells.configuration(of: cell, for: item), estimatedCost: cost)
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

  /// `cell` shows `item`: its current configuration stands if it is for `item`, otherwise a new one starts (its tasks
  /// for another item are stale), as when a task is added for it.
  package func cell(_ cell: AnyObject, shows item: some Hashable) {
    _ = cells.configuration(of: cell, for: item)
  }

  /// What ``IdleQueue``'s `cellWillDisplay(_:at:)` does.
  func cellWillDisplay(_ cell: AnyObject, at item: some Hashable) {
    let record = cells.configuration(of: cell, for: item).record
    guard !record.isDisplayed else { return }
    record.isDisplayed = true
    for task in record.laterTasks ?? [] { task.cellDisplayChanged(isDisplayed: true) }
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
    for task in record.laterTasks ?? [] { task.cellDisplayChanged(isDisplayed: false) }
  }

  // MARK: Removing

  /// What ``IdleQueue``'s `cancelTasks(forKey:)` does.
  func cancelTasks(forKey key: TaskKey) -> Int {
    takeInBackgroundTasks()
    let removed = list.cancel(key: key)
    release(removed)
    return removed.count
  }

  /// What ``IdleQueue``'s `cancelAllTasks()` does.
  func cancelAllTasks() {
    takeInBackgroundTasks()
    release(list.cancelAll())
    client?.cancelAll()
  }

  /// What ``IdleQueue``'s `dropDiscardableTasks()` does.
  @discardableResult
  func dropDiscardableTasks() -> Int {
    takeInBackgroundTasks()
    let removed = list.cancelAll(where: { $0.isDiscardable })
    release(removed)
    return removed.count + (client?.dropOnMemoryWarning() ?? 0)
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

  // MARK: Internals

  @discardableResult @inline(__always)
  func enqueue(key: consuming TaskKey, _ task: consuming QueuedTask, discardable: Bool) -> IdleTaskHandle {
    guard !isInvalidated else { return IdleTaskHandle(queue: nil, seq: 0) }
    // A cell task may go stale; a prepared one is passed over until its result arrives.
    let canBeStale: Bool
    if case .later = task.work {
      canBeStale = true
      // A later task's work is an apply, whose cost includes what it adds to the next commit: measure commits.
      if !measuresCommits {
        measuresCommits = true
        scheduler.driver.measureCommits()
      }
    } else {
      canBeStale = task.binding != nil
    }
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
