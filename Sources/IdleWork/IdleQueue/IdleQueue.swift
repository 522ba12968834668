import Foundation

/// A queue of small main-thread tasks that run when the main run loop is about to sleep.
///
/// `cellForRowAt` hands heavy work (image draws, text layout) to the queue instead of doing it at once;
/// the queue runs a small slice of it each time the run loop is about to sleep — after input, timers and
/// Core Animation's commit — so the frame being committed never waits for it (a task still holds the main
/// thread while it runs, so a long one can delay the next frame: keep tasks small). By default in the
/// default run-loop mode only, so nothing runs while a finger drags a scroll view (see
/// ``Scrolling/fitToFrames(timeUntilNextFrame:)`` to work during scrolls, within each frame).
///
/// ```swift
/// IdleQueue.main.bind(cell, to: indexPath)  // or the item identifier, when rows move
/// for image in images {
///   IdleQueue.main.addTask(for: cell, at: indexPath) { cell in cell.draw(image) }
/// }
/// ```
///
/// - **Cells:** ``bind(_:to:)`` at the top of `cellForRowAt` starts a new configuration of the cell, so
///   its earlier tasks are skipped as stale; ``cellDidEndDisplaying(_:at:)`` parks a cell's tasks while it
///   is off screen and ``cellWillDisplay(_:at:)`` lets them run again.
/// - **Order and capacity:** FIFO. Past ``maximumQueueLength``, stale tasks (cell gone or configured
///   again) are dropped first, then those of cells off screen, then `discardable` ones (prefetches), then
///   the oldest — so a prefetch never evicts a visible row's work. Every task added is accounted for in
///   ``statistics-swift.property``.
/// - **Budget:** ``budget-swift.property`` decides how much a pass runs; stale tasks are skipped without
///   counting against it.
/// - **Waking:** while runnable tasks remain the run loop comes round again at once; after a pass that ran
///   tasks it comes round once more, so that their changes are committed; then, with nothing runnable
///   left, it sleeps — no timer, no polling.
/// - **Memory:** where UIKit exists, every queue drops its `discardable` tasks when the app receives a
///   memory warning (``dropDiscardableTasks()``).
/// - **Threads:** use it on the main thread. From any thread you may reach ``main``, create a queue
///   (``init(configuration:)``; it starts serving on the main thread), add work with
///   ``addTaskFromAnyThread(key:_:)`` and end a queue with ``invalidate()``.
/// - **Ending:** ``invalidate()`` ends a queue; so does releasing it. Either way its pending tasks are
///   cancelled and their closures released *on the main thread* — through the main queue when the call or
///   the last release happens on another thread — so the views they capture never deinit off the main
///   thread. A screen that owns a queue can write `deinit { queue.invalidate() }` to end it at once.
@MainActor
public final class IdleQueue {
  /// The queue the whole app shares: main run loop, default mode, default settings. It cannot be
  /// invalidated (that would silently disable every user of it); create your own queue for that.
  ///
  /// Reachable from any thread, so that a network or decoding callback can hand work over:
  ///
  /// ```swift
  /// DispatchQueue.global().async {
  ///   IdleQueue.main.addTaskFromAnyThread(key: "img") { imageView.image = image }
  /// }
  /// ```
  public nonisolated static let main = IdleQueue(configuration: Configuration(), isShared: true)

  /// The observer order: after Core Animation's commit observer (2,000,000) and UIKit's after-commit
  /// handler (2,001,000), before the autorelease pool pop (`Int32.max`).
  ///
  /// Running after the commit means the frame being built has already been handed to the render server
  /// when a task starts, so a task can delay only the *next* frame, never the current one; the changes
  /// a task makes to layers are committed at the next BeforeWaiting, which the run-loop driver's wake-up
  /// after a pass that ran tasks brings at once. Running before the pool pop means what tasks autorelease
  /// is freed in the same pass.
  /// (DWURunLoopWorkDistribution used `Int.max - 999`, after the pool pop; Texture's queue used 0, before
  /// the commit.)
  nonisolated static let observerOrder = 2_100_000

