/// The kind of pass a driver asks for.
@_spi(IdleWorkTesting) public enum IdlePassKind: Sendable, Hashable {
  /// The thread is about to sleep in one of the scheduler's idle modes: run tasks within the budget.
  case idle
  /// The thread is about to sleep in a tracking mode (a scroll): only `.fitToFrames` queues run tasks, as
  /// their frame clock admits. The scheduler asks for no further pass after one.
  case tracking
}

/// What calls an ``IdleScheduler``'s passes and tells it the time.
///
/// Real apps use a `CFRunLoopObserver` at `kCFRunLoopBeforeWaiting` on the main run loop; tests use
/// `IdleWorkTesting`'s `ManualPassDriver`, which steps passes and sets the clock. The policy stays unaware of
/// run loops and clocks, so it is tested exactly. A driver is a main-actor class, and so `Sendable`.
@MainActor
@_spi(IdleWorkTesting) public protocol IdlePassDriver: AnyObject, Sendable {
  /// Starts calling `pass` each time the thread is about to idle; called once. `pass` returns whether it ran
  /// any task, so the driver can have their changes committed promptly.
  func start(_ pass: @escaping @MainActor (IdlePassKind) -> Bool)

  /// Tasks are pending: make sure another pass comes soon even if nothing else would wake the thread.
  /// A scheduler calls this at most once between two passes.
  func requestPass()

  /// A pass ended because its next task did not fit before the frame deadline: make sure a pass comes once
  /// `nanoseconds` have passed, not before (it would not fit yet). An earlier delayed request stands.
  func requestPass(afterNanoseconds nanoseconds: UInt64)

  /// Stops calling the pass handler for good and releases what the driver holds (the observer).
  func stop()

  /// Monotonic time in nanoseconds, read for budgets, waiting times and statistics.
  var nanoseconds: UInt64 { get }

  /// A closure that any thread may call to request a pass (used by background additions).
  nonisolated func makeWaker() -> @Sendable () -> Void

  /// Whether prepared tasks' `prepare` runs only when the test asks (no worker threads): `ManualPassDriver`.
  var preparesByHand: Bool { get }

  /// When ``preparesByHand``: the function that runs up to `maximum` waiting preparations here; returns how many.
  func adoptPreparations(_ run: @escaping @MainActor (_ maximum: Int) -> Int)

  /// Starts measuring the Core Animation commit before each pass, from which a queue learns what applying a
  /// result costs the next frame.
  func measureCommits()

  /// How long the commit before the running pass took, in nanoseconds; `nil` when not measured this turn.
  var commitDuration: UInt64? { get }

  /// Takes the function that drops what the queue can make again, for a driver that sends memory warnings of its
  /// own (`ManualPassDriver`); UIKit's reach every queue without it.
  func adoptMemoryWarnings(_ drop: @escaping @MainActor () -> Void)
}

extension IdlePassDriver {
  /// Worker threads prepare: the run loop's driver.
  public var preparesByHand: Bool { false }

  /// Nothing to adopt: worker threads prepare.
  public func adoptPreparations(_ run: @escaping @MainActor (_ maximum: Int) -> Int) {}

  /// Nothing to measure.
  public func measureCommits() {}

  /// Not measured.
  public var commitDuration: UInt64? { nil }

  /// Nothing to adopt: UIKit's memory warnings reach the queue.
  public func adoptMemoryWarnings(_ drop: @escaping @MainActor () -> Void) {}
}
