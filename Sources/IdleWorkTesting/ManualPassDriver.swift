import Foundation
import IdleWork

/// A pass driver for unit tests: passes run only when the test asks, and time moves only when the test
/// moves it. No run loop, no waiting, exact outcomes.
///
/// ```swift
/// let driver = ManualPassDriver()
/// let queue = IdleQueue(driver: driver)
/// queue.addTask(key: 1) { loaded.append(1) }
/// driver.runPass()          // one pass, as when the run loop is about to sleep
/// driver.drain()            // passes until no queue asks for another
/// ```
@MainActor
public final class ManualPassDriver: IdlePassDriver {
  private var pass: (@MainActor (IdlePassKind) -> Bool)?
  private let wakeups = WakeCounter()

  /// The clock, in nanoseconds; it moves only when you set it or call ``advance(byMilliseconds:)``.
  public var now: UInt64

  /// Whether a queue asked for another pass since the last one (tasks are pending), or another thread
  /// added a task.
  public var isPassRequested: Bool { requested || wakeups.value > 0 }

  /// How many times queues asked for a pass (each is a run-loop wake-up with the real driver).
  public private(set) var passRequests = 0

  /// How many passes this driver has run.
  public private(set) var passesRun = 0

  /// Whether the scheduler stopped the driver: its only queue was invalidated, or its shared scheduler
  /// was stopped. (A queue that is simply released stops nothing: later passes find no queue and do nothing.)
  public private(set) var isStopped = false

  private var requested = false

  /// Creates a driver whose clock starts at `startTime` nanoseconds.
  public init(startTime: UInt64 = 0) {
    self.now = startTime
  }

  /// Moves the clock forward; call it from inside tasks to make them take time.
  public func advance(byMilliseconds milliseconds: Double) {
    now += UInt64((milliseconds * 1_000_000).rounded())
  }

  /// Whether the last pass ran at least one task.
  public private(set) var lastPassRanTasks = false

  /// Runs one pass now, as the run loop would before sleeping (or, with `.tracking`, while a scroll is
  /// tracked). Returns `false`, running nothing, if no queue was ever created on the driver or it was
  /// stopped; otherwise `true`, whether or not the pass found work (see ``lastPassRanTasks``).
  @discardableResult
  public func runPass(_ kind: IdlePassKind = .idle) -> Bool {
    guard let pass, !isStopped else { return false }
    requested = false
    wakeups.reset()
    passesRun += 1
    lastPassRanTasks = pass(kind)
    return true
  }

  /// Runs idle passes while a pass is requested, at most `maximumPasses`; returns how many ran.
  /// A queue that keeps asking forever is a bug the limit turns into a finite, visible count.
  @discardableResult
  public func drain(maximumPasses: Int = 1_000_000) -> Int {
    var count = 0
    while isPassRequested, count < maximumPasses, runPass() { count += 1 }
    return count
  }

  // MARK: IdlePassDriver

  /// Called by the scheduler; keeps the pass handler for ``runPass(_:)``. A driver serves one scheduler:
  /// to step several queues with one driver, create them on one `IdleScheduler(driver:)`.
  public func start(_ pass: @escaping @MainActor (IdlePassKind) -> Bool) {
    precondition(
      self.pass == nil && !isStopped,
      "IdleWorkTesting: a ManualPassDriver serves one scheduler; share it through IdleScheduler(driver:)")
    self.pass = pass
  }

  /// Called by the scheduler when tasks are pending; recorded in ``isPassRequested``.
  public func requestPass() {
    requested = true
    passRequests += 1
  }

  /// Called by the scheduler when it stops; later passes do nothing.
  public func stop() {
    isStopped = true
    pass = nil
  }

  /// A thread-safe waker that marks a pass as requested.
  public nonisolated func makeWaker() -> @Sendable () -> Void {
    let wakeups = self.wakeups
    return { wakeups.increment() }
  }
}

/// Counts wake-ups from any thread.
private final class WakeCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  var value: Int {
    lock.lock()
    defer { lock.unlock() }
    return count
  }

  func increment() {
    lock.lock()
    count += 1
    lock.unlock()
  }

  func reset() {
    lock.lock()
    count = 0
    lock.unlock()
  }
}
