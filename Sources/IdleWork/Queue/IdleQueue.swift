import Foundation

/// A queue of small main-thread tasks that run when the main run loop is about to sleep.
///
/// `cellForRowAt` hands heavy work (image draws, text layout) to the queue instead of doing it at once;
/// the queue runs a small slice of it each time the run loop has nothing else to do — after input,
/// timers and Core Animation's commit — so frames are never late because of it. In the default mode only,
/// so nothing runs while a finger drags a scroll view.
///
/// ```swift
/// cell.currentIndexPath = indexPath
/// for image in images {
///   IdleQueue.main.addTask(for: cell, at: indexPath) { cell in cell.draw(image) }
/// }
/// ```
///
/// - **Order and capacity:** FIFO. Past ``maximumQueueLength``, stale tasks (cell gone or showing another
///   row) are dropped first, then the oldest. Every task added is accounted for in ``statistics``.
/// - **Budget:** ``budget`` decides how many tasks a pass runs; stale tasks are skipped for free.
/// - **Waking:** while tasks remain the run loop comes round again at once; when the queue is empty the
///   loop sleeps — no timer, no polling.
/// - **Threads:** use it on the main thread; from any other thread use ``addTaskFromAnyThread(key:_:)``.
@MainActor
public final class IdleQueue {
  /// The shared queue on the main run loop, default mode, with default settings.
  public static let main = IdleQueue()

  /// The observer order used by default: after Core Animation's commit observer (2,000,000) and UIKit's
  /// after-commit handler (2,001,000), before the autorelease pool pop (`Int32.max`).
  ///
  /// Running after the commit means the frame being built has already been handed to the render server
  /// when a task starts, so a task can delay only the *next* frame, never the current one; the changes
  /// a task makes to layers are committed at the next BeforeWaiting, which the queue's wake-up brings at
  /// once. Running before the pool pop means what tasks autorelease is freed in the same pass.
  /// (DWURunLoopWorkDistribution used `Int.max - 999`, after the pool pop; Texture's queue used 0, before
  /// the commit.)
  nonisolated public static let defaultObserverOrder = 2_100_000

  /// The default ``maximumQueueLength``: 30, as DWURunLoopWorkDistribution, about three screens of
  /// three-image cells.
  nonisolated public static let defaultMaximumQueueLength = 30

  /// A ``maximumQueueLength`` that never evicts.
  nonisolated public static let unlimitedQueueLength = Int.max

  /// Everything a queue can be set up with, as one value. Presets: ``default``.
  public struct Configuration: Sendable {
    /// Run-loop modes whose BeforeWaiting moments run idle passes. Default `[.default]`: work pauses
    /// while UIKit tracks a scroll (`UITrackingRunLoopMode`) and resumes when the finger lifts.
    public var modes: [RunLoop.Mode] = [.default]
    /// The observer's order; see ``IdleQueue/defaultObserverOrder``.
    public var observerOrder: Int = IdleQueue.defaultObserverOrder
    /// Work per pass; see ``IdleQueue/Budget``.
    public var budget: Budget = .default
    /// Pending tasks kept at most; valid range `0...Int.max`.
    public var maximumQueueLength: Int = IdleQueue.defaultMaximumQueueLength
    /// Opt-in: let tasks that waited long enough run during a scroll, within frame slack; `nil` (default)
    /// runs nothing while tracking. See ``IdleQueue/ScrollingSlack``.
    public var scrollingSlack: ScrollingSlack?

    /// Default settings: default mode, `.tasks(1)`, 30 tasks, nothing while scrolling.
    public static var `default`: Configuration { Configuration() }

    /// Creates a configuration with default values; change the vars you need.
    public init() {}
  }

  /// Whether a resumable task has more to do.
  public enum SliceResult: Sendable, Hashable {
    /// The task is finished; it leaves the queue as executed.
    case done
    /// The task has more to do; it runs again in a later pass, keeping its place at the head.
    case moreToDo
  }

