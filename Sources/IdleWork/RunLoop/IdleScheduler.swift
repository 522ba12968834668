import Foundation

/// Connects one queue to its pass driver (the run-loop observer, or a test's manual driver): starts the driver
/// when the queue starts serving, runs the queue's passes, asks for the next one, and stops the driver when the
/// queue ends.
@MainActor
package final class IdleScheduler {
  /// Stored by the initializer, which may run on any thread: a driver is `Sendable` (main-actor isolated).
  package let driver: any IdlePassDriver
  /// The driver's waker, made once: what the queue's background inbox and worker arrivals call from any thread.
  package nonisolated let waker: @Sendable () -> Void
  private weak var queue: QueueCore?
  private var passRequested = false
  private var isStarted = false
  /// Whether ``stop()`` was called: no pass will come any more.
  private(set) var isStopped = false

  nonisolated init(driver: any IdlePassDriver) {
    self.driver = driver
    self.waker = driver.makeWaker()
  }

  /// Stops the driver and ends the queue.
  func stop() {
    guard !isStopped else { return }
    isStopped = true
    driver.stop()
    queue?.invalidate()
    queue = nil
  }

  /// The queue starts serving: the driver starts.
  func attach(_ queue: QueueCore) {
    guard !isStopped, !isStarted else { return }
    self.queue = queue
    isStarted = true
    driver.start { [weak self] kind in self?.runPass(kind) ?? false }
  }

  /// The queue ended: the driver stops.
  func detach(_ queue: QueueCore) {
    guard self.queue === queue || self.queue == nil else { return }
    stop()
  }

  /// Work is pending: a pass should come soon even if nothing else wakes the thread.
  package func setNeedsPass() {
    guard !passRequested, isStarted, !isStopped else { return }
    passRequested = true
    driver.requestPass()
  }

  /// One pass: the queue takes in what arrived, serves its tasks, and asks for the next pass.
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
    guard let queue else { return false }
    // Measured only once the queue has prepared tasks (the driver's commit probe).
    if let commit = driver.commitDuration { queue.learnCommit(commit) }
    // Fast path, every BeforeWaiting at rest: nothing queued, nothing allocated.
    guard queue.hasPendingWork else {
      queue.client?.passEnded()
      queue.purgeReleasedCells()
      queue.updateFrameClock()
      return false
    }
    let signpost = PassSignposts.beginPass(kind, queue: queue, driver: driver)
    queue.isInPass = true
    queue.takeInForPass()
    let ranTasks = queue.serve(kind)
    queue.isInPass = false
    PassSignposts.endPass(signpost, queue: queue, driver: driver)
    // Ask again even if a task asked already: a nested run loop inside a task may have spent that wake-up. A
    // queue whose next task waits for the frame deadline asks for a pass after it, not at once (a pass now would
    // find the task still not fitting, and spin the loop until the frame).
    passRequested = false
    queue.client?.passEnded()
    queue.purgeReleasedCells()
    queue.updateFrameClock()
    if kind == .idle, !isStopped, queue.hasPendingWork {
      if let wait = queue.waitsForDeadline {
        driver.requestPass(afterNanoseconds: wait)
      } else {
        setNeedsPass()
      }
    }
    return ranTasks
  }
}
