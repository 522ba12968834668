import Foundation
@_spi(IdleWorkTesting) import IdleWork

/// A pass driver for unit tests: passes run only when the test asks, and time moves only when the test
/// moves it. No run loop, no waiting, exact outcomes. A driver serves one queue, created with
/// `IdleQueue(driver:configuration:)`.
///
/// ```swift
/// let driver = ManualPassDriver()
/// let queue = IdleQueue(driver: driver)
/// queue.addTask(key: 1) { loaded.append(1) }
/// driver.runPass()          // one pass, as when the run loop is about to sleep
/// driver.drain()            // passes until no pass is requested
/// ```
@MainActor
public final class ManualPassDriver {
  /// What the scheduler drives: the pass handler, the clock and the requests (kept apart so that the
  /// driver protocol stays out of the public API).
  let core = Core()

  /// The clock, in seconds since the driver was created; it moves only when you call ``advance(by:)``
  /// (from inside a task, to make the task take time).
  public var now: TimeInterval { Double(core.nanoseconds) / 1e9 }

  /// The clock in nanoseconds, the unit the scheduler reads.
  var nanoseconds: UInt64 { core.nanoseconds }

  /// Whether a pass is due: the queue asked for one since the last pass (runnable tasks remain), another
  /// thread added a task, or the frame deadline a queue waits for has passed on this clock. With the real
  /// driver each request wakes the run loop, so `false` means the queue would let it sleep.
  public var isPassRequested: Bool {
    core.requested || core.wakeups.value > 0 || core.delayedRequest.map { $0 <= core.nanoseconds } ?? false
  }

  /// How many times queues asked for a pass (each is a run-loop wake-up with the real driver).
  var passRequests: Int { core.passRequests }

  /// How many passes this driver has run.
  private(set) var passesRun = 0

  /// Whether the scheduler stopped the driver: its only queue was invalidated. (A queue that is simply
  /// released stops nothing: later passes find no queue and do nothing.)
  var isStopped: Bool { core.isStopped }

  /// Whether the last pass ran at least one task.
  private(set) var lastPassRanTasks = false

  /// Creates a driver whose clock starts at 0.
  public init() {}

  /// Moves the clock forward by `seconds` (finite, `>= 0`; anything else stops the test with a message).
  /// The clock stops at 2⁶³ nanoseconds (292 years): a larger advance takes it there.
  public func advance(by seconds: TimeInterval) {
    if !(seconds.isFinite && seconds >= 0) {
      fatalError("IdleWorkTesting: advance(by: \(seconds)) is invalid: it must be finite and >= 0")
    }
    let limit = UInt64(Int64.max)
    let step = (seconds * 1e9).rounded()
    core.nanoseconds =
      step >= Double(limit - core.nanoseconds) ? limit : min(limit, core.nanoseconds + UInt64(step))
  }

  /// Runs one idle pass now, as the run loop does before sleeping in the default mode. Returns `false`,
  /// running nothing, if no queue was ever created on the driver or it was stopped; otherwise `true`,
  /// whether or not the pass found work.
  @discardableResult
  public func runPass() -> Bool { run(.idle) }

  /// Runs one tracking pass now, as the run loop does before sleeping while a scroll is tracked: only a
  /// queue whose `scrolling` is `.fitToFrames` runs tasks in it, as its frame clock admits. Returns as
  /// ``runPass()``.
  @discardableResult
  public func runTrackingPass() -> Bool { run(.tracking) }

  /// Runs up to `maximum` waiting preparations of prepared tasks (`addTask(…prepare:apply:)`) here, on the
  /// calling thread, in the order the queue's workers would take them — no worker thread exists on this
  /// driver — and returns how many ran. Their results arrive as a worker's do: ``isPassRequested`` turns
  /// `true`, and the next pass applies them. A preparation whose cell is off screen waits, as with workers;
  /// so do prefetches whose results have no room in the cache beside those rows about to appear still want (until
  /// rows are shown), and, before the cache has seen a result, once as many as its preparer's `workers` wait for a
  /// pass; at most four per worker wait (run ``runPass()``, then this again).
  ///
  /// ```swift
  /// let thumbnail = Preparation { (url: URL, _) in try decode(url) }
  /// Preparer(queue: queue).addTask(for: cell, at: 0, prepare: thumbnail, from: url) { cell, image in cell.image = image }
  /// driver.runPreparations()   // the preparation, here and now
  /// driver.runPass()           // the apply
  /// ```
  @discardableResult
  public func runPreparations(maximum: Int = .max) -> Int {
    if maximum < 0 { fatalError("IdleWorkTesting: runPreparations(maximum: \(maximum)) is invalid: it must be >= 0") }
    return core.preparer?(maximum) ?? 0
  }