  /// The scheduler whose passes serve this queue.
  public let scheduler: IdleScheduler
  /// Opt-in work during scrolls (see ``ScrollingSlack``); `nil` runs nothing while a scroll is tracked.
  ///
  /// The tracking modes are observed from creation: give them in ``Configuration/scrollingSlack`` (or in
  /// the shared ``IdleScheduler``'s `trackingModes`). Changing this property later changes the waiting and
  /// slack thresholds and the frame clock, not the observed modes.
  public var scrollingSlack: ScrollingSlack?

  var list: TaskList<QueuedTask>
  let inbox: BackgroundInbox
  let notificationObservers = NotificationObservers()
  private(set) var isInvalidated = false

  /// Work per pass. Default `.tasks(1)`. An invalid value (`.tasks(n)` with `n < 1`, or a non-finite or
  /// non-positive `.milliseconds`) stops the program with a message naming the parameter and its range.
  public var budget: Budget {
    didSet { Validation.require(budget.validationFailure) }
  }

  /// The most tasks kept pending; default 30. When an addition goes past it, stale tasks are dropped
  /// first, then the oldest. Lowering it trims the queue at once, the same way. A negative value stops
  /// the program with a message naming the parameter and its range `0...Int.max`; `0` keeps nothing
  /// (every task is evicted as it is added); ``unlimitedQueueLength`` never evicts.
  public var maximumQueueLength: Int {
    get { list.capacity }
    set {
      Validation.require(Validation.queueLengthFailure(newValue))
      list.capacity = newValue
      inbox.setLimit(newValue)
      release(list.trim(isStale: { $0.isStale }))
    }
  }

  /// Tasks pending: queued on the main thread plus those added from other threads and not yet taken in
  /// (at most ``maximumQueueLength`` of those are kept; see ``addTaskFromAnyThread(key:_:)``).
  public var pendingTaskCount: Int { list.count + inbox.count }

  /// What the queue has done so far; `added == executed + skippedAsStale + evicted + cancelled + pending`.
  public var statistics: Statistics { list.statistics }

  /// Creates an independent queue on the main run loop, default mode, with default settings.
  /// Apps and tests may create several; each has its own observer.
  public convenience init() {
    self.init(configuration: .default)
  }

  /// Creates an independent queue on the main run loop with its own observer.
  public convenience init(configuration: Configuration) {
    let driver = RunLoopPassDriver(
      modes: configuration.modes, trackingModes: configuration.scrollingSlack?.trackingModes ?? [],
      order: configuration.observerOrder)
    self.init(
      scheduler: IdleScheduler(driver: driver, budget: nil, stopsWhenEmpty: true), priority: 0,
      budget: configuration.budget, maximumQueueLength: configuration.maximumQueueLength)
    self.scrollingSlack = configuration.scrollingSlack
  }

  /// Creates an independent queue driven by `driver` — in unit tests, `IdleWorkTesting`'s
  /// `ManualPassDriver`, which steps passes by hand.
  public convenience init(
    driver: some IdlePassDriver, budget: Budget = .default,
    maximumQueueLength: Int = IdleQueue.defaultMaximumQueueLength
  ) {
    self.init(
      scheduler: IdleScheduler(driver: driver, budget: nil, stopsWhenEmpty: true), priority: 0,
      budget: budget, maximumQueueLength: maximumQueueLength)
  }

  /// Creates a queue served by a shared `scheduler`, which gives all its queues one observer and one
  /// per-pass budget. Higher `priority` queues are served first in each pass.
  public init(
    scheduler: IdleScheduler, priority: Int = 0, budget: Budget = .default,
    maximumQueueLength: Int = IdleQueue.defaultMaximumQueueLength
  ) {
    Validation.require(budget.validationFailure)
    Validation.require(Validation.queueLengthFailure(maximumQueueLength))
    self.scheduler = scheduler
    self.budget = budget
    self.list = TaskList(capacity: maximumQueueLength)
    self.inbox = BackgroundInbox(limit: maximumQueueLength, wake: scheduler.driver.makeWaker())
    scheduler.attach(self, priority: priority)
    if scheduler.isStopped { invalidate() }
  }

