import Foundation

/// Owns one pass driver (the run-loop observer) and serves one or more ``IdleQueue``s from it.
///
/// Every public ``IdleQueue`` initializer gives the queue a private one, so each queue is independent. To
/// make several queues share one observer and one per-pass budget (so that, together, they never take more
/// of a pass than the budget), create a scheduler and pass it to
/// `IdleQueue.init(scheduler:priority:configuration:isShared:)` (internal; the tests use it).
///
/// **Order.** Each pass serves queues by descending `priority`, then in the order they were attached;
/// each queue runs its tasks in FIFO order. A queue runs while both its own ``IdleQueue/budget`` and the
/// scheduler's ``budget`` allow, so a high-priority queue with work can take the whole pass.
@MainActor
final class IdleScheduler {
  private struct Member {
    weak var queue: QueueCore?
    let priority: Int
    let serial: Int
  }

  /// The most one pass may spend on all of this scheduler's queues together; `nil` leaves each queue to
  /// its own budget. Invalid budgets stop the program with a message (see ``IdleQueue/Budget``).
  var budget: IdleQueue.Budget? {
    didSet { if let budget { Validation.require(budget.validationFailure) } }
  }

  /// Stored by the initializer, which may run on any thread: a driver is `Sendable` (main-actor isolated).
  let driver: any IdlePassDriver
  /// The driver's waker, made once: what queues' background inboxes call from any thread.
  nonisolated let waker: @Sendable () -> Void
  private var members: [Member] = []
  private var nextSerial = 0
  private var passRequested = false
  private var isStarted = false
  /// Whether ``stop()`` was called: no pass will come any more.
  private(set) var isStopped = false
  /// Set for a queue's private scheduler: it stops its driver when its queue leaves.
  let stopsWhenEmpty: Bool

  /// Creates a scheduler on the main run loop.
  ///
  /// - Parameters:
  ///   - modes: run-loop modes whose BeforeWaiting moments run idle passes; default `[.default]` only, so
  ///     nothing runs while a scroll is tracked.
  ///   - trackingModes: modes that get tracking passes for queues whose ``IdleQueue/Configuration/scrolling``
  ///     is ``IdleQueue/Scrolling/fitToFrames(timeUntilNextFrame:)``; default none.
  ///   - observerOrder: the observer's order; see `IdleQueue.observerOrder`.
  ///   - budget: the total per pass across all queues; `nil` for none.
  convenience init(
    modes: [RunLoop.Mode] = [.default], trackingModes: [RunLoop.Mode] = [],
    observerOrder: Int = IdleQueue.observerOrder, budget: IdleQueue.Budget? = .tasks(1)
  ) {
    self.init(
      driver: RunLoopPassDriver(modes: modes, trackingModes: trackingModes, order: observerOrder), budget: budget)
  }

  /// Creates a scheduler on any pass driver, such as `IdleWorkTesting`'s `ManualPassDriver`.
  convenience init(driver: some IdlePassDriver, budget: IdleQueue.Budget? = .tasks(1)) {
    self.init(driver: driver, budget: budget, stopsWhenEmpty: false)
  }

  /// Callable from any thread (``IdleQueue/init(configuration:)`` is): it only stores its settings; the
  /// driver starts when the first queue attaches, on the main thread.
  nonisolated init(driver: any IdlePassDriver, budget: IdleQueue.Budget?, stopsWhenEmpty: Bool) {
    if let budget { Validation.require(budget.validationFailure) }
    self.driver = driver
    self.waker = driver.makeWaker()
    self.budget = budget
    self.stopsWhenEmpty = stopsWhenEmpty
  }

  /// Stops the driver (removes the run-loop observer) and invalidates every attached queue: their pending
  /// tasks are released (counted as cancelled; awaiting `perform` calls throw
  /// ``IdleWorkError/cancelled``), since no pass would ever run them. A queue created on a stopped
  /// scheduler starts invalidated.
  func stop() {
    guard !isStopped else { return }
    isStopped = true
    driver.stop()
    for member in members { member.queue?.invalidate() }
    members = []
  }

  func attach(_ queue: QueueCore, priority: Int) {
    guard !isStopped else { return }
    members.append(Member(queue: queue, priority: priority, serial: nextSerial))
    nextSerial += 1
    members.sort { ($0.priority, -$0.serial) > ($1.priority, -$1.serial) }
    guard !isStarted else { return }
    isStarted = true
    driver.start { [weak self] kind in self?.runPass(kind) ?? false }
  }

  func detach(_ queue: QueueCore) {
    members.removeAll { $0.queue == nil || $0.queue === queue }
    if stopsWhenEmpty, members.isEmpty { stop() }
  }

  /// Asks the driver for a pass, once until the next pass begins.
  func setNeedsPass() {
    guard !passRequested, isStarted, !isStopped else { return }
    passRequested = true
    driver.requestPass()
  }

  /// One pass: take in background additions, serve the queues within the budgets, and ask for another pass
  /// if idle work remains. A tracking pass never asks for another to drain the queue (frames pace the loop
  /// while a scroll lasts); the run-loop driver still wakes the loop once after any pass that ran tasks,
  /// so that their changes are committed.
  /// Returns whether any task ran.
  func runPass(_ kind: IdlePassKind) -> Bool {
    guard PassGate.enter(self) else { return false }
    defer {
      for refused in PassGate.leave() {
        // The wake that brought the refused pass is spent: ask again now that the outer pass is over.
        refused.passRequested = false
        refused.setNeedsPass()
      }
    }
    passRequested = false
    // Measured only once a queue has prepared tasks (the driver's commit probe).
    if let commit = driver.commitDuration {
      for member in members { member.queue?.learnCommit(commit) }
    }
    // Fast path, every BeforeWaiting at rest: nothing queued anywhere, nothing allocated.
    guard members.contains(where: { $0.queue?.hasPendingWork ?? false }) else {
      for member in members {
        member.queue?.releaseHeldRenders()
        member.queue?.purgeReleasedCells()
        member.queue?.updateFrameClock()
      }
      return false
    }
    if members.contains(where: { $0.queue == nil }) { members.removeAll { $0.queue == nil } }
    let queues = members.compactMap(\.queue)
    let signpost = PassSignposts.beginPass(kind, queues: queues, driver: driver)
    for queue in queues { queue.takeInForPass() }
    var total = budget.map { BudgetMeter($0, start: driver.nanoseconds) }
    var ranTasks = false
    for queue in queues where queue.serve(kind, total: &total) { ranTasks = true }
    PassSignposts.endPass(signpost, queues: queues, driver: driver)
    // Ask again even if a task asked already: a nested run loop inside a task may have spent that wake-up.
    // A queue whose next task waits for the frame deadline asks for a pass after it, not at once (a pass
    // now would find the task still not fitting, and spin the loop until the frame).
    passRequested = false
    for queue in queues {
      queue.releaseHeldRenders()
      queue.purgeReleasedCells()
      queue.updateFrameClock()
    }
    if kind == .idle, !isStopped {
      let waiting = queues.filter { $0.hasPendingWork }
      if waiting.contains(where: { $0.waitsForDeadline == nil }) {
        setNeedsPass()
      } else if let wait = waiting.compactMap(\.waitsForDeadline).min() {
        driver.requestPass(afterNanoseconds: wait)
      }
    }
    return ranTasks
  }
}
