import Foundation

/// A queue of small main-thread tasks that run when the main run loop is about to sleep.
///
/// `cellForRowAt` hands heavy work (image draws, text layout) to the queue instead of doing it at once. The queue
/// runs a slice of it in each *pass* — one turn of the main run loop just before it sleeps, after input, timers and
/// Core Animation's commit — so the frame being committed never waits for it.
///
/// ```swift
/// IdleQueue.main.bind(cell, to: indexPath)
/// for image in images {
///   IdleQueue.main.addTask(for: cell, at: indexPath) { cell in cell.draw(image) }
/// }
/// ```
///
/// Tasks run in FIFO order; a cell's tasks are skipped as stale once the cell shows another row (``bind(_:to:)``)
/// and wait while it is off screen (``cellDidEndDisplaying(_:at:)``). Past `maximumQueueLength` the oldest go,
/// stale and off-screen rows' first. Every task is accounted for in ``statistics``. Use the queue on the main
/// thread; from other threads use ``addTaskFromAnyThread(key:_:)`` and ``invalidate()``.
@MainActor
public final class IdleQueue {
  /// The queue the whole app shares: default settings, reachable from any thread. It cannot be invalidated;
  /// create your own queue for that.
  public nonisolated static let main = IdleQueue(configuration: Configuration(), isShared: true)

  /// The observer order: after Core Animation's commit (2,000,000) and UIKit's after-commit handler (2,001,000),
  /// so a task delays only the next frame, never the one being committed; before the autorelease pool pop
  /// (`Int32.max`), so what tasks autorelease is freed in the same pass.
  nonisolated static let observerOrder = 2_100_000

  /// The queue's state and policy.
  package let core: QueueCore

  /// Work per pass (``Configuration/budget``); tests change it between passes.
  var budget: Budget {
    get { core.budget }
    set { core.budget = newValue }
  }

  /// Pending tasks kept at most (``Configuration/maximumQueueLength``); lowering it trims the queue at once.
  var maximumQueueLength: Int {
    get { core.maximumQueueLength }
    set { core.maximumQueueLength = newValue }
  }

  /// Tasks pending, including those added from other threads and not yet taken in.
  var pendingTaskCount: Int { core.pendingTaskCount }

  /// What the queue has done so far; `added == executed + skippedAsStale + evicted + cancelled + pending`
  /// always holds.
  public var statistics: Statistics { core.statistics }

  /// Creates a queue on the main run loop with its own observer and budget. Invalid settings stop the program
  /// with a message naming the parameter and its range. Callable from any thread: the queue starts serving on the
  /// main thread. Unlike ``main``, it can be ended with ``invalidate()``; releasing it ends it too.
  public nonisolated convenience init(configuration: Configuration = Configuration()) {
    self.init(configuration: configuration, isShared: false)
  }

  private nonisolated convenience init(configuration: Configuration, isShared: Bool) {
    let driver = RunLoopPassDriver(
      modes: configuration.modes, trackingModes: configuration.scrolling.trackingModes,
      order: configuration.observerOrder)
    self.init(scheduler: IdleScheduler(driver: driver), configuration: configuration, isShared: isShared)
  }

  /// Creates a queue driven by `driver` (in unit tests, `IdleWorkTesting`'s `ManualPassDriver`). The queue stops
  /// the driver when it is invalidated.
  @_spi(IdleWorkTesting) public convenience init(
    passDriver driver: some IdlePassDriver, configuration: Configuration = Configuration()
  ) {
    self.init(scheduler: IdleScheduler(driver: driver), configuration: configuration)
    // Made on the main actor, which is not always the main thread (Swift Testing on Linux): start now rather than
    // through the main queue (a second start does nothing).
    core.start()
  }

  /// Creates a queue served by `scheduler`.
  nonisolated init(scheduler: IdleScheduler, configuration: Configuration, isShared: Bool = false) {
    core = QueueCore(scheduler: scheduler, configuration: configuration, isShared: isShared)
  }

  deinit {
    core.endOnMainThread()
  }

  // MARK: Adding

  /// Queues `task` to run in a later pass on the main thread — never in the pass that is running.
  ///
  /// - Parameters:
  ///   - key: groups tasks for ``cancelTasks(forKey:)``; several tasks may share a key.
  ///   - droppable: a task the queue may drop first: evicted before every other runnable task when the queue is full,
  ///     and dropped on a memory warning. Use it for work a user would not miss at once.
  ///   - replacesPending: last wins: every task still pending with this key is cancelled and `task` goes to the
  ///     back, so the same request made five times in one turn runs once.
  ///   - estimatedCost: seconds you expect `task` to take, if you know better than the queue's prediction; with
  ///     a frame clock or a `.seconds` budget a task starts only if it fits the time left. Finite and `>= 0`.
  ///   - task: the work; released as soon as it has run or left the queue.
  /// - Returns: a handle that cancels this one task.
  @discardableResult
  public func addTask(
    key: some Hashable, droppable: Bool = false, replacesPending: Bool = false, estimatedCost: TimeInterval? = nil,
    _ task: consuming @escaping @MainActor () -> Void
  ) -> IdleTaskHandle {
    core.addTask(
      key: TaskKey(key), discardable: droppable, replacesPending: replacesPending, estimatedCost: estimatedCost,
      task)
  }

