import Foundation

/// The threads' priorities as on iOS: the main thread (and the display link's vsync) at the `userInteractive`
/// QoS, above every strategy's `userInitiated` workers; a plain thread — `busy`'s load — at the default QoS.
///
/// On Linux a QoS is a niceness. libdispatch runs `userInitiated` and `userInteractive` work at nice −2, the
/// default at 0 and `utility` at 2 (`getpriority` in a block on each global queue), and Foundation's
/// `Thread.qualityOfService` changes nothing: a thread keeps its creator's. Left so, the main thread ran at nice 0
/// beneath `DispatchWorkItem`'s workers at −2, the reverse of iOS, and a strategy drawing on GCD took the cores
/// from the frames (`heavy` at 120 Hz: the prefetching peers dropped 24–30 frames in d135e73's sweeps, 1–6 in
/// 63d9522's, ranked as on iOS).
enum ThreadPriority {
  case userInteractive
  case standard

  /// The niceness libdispatch gives the class on Linux.
  var niceness: Int32 {
    switch self {
    case .userInteractive: return -4
    case .standard: return 0
    }
  }

  /// Puts the calling thread at this priority; returns whether it could (raising a niceness needs
  /// `CAP_SYS_NICE` on Linux).
  @discardableResult
  func applyToCurrentThread() -> Bool {
    #if os(Linux)
      // `PRIO_PROCESS` with 0 names the calling thread on Linux: a niceness belongs to a thread there.
      return setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness) == 0
    #elseif canImport(Darwin)
      return pthread_set_qos_class_self_np(self == .userInteractive ? QOS_CLASS_USER_INTERACTIVE : QOS_CLASS_DEFAULT, 0)
        == 0
    #else
      return false
    #endif
  }

  /// What the main thread got, for the report. `nonisolated(unsafe)`: written once, on the main thread, before
  /// the benchmark starts any thread, and read on the main thread only.
  nonisolated(unsafe) static var mainThread = "not set"
}