  // MARK: Adding

  /// Queues `task` to run in a later idle pass on the main thread.
  ///
  /// - Parameters:
  ///   - key: groups tasks for ``cancelTasks(forKey:)``; several tasks may share a key.
  ///   - discardable: whether ``discardDiscardableTasks()`` (memory pressure) may drop it.
  ///   - task: the work; released as soon as it has run or left the queue.
  /// - Returns: a handle to cancel this one task. After ``invalidate()`` nothing is queued and the handle
  ///   is not pending.
  @discardableResult
  public func addTask(
    key: some Hashable, discardable: Bool = false, _ task: @escaping @MainActor () -> Void
  )
    -> IdleTaskHandle
  {
    enqueue(key: TaskKey(key), QueuedTask(work: .once(task)), discardable: discardable)
  }

  /// Queues `task` for `cell`, to run only if the cell still shows `indexPath` when its turn comes.
  ///
  /// Sets `cell.currentIndexPath = indexPath`. The queue holds the cell weakly; a task whose cell is gone
  /// or shows another index path by then is skipped as stale, without counting against the pass's budget.
  /// Its key is `indexPath`.
  @discardableResult
  public func addTask<Cell: IndexPathReusable>(
    for cell: Cell, at indexPath: IndexPath, discardable: Bool = false, _ task: @escaping @MainActor (Cell) -> Void
  ) -> IdleTaskHandle {
    cell.currentIndexPath = indexPath
    let work: QueuedTask.Work = .once { [weak cell] in if let cell { task(cell) } }
    return enqueue(
      key: TaskKey(indexPath), QueuedTask(work: work, cell: cell, indexPath: indexPath), discardable: discardable)
  }

  /// Adds a task from any thread. It runs on the main thread in a later idle pass; the run loop is woken.
  ///
  /// The task reaches the queue (and ``statistics``) at the next pass; until then it counts in
  /// ``pendingTaskCount``. At most ``maximumQueueLength`` such tasks wait for the hand-over: beyond that
  /// the oldest are dropped and counted as evicted — the queue would evict them on arrival anyway — so a
  /// flood from other threads costs neither unbounded memory nor a main-thread stall.
  /// Returns `false`, dropping the task, if the queue has been invalidated.
  @discardableResult
  public nonisolated func addTaskFromAnyThread(
    key: some Hashable & Sendable, _ task: @escaping @Sendable @MainActor () -> Void
  ) -> Bool {
    inbox.add(BackgroundInbox.Item(key: TaskKey(key), task: task))
  }

  // MARK: Removing

  /// Cancels every pending task with this key. Returns how many were cancelled.
  @discardableResult
  public func cancelTasks(forKey key: some Hashable) -> Int {
    takeInBackgroundTasks()
    let removed = list.cancel(key: TaskKey(key))
    release(removed)
    return removed.count
  }

  /// Tells the queue that `cell` left the screen: it is unbound (`currentIndexPath = nil`) and its pending
  /// tasks are dropped at once, counted as skipped as stale. Returns how many were dropped.
  ///
  /// Call it from `tableView(_:didEndDisplaying:forRowAt:)` (or the collection view equivalent). A cell
  /// that scrolled off screen keeps its index path until it is reused, so without this its tasks would
  /// still run, in FIFO order ahead of the rows now on screen — work nobody sees. The Example measures
  /// the difference.
  @discardableResult
  public func cellDidEndDisplaying(_ cell: some IndexPathReusable) -> Int {
    cell.currentIndexPath = nil
    let removed = list.purgeStale(isStale: { $0.cell === cell })
    release(removed)
    return removed.count
  }

  /// Cancels every pending task.
  public func removeAllTasks() {
    takeInBackgroundTasks()
    release(list.cancelAll())
  }