  /// Queues `task` for `cell`, to run only while the cell still shows this configuration of `item`.
  ///
  /// If the cell's configuration (``bind(_:to:)``) is for `item` the task joins it; otherwise this starts a new one
  /// and the cell's earlier tasks become stale. The queue holds the cell weakly.
  ///
  /// - Parameters:
  ///   - cell: the cell the task draws into.
  ///   - item: what the cell shows: an `IndexPath`, or an item identifier when rows move (see ``bind(_:to:)``).
  ///   - key: groups tasks for ``cancelTasks(forKey:)``; `nil` (default) uses `item`. Give one that tells lists
  ///     apart (`ObjectIdentifier(tableView)`) when several share a queue.
  ///   - droppable: as in ``addTask(key:droppable:replacesPending:estimatedCost:_:)``.
  ///   - estimatedCost: as in ``addTask(key:droppable:replacesPending:estimatedCost:_:)``.
  ///   - task: the work, given the cell.
  @discardableResult
  public func addTask<Cell: AnyObject>(
    for cell: Cell, at item: some Hashable, key: AnyHashable? = nil, droppable: Bool = false,
    estimatedCost: TimeInterval? = nil, _ task: consuming @escaping @MainActor (Cell) -> Void
  ) -> IdleTaskHandle {
    // The queue hands the task back the cell it was added for, a `Cell`.
    let task = task
    return core.enqueueCellTask(
      .onCell { cell in task(cell as! Cell) }, for: cell, at: item, key: key.map { TaskKey($0) },
      estimatedCost: estimatedCost, discardable: droppable)
  }

  /// Adds a task from any thread; it runs on the main thread in a later pass, and the run loop is woken.
  ///
  /// At most `maximumQueueLength` such tasks wait for the next pass to take them in; past that the oldest are
  /// evicted (and released on the main thread), so a flood from other threads costs neither memory nor a stall.
  /// Returns `false`, dropping the task, if the queue has been invalidated.
  @discardableResult
  public nonisolated func addTaskFromAnyThread(
    key: some Hashable & Sendable, _ task: consuming @escaping @Sendable @MainActor () -> Void
  ) -> Bool {
    core.addTaskFromAnyThread(key: TaskKey(key), task)
  }

  // MARK: Cells

  /// Tells the queue that `cell` is being configured for `item` — call it at the top of `cellForRowAt`, for every
  /// row: the cell's earlier tasks are stale from now on, and the cell counts as on screen.
  ///
  /// `item` is an `IndexPath`, or the data source's item identifier when rows are inserted, deleted or moved (a
  /// diffable data source): UIKit then shows cells at new index paths without a new `cellForRowAt`. Use the same
  /// kind of item in every call for a cell.
  public func bind(_ cell: AnyObject, to item: some Hashable) {
    core.bind(cell, to: item)
  }

  /// Tells the queue that `cell` is shown for `item` (call it from `willDisplay`): its tasks parked by
  /// ``cellDidEndDisplaying(_:at:)`` may run again. A cell last configured for another item starts a new
  /// configuration.
  public func cellWillDisplay(_ cell: AnyObject, at item: some Hashable) {
    core.cellWillDisplay(cell, at: item)
  }

  /// Tells the queue that `cell` left the screen showing `item` (call it from `didEndDisplaying`): its tasks wait,
  /// keep no pass coming, and are the first evicted after stale ones.
  public func cellDidEndDisplaying(_ cell: AnyObject, at item: some Hashable) {
    core.cellDidEndDisplaying(cell, at: item)
  }

  // MARK: Cancelling

  /// Cancels every pending task with this key (a cell task added without one has its item), including those
  /// added from other threads and not yet taken in. Returns how many.
  @discardableResult
  public func cancelTasks(forKey key: some Hashable) -> Int {
    core.cancelTasks(forKey: TaskKey(key))
  }

  /// Cancels every pending task, and the pending prefetches of the queue's preparer (`IdleWorkPreparation`).
  public func cancelAllTasks() {
    core.cancelAllTasks()
  }

  /// Drops every pending droppable task, its preparer's pending prefetches and cached results; returns how many. Every
  /// queue does this on a memory warning where UIKit exists.
  @discardableResult
  func dropDiscardableTasks() -> Int {
    core.dropDiscardableTasks()
  }

  /// Ends the queue: pending tasks are cancelled and released on the main thread, and later additions are
  /// ignored. Callable from any thread, so from a screen's `deinit`; releasing the queue does the same.
  /// ``main`` cannot be invalidated: that stops the program with a message.
  public nonisolated func invalidate() {
    core.invalidateFromAnyThread()
  }
}
