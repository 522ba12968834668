#if canImport(os)
  import os

  /// Instruments support: each idle pass is an `OSSignposter` interval, and each task evicted from a queue
  /// an event, on the Points of Interest track (subsystem "IdleWork"), so a developer sees when IdleWork
  /// holds the main thread. Tasks added from other threads that the bounded hand-over (`BackgroundInbox`)
  /// drops before they reach the queue emit no event: the inbox, used from any thread, keeps only a count
  /// of them, which the queue adds to its statistics as evicted when it takes the hand-over in.
  ///
  /// - **No cost when nobody records:** every function first checks `isEnabled`; messages and counters are
  ///   built only while Instruments records the log.
  /// - **Only passes with work:** the observer fires each time the run loop is about to sleep, so a pass
  ///   with nothing pending emits nothing.
  /// - **Slices:** a pass's "tasks run" counts each slice of a resumable task.
  /// - **Availability:** `OSSignposter` needs iOS 15, macOS 12, tvOS 15 or watchOS 8; on older systems the
  ///   functions return at once. Elsewhere (Linux) they are empty, so call sites need no `#if`.
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

    /// The signposter where the system has one; `nil` before iOS 15, macOS 12, tvOS 15 and watchOS 8.
    /// Typed `Any?` because a stored property cannot be limited by availability.
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

    /// Begins a pass interval if signposts are recorded and some queue has tasks pending.
    static func beginPass(_ kind: IdlePassKind, queues: [QueueCore], driver: any IdlePassDriver) -> Pass? {
      guard #available(iOS 15, macOS 12, tvOS 15, watchOS 8, *), let signposter = enabledSignposter else {
        return nil
      }
      let pending = queues.reduce(0) { $0 + $1.pendingTaskCount }
      guard pending > 0 else { return nil }
      let kindName = kind == .idle ? "idle" : "tracking"
      let state = signposter.beginInterval(
        "Idle pass", id: signposter.makeSignpostID(),
        "\(kindName, privacy: .public) pass, \(pending, privacy: .public) tasks pending")
      return Pass(
        state: state, slicesRun: queues.reduce(0) { $0 + $1.statistics.slicesRun },
        skippedAsStale: queues.reduce(0) { $0 + $1.statistics.skippedAsStale }, start: driver.nanoseconds)
    }

    /// Ends the interval `beginPass` returned, with the tasks run, the stale tasks skipped and the duration.
    static func endPass(_ pass: Pass?, queues: [QueueCore], driver: any IdlePassDriver) {
      guard let pass, #available(iOS 15, macOS 12, tvOS 15, watchOS 8, *),
        let signposter = signposter as? OSSignposter, let state = pass.state as? OSSignpostIntervalState
      else { return }
      let ran = queues.reduce(0) { $0 + $1.statistics.slicesRun } - pass.slicesRun
      let stale = queues.reduce(0) { $0 + $1.statistics.skippedAsStale } - pass.skippedAsStale
      let microseconds = Int((driver.nanoseconds &- pass.start) / 1_000)
      signposter.endInterval(
        "Idle pass", state,
        "\(ran, privacy: .public) tasks run, \(stale, privacy: .public) stale, \(microseconds, privacy: .public) µs")
    }

    /// Marks a task evicted from its queue because the queue was over its maximum length (not called for
    /// hand-overs that the background inbox drops).
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

    /// Does nothing: there are no signposts on this platform.
    @inline(__always)
    static func beginPass(_ kind: IdlePassKind, queues: [QueueCore], driver: any IdlePassDriver) -> Pass? { nil }

    /// Does nothing: there are no signposts on this platform.
    @inline(__always)
    static func endPass(_ pass: Pass?, queues: [QueueCore], driver: any IdlePassDriver) {}

    /// Does nothing: there are no signposts on this platform.
    @inline(__always)
    static func taskEvicted(pending: Int, maximumQueueLength: Int) {}
  }
#endif