  /// Everything a queue is set up with, as one value.
  public struct Configuration: Sendable {
    /// Run-loop modes whose BeforeWaiting moments run idle passes. Default `[.default]`: work pauses
    /// while UIKit tracks a scroll (`UITrackingRunLoopMode`, drag and deceleration) and resumes when the
    /// run loop is back in the default mode.
    public var modes: [RunLoop.Mode]
    /// Work per pass; see ``IdleQueue/Budget``.
    public var budget: Budget
    /// Pending tasks kept at most; see ``IdleQueue/maximumQueueLength``.
    public var maximumQueueLength: Int
    /// What the queue does while a scroll view scrolls, and whether its passes fit frames; see
    /// ``IdleQueue/Scrolling``. Default ``IdleQueue/Scrolling/pause``: nothing runs while a scroll is
    /// tracked, and idle passes are bounded by ``budget`` alone. ``scrollingFeed(timeUntilNextFrame:)`` sets
    /// ``IdleQueue/Scrolling/fitToFrames(timeUntilNextFrame:)``.
    public var scrolling: Scrolling
    /// This queue's prepared tasks' `prepare` closures running at once, at most (see
    /// ``IdleQueue/addTask(key:content:discardable:estimatedCost:resultBytes:prepare:apply:)``). They run on
    /// the process's one pool of worker threads, shared by every queue, which has as many threads as the
    /// largest `workers` of the queues using it — never queues × workers; threads start when such work comes
    /// and end after 10 s without any, and when no queue uses the pool. `1...Int.max`; anything else stops the
    /// program with a message naming it. Default: the active cores, at most 6 — measured in FeedDemo against
    /// one fewer and twice as many (see the *Preparing off the main thread* article).
    public var workers: Int
    /// Bytes of prepared results kept by their `content` key, so that a row shown again, or reloaded with
    /// the same content, applies at once instead of preparing again (each result counts what its task's
    /// `resultBytes` says, or by its type: see the prepared `addTask`); least recently used results go first,
    /// and all go on a memory warning (``IdleQueue/dropDiscardableTasks()``). A result that tasks are still to
    /// apply stays until they have, counted. The results on their way to the main thread (finished on a worker,
    /// not yet taken in by a pass) count too: the cache keeps room for two per worker, each the size of the
    /// largest result it has seen, and in all at most a quarter of this limit; a result larger than what is left
    /// is not kept. So the results kept, those waiting for their apply and those arriving stay within this limit
    /// while the arriving ones fit in that room — not when the waiting ones alone exceed the limit, nor when
    /// results arrive faster than passes take them in, nor when two per worker need more than a quarter of it.
    /// `0` (default) keeps none; negative stops the program with a message naming it.
    public var resultCacheLimit: Int
    /// The observer's order; tests and the benchmark change it, apps have no reason to.
    var observerOrder = IdleQueue.observerOrder

    /// The default ``workers``: the active cores, within 1...6.
    @usableFromInline static var defaultWorkers: Int {
      min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 6)
    }

    /// Creates a configuration; every parameter has the default a feed wants.
    ///
    /// - Parameters:
    ///   - modes: run-loop modes with idle passes; default `[.default]`.
    ///   - budget: work per pass; default `.tasks(1)`.
    ///   - maximumQueueLength: pending tasks kept at most, in `0...Int.max`; default 30, as
    ///     DWURunLoopWorkDistribution (ten rows of three-image cells).
    ///   - scrolling: what the queue does while a scroll view scrolls; default `.pause` (nothing runs, no
    ///     frame clock).
    ///   - workers: this queue's preparations running at once on the shared worker pool, in `1...Int.max`;
    ///     default the active cores, within 1...6.
    ///   - resultCacheLimit: bytes of prepared results kept by content, in `0...Int.max`; default 0 (none).
    public init(
      modes: [RunLoop.Mode] = [.default], budget: Budget = .tasks(1), maximumQueueLength: Int = 30,
      scrolling: Scrolling = .pause, workers: Int = Configuration.defaultWorkers, resultCacheLimit: Int = 0
    ) {
      self.workers = workers
      self.resultCacheLimit = resultCacheLimit
      self.modes = modes
      self.budget = budget
      self.maximumQueueLength = maximumQueueLength
      self.scrolling = scrolling
    }