  /// Makes the next pass see a Core Animation commit of `seconds` before it (the commit that copies the
  /// bitmaps the previous pass applied), as the run loop's driver measures it: a queue with prepared tasks
  /// learns from it what an apply costs the frame after it.
  public func commit(taking seconds: TimeInterval) {
    if !(seconds.isFinite && seconds >= 0) {
      fatalError("IdleWorkTesting: commit(taking: \(seconds)) is invalid: it must be finite and >= 0")
    }
    core.commitDuration = UInt64((seconds * 1e9).rounded())
  }

  /// Runs idle passes while a pass is requested, at most `maximumPasses`; returns how many ran.
  /// A queue that keeps asking forever is a bug the limit turns into a finite, visible count.
  @discardableResult
  public func drain(maximumPasses: Int = 1_000_000) -> Int {
    var count = 0
    while isPassRequested, count < maximumPasses, runPass() { count += 1 }
    return count
  }

  /// Sends the queue on this driver a memory warning, as UIKit's `didReceiveMemoryWarningNotification` does on a
  /// device, on every platform: at once, it drops its pending droppable tasks and prefetches and the results it
  /// keeps.
  public func sendMemoryWarning() {
    core.memoryWarning?()
  }

  private func run(_ kind: IdlePassKind) -> Bool {
    guard let pass = core.pass, !core.isStopped else { return false }
    core.requested = false
    core.wakeups.reset()
    if let delayed = core.delayedRequest, delayed <= core.nanoseconds { core.delayedRequest = nil }
    passesRun += 1
    defer { core.commitDuration = nil }
    lastPassRanTasks = pass(kind)
    return true
  }

  /// The driver the scheduler sees.
  final class Core: IdlePassDriver {
    var pass: (@MainActor (IdlePassKind) -> Bool)?
    let wakeups = WakeCounter()
    var nanoseconds: UInt64 = 0
    var requested = false
    var passRequests = 0
    var isStopped = false
    /// When a pass is due because a queue waits for a frame deadline (`requestPass(afterNanoseconds:)`).
    var delayedRequest: UInt64?
    /// Runs the queue's waiting preparations (given by the queue with its first prepared task).
    var preparer: (@MainActor (Int) -> Int)?

    /// Preparations run only through ``ManualPassDriver/runPreparations(maximum:)``.
    var preparesByHand: Bool { true }

    /// Called by the queue with its first prepared task.
    func adoptPreparations(_ run: @escaping @MainActor (_ maximum: Int) -> Int) {
      preparer = run
    }

    /// The commit duration the next pass sees (set by tests through ``ManualPassDriver/commit(taking:)``).
    var commitDuration: UInt64?

    /// What ``ManualPassDriver/sendMemoryWarning()`` calls: the queue drops what it can make again.
    var memoryWarning: (@MainActor () -> Void)?

    func adoptMemoryWarnings(_ drop: @escaping @MainActor () -> Void) {
      memoryWarning = drop
    }

    /// Called by the scheduler; keeps the pass handler. A driver serves one queue.
    func start(_ pass: @escaping @MainActor (IdlePassKind) -> Bool) {
      // `fatalError`, not `precondition`: the message must show in optimised test builds too.
      if self.pass != nil || isStopped {
        fatalError("IdleWorkTesting: a ManualPassDriver serves one queue; create one per queue")
      }
      self.pass = pass
    }

    /// Called by the scheduler when runnable tasks remain; recorded in `isPassRequested`.
    func requestPass() {
      requested = true
      passRequests += 1
    }

    /// Called by the scheduler when a queue waits for a frame deadline: a pass is due (`isPassRequested`)
    /// once the clock has been advanced by `nanoseconds`.
    func requestPass(afterNanoseconds nanoseconds: UInt64) {
      let due = self.nanoseconds &+ nanoseconds
      delayedRequest = min(delayedRequest ?? due, due)
    }

    /// Called by the scheduler when it stops; later passes do nothing.
    func stop() {
      isStopped = true
      pass = nil
    }

    /// A thread-safe waker that marks a pass as requested.
    nonisolated func makeWaker() -> @Sendable () -> Void {
      let wakeups = self.wakeups
      return { wakeups.increment() }
    }
  }
}

extension IdleQueue {
  /// Creates a queue whose passes `driver` runs by hand: the queue a unit test uses in place of
  /// ``IdleQueue/main`` or `IdleQueue(configuration:)`. `configuration`'s modes and the scroll-tracking mode
  /// are not observed (the driver decides which kind of pass runs); everything else applies. A driver
  /// serves one queue: creating a second queue on it stops the test with a message.
  public convenience init(driver: ManualPassDriver, configuration: Configuration = Configuration()) {
    self.init(passDriver: driver.core, configuration: configuration)
  }
}

/// Counts wake-ups from any thread.
final class WakeCounter: @unchecked Sendable {
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
