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
/// driver.drain()            // passes until no pass is requested
/// ```
@MainActor
public final class ManualPassDriver: IdlePassDriver {
  private var pass: (@MainActor (IdlePassKind) -> Bool)?
  private let wakeups = WakeCounter()
  /// The clock in nanoseconds, the unit the scheduler reads.
  package private(set) var nanoseconds: UInt64 = 0

  /// The clock, in seconds since the driver was created; it moves only when you call ``advance(by:)``
  /// (from inside a task, to make the task take time).
  public var now: TimeInterval { Double(nanoseconds) / 1e9 }

  /// Whether a pass is due: a queue asked for one since the last pass (tasks are pending), or another
  /// thread added a task.
  public var isPassRequested: Bool {
    requested || wakeups.value > 0 || delayedRequest.map { $0 <= nanoseconds } ?? false
  }

  /// How many times queues asked for a pass (each is a run-loop wake-up with the real driver).
  private(set) var passRequests = 0

  /// How many passes this driver has run.
  private(set) var passesRun = 0

  /// Whether the scheduler stopped the driver: its only queue was invalidated. (A queue that is simply
  /// released stops nothing: later passes find no queue and do nothing.)
  private(set) var isStopped = false

  /// Whether the last pass ran at least one task.
  private(set) var lastPassRanTasks = false

  private var requested = false
  /// When a pass is due because a queue waits for a frame deadline (``requestPass(afterNanoseconds:)``).
  private var delayedRequest: UInt64?

  /// Creates a driver whose clock starts at 0.
  public init() {}

  /// Moves the clock forward by `seconds` (finite, `>= 0`; anything else stops the test with a message).
  public func advance(by seconds: TimeInterval) {
    if !(seconds.isFinite && seconds >= 0) {
      fatalError("IdleWorkTesting: advance(by: \(seconds)) is invalid: it must be finite and >= 0")
    }
    nanoseconds += UInt64((seconds * 1e9).rounded())
  }

  /// Runs one idle pass now, as the run loop does before sleeping in the default mode. Returns `false`,
  /// running nothing, if no queue was ever created on the driver or it was stopped; otherwise `true`,
  /// whether or not the pass found work.
  @discardableResult
  public func runPass() -> Bool { run(.idle) }

  /// Runs one tracking pass now, as the run loop does before sleeping while a scroll is tracked: only a
  /// queue with `scrollingSlack` runs tasks in it. Returns as ``runPass()``.
  @discardableResult
  public func runTrackingPass() -> Bool { run(.tracking) }

  /// Runs idle passes while a pass is requested, at most `maximumPasses`; returns how many ran.
  /// A queue that keeps asking forever is a bug the limit turns into a finite, visible count.
  @discardableResult
  public func drain(maximumPasses: Int = 1_000_000) -> Int {
    var count = 0
    while isPassRequested, count < maximumPasses, runPass() { count += 1 }
    return count
  }

  private func run(_ kind: IdlePassKind) -> Bool {
    guard let pass, !isStopped else { return false }
    requested = false
    wakeups.reset()
    if let delayed = delayedRequest, delayed <= nanoseconds { delayedRequest = nil }
    passesRun += 1
    lastPassRanTasks = pass(kind)
    return true
  }

  // MARK: IdlePassDriver

  /// Called by the scheduler; keeps the pass handler. A driver serves one scheduler.
  package func start(_ pass: @escaping @MainActor (IdlePassKind) -> Bool) {
    precondition(
      self.pass == nil && !isStopped,
      "IdleWorkTesting: a ManualPassDriver serves one queue; create one driver per queue")
    self.pass = pass
  }

  /// Called by the scheduler when tasks are pending; recorded in ``isPassRequested``.
  package func requestPass() {
    requested = true
    passRequests += 1
  }

  /// Called by the scheduler when a queue waits for a frame deadline: a pass is due (``isPassRequested``)
  /// once the clock has been advanced by `nanoseconds`.
  package func requestPass(afterNanoseconds nanoseconds: UInt64) {
    let due = self.nanoseconds &+ nanoseconds
    delayedRequest = min(delayedRequest ?? due, due)
  }

  /// Called by the scheduler when it stops; later passes do nothing.
  package func stop() {
    isStopped = true
    pass = nil
  }

  /// A thread-safe waker that marks a pass as requested.
  package nonisolated func makeWaker() -> @Sendable () -> Void {
    let wakeups = self.wakeups
    return { wakeups.increment() }
  }
}

extension IdleQueue {
  /// Creates a queue whose passes `driver` runs by hand: the queue a unit test uses in place of
  /// ``IdleQueue/main`` or `IdleQueue(configuration:)`. `configuration`'s modes and scrolling-slack modes
  /// are not observed (the driver decides which kind of pass runs); everything else applies.
  public convenience init(driver: ManualPassDriver, configuration: Configuration = Configuration()) {
    self.init(passDriver: driver, configuration: configuration)
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
