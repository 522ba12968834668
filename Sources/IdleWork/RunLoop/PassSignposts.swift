#if canImport(os)
  import os

  /// Instruments support: each idle pass with work pending is an `OSSignposter` interval, and each task
  /// evicted from a queue an event, on the Points of Interest track (subsystem "IdleWork"). Drops in
  /// `BackgroundInbox` emit none: it only counts them.
  ///
  /// Nothing is built unless Instruments records (`isEnabled`). Before iOS 15 / macOS 12 the functions return
  /// at once; elsewhere (Linux) they are empty, so call sites need no `#if`.
  @MainActor
  enum PassSignposts {
    /// A pass interval in flight, with the counters it started from.
    struct Pass {
      /// The `OSSignpostIntervalState` (typed `Any` because a stored property cannot be limited by availability).
      fileprivate let state: Any
      fileprivate let slicesRun: Int
      fileprivate let skippedAsStale: Int
      fileprivate let start: UInt64
    }

    /// The signposter where the system has one (typed `Any?`: a stored property cannot be limited by availability).
    private static let signposter: Any? = {
      guard #available(iOS 15, macOS 12, tvOS 15, watchOS 8, *) else { return nil }
      return OSSignposter(logHandle: OSLog(subsystem: "IdleWork", category: .pointsOfInterest))
    }()

    /// The signposter if Instruments is recording its log now.
    @available(iOS 15, macOS 12, tvOS 15, watchOS 8, *)
    private static var enabledSignposter: OSSignposter? {
      guard let signposter = signposter as? OSSignposter, signposter.isEnabled else { return nil }
      return signposter
    }

    /// Begins a pass interval if signposts are recorded and the queue has tasks pending.
    static func beginPass(_ kind: IdlePassKind, queue: QueueCore, driver: any IdlePassDriver) -> Pass? {
      guard #available(iOS 15, macOS 12, tvOS 15, watchOS 8, *), let signposter = enabledSignposter else {
        return nil
      }
      let pending = queue.pendingTaskCount
      guard pending > 0 else { return nil }
      let kindName = kind == .idle ? "idle" : "tracking"
      let state = signposter.beginInterval(
        "Idle pass", id: signposter.makeSignpostID(),
        "\(kindName, privacy: .public) pass, \(pending, privacy: .public) tasks pending")
      return Pass(
        state: state, slicesRun: queue.statistics.slicesRun,
        skippedAsStale: queue.statistics.skippedAsStale, start: driver.nanoseconds)
    }

    /// Ends the interval `beginPass` returned, with the tasks run, the stale tasks skipped and the duration.
    static func endPass(_ pass: Pass?, queue: QueueCore, driver: any IdlePassDriver) {
      guard let pass, #available(iOS 15, macOS 12, tvOS 15, watchOS 8, *),
        let signposter = signposter as? OSSignposter, let state = pass.state as? OSSignpostIntervalState
      else { return }
      let ran = queue.statistics.slicesRun - pass.slicesRun
      let stale = queue.statistics.skippedAsStale - pass.skippedAsStale
      let microseconds = Int((driver.nanoseconds &- pass.start) / 1_000)
      signposter.endInterval(
        "Idle pass", state,
        "\(ran, privacy: .public) tasks run, \(stale, privacy: .public) stale, \(microseconds, privacy: .public) µs")
    }

    /// Marks a task evicted from its queue because the queue was over its maximum length.
    static func taskEvicted(pending: Int, maximumQueueLength: Int) {
      guard #available(iOS 15, macOS 12, tvOS 15, watchOS 8, *), let signposter = enabledSignposter else { return }
      signposter.emitEvent(
        "Task evicted", id: signposter.makeSignpostID(),
        "\(pending, privacy: .public) pending, maximum \(maximumQueueLength, privacy: .public)")
    }
  }
#else
  /// Instruments support where `os` exists; here, empty functions, so call sites need no `#if`.
  @MainActor
  enum PassSignposts {
    /// A pass interval in flight; never created here.
    struct Pass {}

    // These do nothing: there are no signposts on this platform.
    @inline(__always)
    static func beginPass(_ kind: IdlePassKind, queue: QueueCore, driver: any IdlePassDriver) -> Pass? { nil }

    @inline(__always)
    static func endPass(_ pass: Pass?, queue: QueueCore, driver: any IdlePassDriver) {}
    @inline(__always)
    static func taskEvicted(pending: Int, maximumQueueLength: Int) {}
  }
#endif