  /// Drops every pending task added with `discardable: true` (prefetches and the like), counting them as
  /// cancelled, and returns how many. Call it when memory is short.
  @discardableResult
  public func discardDiscardableTasks() -> Int {
    takeInBackgroundTasks()
    let removed = list.cancelAll(where: { $0.isDiscardable })
    release(removed)
    return removed.count
  }

  /// Ends the queue: its observer is removed (when it owns its scheduler), pending tasks are dropped and
  /// released (counted as cancelled), and later additions are ignored. Safe to call from inside a task.
  public func invalidate() {
    guard !isInvalidated else { return }
    isInvalidated = true
    notificationObservers.removeAll()
    let closed = inbox.close()
    list.recordAddedAndEvicted(closed.dropped.count)
    list.recordAddedAndCancelled(closed.items.count)
    release(list.cancelAll())
    scheduler.detach(self)
  }

  // MARK: Serving passes

  /// Tasks queued, or a hand-over from other threads not yet taken in.
  var hasPendingWork: Bool { !isInvalidated && (!list.isEmpty || inbox.needsDrain) }

  func takeInBackgroundTasks() {
    let drained = inbox.drain()
    list.recordAddedAndEvicted(drained.dropped.count)
    for item in drained.items {
      enqueue(key: item.key, QueuedTask(work: .once(item.task)), discardable: false)
    }
  }

  /// Runs this queue's share of one pass; returns whether any task ran.
  func serve(_ kind: IdlePassKind, total: inout BudgetMeter?) -> Bool {
    guard !isInvalidated, !list.isEmpty else { return false }
    let slack = kind == .tracking ? scrollingSlack : nil
    if kind == .tracking, slack == nil { return false }
    let driver = scheduler.driver
    let start = driver.now
    var own = BudgetMeter(budget, start: start)
    var didWork = false
    var ranTasks = false
    while !isInvalidated {
      let now = driver.now
      guard own.allowsAnother(now: now), total?.allowsAnother(now: now) ?? true else { break }
      let (candidate, skipped) = list.firstRunnable(isStale: { $0.isStale })
      didWork = didWork || !skipped.isEmpty
      release(skipped)
      guard let entry = candidate else { break }
      if let slack, !slack.allows(waited: now &- entry.enqueuedAt) { break }
      didWork = true
      switch entry.payload.work {
      case .once(let run):
        guard let taken = list.takeForRun(entry.seq) else { continue }
        withExtendedLifetime(taken) { run() }
      case .resumable(let run):
        let result = run()
        if let finished = list.recordSlice(entry.seq, finished: result == .done) { release([finished]) }
      }
      own.recordTask()
      total?.recordTask()
      ranTasks = true
    }
    if didWork { list.recordPass(duration: driver.now &- start) }
    return ranTasks
  }

  // MARK: Internals

  @discardableResult
  func enqueue(key: TaskKey, _ task: QueuedTask, discardable: Bool) -> IdleTaskHandle {
    guard !isInvalidated else {
      task.onDrop?(.cancelled)  // tells an awaiting `perform` at once
      return IdleTaskHandle(queue: nil, seq: 0)
    }
    let (seq, removed) = list.append(
      key: key, payload: task, canBeStale: task.binding != nil, isDiscardable: discardable,
      now: scheduler.driver.now, isStale: { $0.isStale })
    release(removed)
    if !list.isEmpty { scheduler.setNeedsPass() }
    return IdleTaskHandle(queue: self, seq: seq)
  }

  /// Tells dropped tasks' observers how they left; the payloads are freed when `removed` goes.
  func release(_ removed: [TaskList<QueuedTask>.Removal]) {
    for removal in removed where removal.fate != .executed {
      if removal.fate == .evicted { PassSignposts.taskEvicted(pending: list.count, maximumQueueLength: list.capacity) }
      removal.entry.payload.onDrop?(removal.fate)
    }
  }
}
