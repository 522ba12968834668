/// The kind of pass a driver asks for.
@_spi(IdleWorkTesting) public enum IdlePassKind: Sendable, Hashable {
  /// The thread is about to sleep in one of the scheduler's idle modes: run tasks within the budget.
  case idle
  /// The thread is about to sleep in a tracking mode (a scroll is in progress): only a queue whose
  /// `IdleQueue.Configuration.scrolling` is `.fitToFrames` runs tasks, those its frame clock admits. The
  /// scheduler asks for no further pass after one.
  case tracking
}

/// What calls an ``IdleScheduler``'s passes and tells it the time.
///
/// IdleWork ships one driver for real apps, a `CFRunLoopObserver` at `kCFRunLoopBeforeWaiting` on the main
/// run loop (used by ``IdleQueue/main``, ``IdleQueue/init(configuration:)`` and `IdleScheduler`'s own
/// initializer). The `IdleWorkTesting` product ships
/// `ManualPassDriver`, with which a unit test steps passes by hand and sets the clock. Both keep the policy
/// itself unaware of run loops and clocks, so it can be tested exactly.
///
/// A driver is a main-actor class, and so `Sendable`: a scheduler made on any thread stores it.
@MainActor
@_spi(IdleWorkTesting) public protocol IdlePassDriver: AnyObject, Sendable {
  /// Starts calling `pass` each time the thread is about to idle. Called once, by the scheduler.
  /// `pass` returns whether it ran any task (the run-loop driver then makes sure their changes are
  /// committed promptly).
  func start(_ pass: @escaping @MainActor (IdlePassKind) -> Bool)

  /// Tasks are pending: make sure another pass comes soon even if nothing else would wake the thread.
  /// A scheduler calls this at most once between two passes.
  func requestPass()

  /// A pass ended because its next task did not fit before the frame deadline: make sure a pass comes
  /// once `nanoseconds` have passed (the deadline), even if nothing else wakes the thread, but not before
  /// — a pass now would find the same task still not fitting. An earlier delayed request stands.
  func requestPass(afterNanoseconds nanoseconds: UInt64)

  /// Stops calling the pass handler for good and releases what the driver holds (the observer).
  func stop()

  /// Monotonic time in nanoseconds, read for budgets, waiting times and statistics.
  var nanoseconds: UInt64 { get }

  /// A closure that any thread may call to request a pass (used by background additions).
  nonisolated func makeWaker() -> @Sendable () -> Void

  /// Whether prepared tasks' `prepare` runs only when the test asks (no worker threads): `ManualPassDriver`.
  var preparesByHand: Bool { get }

  /// Given, when ``preparesByHand``, the function that runs up to `maximum` waiting preparations on the
  /// calling thread and returns how many ran.
  func adoptPreparations(_ run: @escaping @MainActor (_ maximum: Int) -> Int)

  /// Starts measuring the commit that precedes each pass (Core Animation's, at the same BeforeWaiting):
  /// a queue with prepared tasks learns from it what applying a result costs the next frame.
  func measureCommits()

  /// How long the commit before the running pass took, in nanoseconds; `nil` when not measured in this
  /// turn of the loop.
  var commitDuration: UInt64? { get }
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
}