    /// The setting for a scrolling feed, in one line: deadline-aware passes in idle time and during
    /// scrolls. Choose it when a list's cells queue draws of a few milliseconds each and frames matter
    /// more than draining fast; keep the default `Configuration()` (one task per pass, nothing while
    /// scrolling) when tasks are tiny or you cannot tell the frame clock.
    ///
    /// - ``scrolling`` is ``IdleQueue/Scrolling/fitToFrames(timeUntilNextFrame:)``: passes fill the time
    ///   left before each frame with tasks predicted to fit (with a margin of a quarter of the prediction,
    ///   within 0.1...1 ms), in idle time and during a scroll (`UITrackingRunLoopMode`). During a scroll a
    ///   task whose cost was never measured is tried only as the first task of a pass with at least half a
    ///   frame left (which measures it); one that never fits a frame waits for an idle pass, keeping its
    ///   place while the tasks behind it that fit run; with no frame known (or a display link that stopped
    ///   ticking) nothing runs while scrolling. Rows scrolled past are off screen
    ///   (`cellDidEndDisplaying(_:at:)`), so their draws wait instead of running.
    /// - ``budget`` is one 60 Hz frame (`.seconds(1.0 / 60)`): the cap on a pass when no frame is pending.
    /// - 128 tasks kept at most: three screens of a dense feed (14 rows of three draws). Off-screen cells'
    ///   tasks are evicted first, so a larger queue costs memory for closures, not wasted draws; the
    ///   default's 30 would evict draws of rows on screen in such a feed.
    /// - Prepared results are cached by content up to 32 MB (``resultCacheLimit``), so rows scrolled back to
    ///   or reloaded unchanged apply at once.
    ///
    /// ```swift
    /// let queue = IdleQueue(configuration: .scrollingFeed())
    /// ```
    ///
    /// - Parameter timeUntilNextFrame: the frame clock, as in
    ///   ``IdleQueue/Scrolling/fitToFrames(timeUntilNextFrame:)``: seconds until the next frame must be
    ///   committed, or `nil` when no frame is pending. Leave it out on iOS and tvOS: the queue then reads a
    ///   `CADisplayLink`'s `targetTimestamp`, and runs the display link only while tasks are pending (and
    ///   for at most 0.1 s while only results being prepared are awaited).
    ///   Elsewhere leaving it out means no frame clock (time-budgeted passes with predicted costs, nothing
    ///   while scrolling).
    public static func scrollingFeed(
      timeUntilNextFrame: (@MainActor @Sendable () -> TimeInterval?)? = nil
    ) -> Configuration {
      Configuration(
        budget: .seconds(1.0 / 60), maximumQueueLength: 128,
        scrolling: .fitToFrames(timeUntilNextFrame: timeUntilNextFrame), resultCacheLimit: 32 << 20)
    }
  }

  /// Whether a resumable task has more to do.
  public enum SliceResult: Sendable, Hashable {
    /// The task is finished; it leaves the queue as executed.
    case done
    /// The task has more to do; it keeps its place in the queue and runs again when the budget allows —
    /// in the same pass if it allows more than one task, else in the next.
    case moreToDo
  }

  /// The queue's state and policy. Apps retain the queue around every call; nothing else refers to it
  /// weakly, so those retains stay on the fast path (see ``QueueCore``).
  let core: QueueCore

  /// Work per pass; default `.tasks(1)`. A change applies from the next pass. An invalid value
  /// (`.tasks(n)` with `n < 1`, or a non-finite or non-positive `.seconds`) stops the program with a
  /// message naming the parameter and its range.
  public var budget: Budget {
    get { core.budget }
    set { core.budget = newValue }
  }

  /// The most tasks kept pending; default 30. When an addition goes past it, the queue drops, until it
  /// fits: every stale task (its cell gone or configured again), counted as skipped as stale; then tasks
  /// of cells off screen, oldest first; then tasks added with `discardable: true`, oldest first; then the
  /// oldest tasks — those three counted as evicted. A discardable task added to a queue full of tasks that
  /// are not (and not stale or off screen) is therefore the one evicted: a prefetch never pushes out a
  /// visible row's work. Lowering it trims the queue at once, the same way. A negative value stops the
  /// program with a message naming the parameter and its range `0...Int.max`; `0` keeps nothing (every
  /// task is evicted as it is added); `Int.max` never evicts.
  public var maximumQueueLength: Int {
    get { core.maximumQueueLength }
    set { core.maximumQueueLength = newValue }
  }

  /// Tasks pending: queued on the main thread plus those added from other threads and not yet taken in
  /// (at most ``maximumQueueLength`` of those are kept; see ``addTaskFromAnyThread(key:_:)``).
  public var pendingTaskCount: Int { core.pendingTaskCount }

  /// What the queue has done so far;
  /// `added == executed + skippedAsStale + evicted + cancelled + failed + pending` always holds.
  public var statistics: Statistics { core.statistics }

  /// Creates an independent queue on the main run loop with its own observer and its own budget (the
  /// budgets of several queues add up in a pass). Invalid settings stop the program with a message naming
  /// the parameter and its range. Unlike ``main``, such a queue can be ended with ``invalidate()``, and
  /// releasing it ends it too.
  ///
  /// Callable from any thread (a library may make its own queue on a background thread). The queue starts
  /// serving — its run-loop observer, its frame clock, its memory-warning observer — on the main thread: at
  /// once when created there, otherwise through the main queue, which the main run loop serves in every
  /// mode. Work added before that runs once it has started; an ``invalidate()`` before it wins (the queue
  /// never starts).
  public nonisolated convenience init(configuration: Configuration = Configuration()) {
    self.init(configuration: configuration, isShared: false)
  }

  private nonisolated convenience init(configuration: Configuration, isShared: Bool) {
    let driver = RunLoopPassDriver(
      modes: configuration.modes, trackingModes: configuration.scrolling.trackingModes,
      order: configuration.observerOrder)
    self.init(
      scheduler: IdleScheduler(driver: driver, budget: nil, stopsWhenEmpty: true), priority: 0,
      configuration: configuration, isShared: isShared)
  }

  /// Creates an independent queue driven by `driver` (in unit tests, `IdleWorkTesting`'s `ManualPassDriver`).
  /// The queue stops the driver when it is invalidated.
  @_spi(IdleWorkTesting) public convenience init(
    passDriver driver: some IdlePassDriver, configuration: Configuration = Configuration()
  ) {
    self.init(
      scheduler: IdleScheduler(driver: driver, budget: nil, stopsWhenEmpty: true), priority: 0,
      configuration: configuration)
    // Made on the main actor, which is not always the main thread: Swift Testing runs a `@MainActor @Test` on
    // another thread on Linux, where the start the initializer sends through the main queue would come late or
    // never. Start now (a second start does nothing).
    core.start()
  }

  /// Creates a queue served by a shared `scheduler`, which gives all its queues one observer and one
  /// per-pass budget. Higher `priority` queues are served first in each pass.
  nonisolated init(
    scheduler: IdleScheduler, priority: Int = 0, configuration: Configuration = Configuration(),
    isShared: Bool = false
  ) {
    core = QueueCore(scheduler: scheduler, priority: priority, configuration: configuration, isShared: isShared)
  }

  deinit {
    core.endOnMainThread()
  }

  // MARK: Adding

  /// Queues `task` to run in a later idle pass on the main thread — never in the pass that is running, even
  /// when a task adds it.
  ///
  /// - Parameters:
  ///   - key: groups tasks for ``cancelTasks(forKey:)``; several tasks may share a key.
  ///   - discardable: whether it may be dropped when memory is short (see ``dropDiscardableTasks()``). A
  ///     discardable task is also evicted before any other that is runnable when the queue is full (after
  ///     stale tasks and those of cells off screen; see ``maximumQueueLength``), so it never evicts one
  ///     that is not discardable.
  ///   - replacesPending: last wins, as YYTransaction's run-loop set: every task still pending with this
  ///     key is cancelled (counted as cancelled) and `task` goes to the back of the queue, so the same
  ///     request made five times in one turn runs once. The FIFO order stays the order of requests.
  ///   - estimatedCost: seconds you expect `task` to take, if you know better than the queue; `nil`
  ///     (default) uses the queue's prediction, a moving average of measured tasks. With a frame clock
  ///     (``Scrolling/fitToFrames(timeUntilNextFrame:)``) or a `.seconds` budget, a task starts only if this fits in the
  ///     time left. Finite and `>= 0`; anything else stops the program with a message naming it.
  ///   - task: the work; released as soon as it has run or left the queue.
  /// - Returns: a handle to cancel this one task. After ``invalidate()`` nothing is queued and the handle
  ///   is not pending.
  @discardableResult
  public func addTask(
    key: some Hashable, discardable: Bool = false, replacesPending: Bool = false, estimatedCost: TimeInterval? = nil,
    _ task: consuming @escaping @MainActor () -> Void
  ) -> IdleTaskHandle {
    core.addTask(
      key: TaskKey(key), discardable: discardable, replacesPending: replacesPending, estimatedCost: estimatedCost, task)
  }

  /// Queues `task` for `cell`, to run only while the cell still shows this configuration of `item`.
  ///
  /// If the cell's current configuration (see ``bind(_:to:)``) is for `item`, the task joins it; otherwise
  /// this starts a new one and the cell's earlier tasks become stale. The queue holds the cell weakly; a task
  /// whose cell is gone or was configured again by its turn is skipped as stale, without counting against the
  /// pass's budget. While the cell is off screen (``cellDidEndDisplaying(_:at:)``) the task waits.
  ///
  /// - Parameters:
  ///   - cell: the cell the task draws into.
  ///   - item: what the cell shows: an `IndexPath`, or — when rows are inserted, deleted or moved, as with a
  ///     diffable data source — the item identifier (`dataSource.itemIdentifier(for: indexPath)`), which stays
  ///     with the content while its index path changes (see ``bind(_:to:)``).
  ///   - key: groups tasks for ``cancelTasks(forKey:)``; `nil` (default) uses `item`. Index paths, and often
  ///     item identifiers, repeat from one list to the next: when several lists share a queue (``main``),
  ///     give a key that tells them apart, such as `ObjectIdentifier(tableView)` to cancel one list's tasks.
  ///   - discardable: as in ``addTask(key:discardable:replacesPending:estimatedCost:_:)``.
  ///   - estimatedCost: as in ``addTask(key:discardable:replacesPending:estimatedCost:_:)``.
  ///   - task: the work, given the cell.
  @discardableResult
  public func addTask<Cell: AnyObject>(
    for cell: Cell, at item: some Hashable, key: (some Hashable)? = Int?.none, discardable: Bool = false,
    estimatedCost: TimeInterval? = nil, _ task: consuming @escaping @MainActor (Cell) -> Void
  ) -> IdleTaskHandle {
    // The queue hands the task back the cell it was added for, a `Cell`.
    let task = task
    return core.enqueueCellTask(
      .onCell { cell in task(cell as! Cell) }, for: cell, at: item, key: key.map { TaskKey($0) },
      estimatedCost: estimatedCost, discardable: discardable)
  }

  /// Adds a task from any thread. It runs on the main thread in a later idle pass; the run loop is woken.
  ///
  /// The task reaches the queue (and ``statistics``) at the next pass; until then it counts in
  /// ``pendingTaskCount``. At most ``maximumQueueLength`` such tasks wait for the hand-over: beyond that
  /// the oldest are dropped and counted as evicted — the queue would evict them on arrival anyway — and
  /// released promptly on the main thread (through the main queue, which the main thread serves in every
  /// mode, scrolls included), so a flood from other threads costs neither unbounded memory nor a
  /// main-thread stall. Such a task is not discardable and is bound to no cell.
  /// Returns `false`, dropping the task, if the queue has been invalidated.
  @discardableResult
  public nonisolated func addTaskFromAnyThread(
    key: some Hashable & Sendable, _ task: consuming @escaping @Sendable @MainActor () -> Void
  ) -> Bool {
    core.addTaskFromAnyThread(key: TaskKey(key), task)
  }

  // MARK: Cells

  /// Tells the queue that `cell` is being configured for `item` (call it at the top of `cellForRowAt`): the
  /// cell's earlier tasks are stale from now on — for another row, or for this row's previous content
  /// after `reloadData`, `reconfigureRows` or a new snapshot — and the cell counts as on screen.
  ///
  /// Call it for every row, also rows that queue nothing, so that a reused cell's old draws never land on
  /// its new row. IdleWork keeps this record itself and adds nothing to the cell's class.
  ///
  /// `item` is any `Hashable`: an `IndexPath`, or the data source's item identifier
  /// (`dataSource.itemIdentifier(for: indexPath)`). Pass the item identifier when rows are inserted, deleted
  /// or moved (a diffable data source): UIKit then shows cells at new index paths without a new
  /// `cellForRowAt`, so `willDisplay` and `didEndDisplaying` name an index path the cell was not bound to —
  /// ``cellDidEndDisplaying(_:at:)`` parks nothing, and ``cellWillDisplay(_:at:)`` takes the cell for new
  /// content and drops its draws. An item identifier stays with the content; use the same kind of item in
  /// every call for a cell.
  public func bind(_ cell: AnyObject, to item: some Hashable) {
    core.bind(cell, to: item)
  }

  /// Tells the queue that `cell` is shown for `item` (call it from `willDisplay`): tasks parked by
  /// ``cellDidEndDisplaying(_:at:)`` for that item may run again. A collection view with prefetching shows a
  /// cell again this way without a new `cellForItemAt`. A cell last configured for another item starts a new
  /// configuration for this one, so its tasks for the other item become stale (with index paths, also after
  /// an insert or move shifted the cell's row: see ``bind(_:to:)``).
  public func cellWillDisplay(_ cell: AnyObject, at item: some Hashable) {
    core.cellWillDisplay(cell, at: item)
  }

  /// Tells the queue that `cell` left the screen showing `item` (call it from `didEndDisplaying`): its
  /// tasks for that item are parked — they do not run while it is off screen, so they never run ahead of
  /// the visible rows', and they are the first evicted after stale tasks (before discardable ones). They run if the cell is shown
  /// again for that item (``cellWillDisplay(_:at:)``) and become stale once it is configured again or is
  /// released. Until then they count as pending; when only parked tasks remain, the queue asks for no
  /// pass, so they never keep the run loop awake, and a released cell's tasks leave (as stale, their
  /// closures freed) at the run loop's next pass. A call for an item the cell no longer shows changes
  /// nothing (with index paths, also one shifted by an insert or move: see ``bind(_:to:)``).
  public func cellDidEndDisplaying(_ cell: AnyObject, at item: some Hashable) {
    core.cellDidEndDisplaying(cell, at: item)
  }

  // MARK: Removing

  /// Cancels every pending task with this key (for cell tasks added without one, their item), including
  /// those added from other threads and not yet taken in. Returns how many were cancelled.
  @discardableResult
  public func cancelTasks(forKey key: some Hashable) -> Int {
    core.cancelTasks(forKey: TaskKey(key))
  }

  /// Cancels every pending task.
  public func removeAllTasks() {
    core.removeAllTasks()
  }

  /// Drops every pending task added with `discardable: true` (prefetches and the like), counting them as
  /// cancelled, and returns how many. Where UIKit exists every queue does this by itself when the app
  /// receives a memory warning; elsewhere call it when memory is short.
  @discardableResult
  public func dropDiscardableTasks() -> Int {
    core.dropDiscardableTasks()
  }

  /// Ends the queue: its observer is removed, pending tasks are dropped and released (counted as
  /// cancelled; awaiting ``perform(key:discardable:_:)`` calls throw ``IdleWorkError/cancelled``), and
  /// later additions are ignored (``addTaskFromAnyThread(key:_:)`` returns `false`). Safe to call from
  /// inside a task.
  ///
  /// Callable from any thread, and so from a screen's `deinit`:
  ///
  /// ```swift
  /// final class FeedViewController: UIViewController {
  ///   let queue = IdleQueue(configuration: .scrollingFeed())
  ///   deinit { queue.invalidate() }
  /// }
  /// ```
  ///
  /// On the main thread the queue ends before this returns. On another thread, additions from other
  /// threads are refused before it returns (one racing it either got in first, and is cancelled, or returns
  /// `false`), and the rest happens on the main thread through the main queue: no pass that begins after
  /// this call runs the queue's tasks, and the closures are released there.
  ///
  /// Releasing a queue ends it the same way, on the main thread, even when its last reference goes on
  /// another thread: what it held — and the views its closures capture — is released on the main thread.
  /// (An awaiting `perform` holds its queue, so a queue is never released under one.)
  ///
  /// ``main`` cannot be invalidated: doing so stops the program with a message, on the calling thread,
  /// because the whole app shares it. Use ``removeAllTasks()`` on it, or create your own queue.
  public nonisolated func invalidate() {
    core.invalidateFromAnyThread()
  }
}
