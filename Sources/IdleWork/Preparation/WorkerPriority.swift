import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// How a worker thread runs a prefetch beneath visible rows' renders: it lowers itself to `utility` for the
/// prefetch and raises itself back when it ends, or at its next `isCancelled()` poll once a visible row's task
/// joins it. A prefetch is speculative, so it takes only the cores that visible work leaves.
///
/// Both closures act on the calling thread. A pool made with others (tests) can make raising fail.
struct WorkerPriority: Sendable {
  /// Lowers the calling thread for a prefetch; returns where it was, to raise it back to, or `nil` when it did not
  /// lower it (already as low, or the platform refused).
  let lower: @Sendable () -> Int32?
  /// Raises the calling thread back to a level ``lower`` returned; returns whether the platform allowed it (if not,
  /// the pool ends that worker and lowers none again).
  let raise: @Sendable (Int32) -> Bool

  /// The platform's: `pthread_set_qos_class_self_np` on Apple's platforms, the thread's niceness on Linux.
  static let platform = WorkerPriority(lower: lowerToUtility, raise: raiseBack)

  /// A thread's level for its prefetches: the `utility` QoS class, or libdispatch's niceness for it on Linux.
  #if canImport(Darwin)
    static let prefetchLevel = Int32(bitPattern: QOS_CLASS_UTILITY.rawValue)
  #else
    static let prefetchLevel: Int32 = 2
  #endif

  /// The calling thread's level now: its QoS class's raw value on Apple's platforms (higher ranks first), its
  /// niceness on Linux (lower ranks first).
  static func currentLevel() -> Int32 {
    #if canImport(Darwin)
      return Int32(bitPattern: qos_class_self().rawValue)
    #elseif canImport(Glibc)
      return getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
    #else
      return 0
    #endif
  }

  private static func lowerToUtility() -> Int32? {
    let saved = currentLevel()
    #if canImport(Darwin)
      guard saved > prefetchLevel else { return nil }
      return pthread_set_qos_class_self_np(QOS_CLASS_UTILITY, 0) == 0 ? saved : nil
    #elseif canImport(Glibc)
      // On Linux this sets the calling thread's niceness. Raising needs `CAP_SYS_NICE` or room under `RLIMIT_NICE`,
      // so a thread is lowered only if a raise one step above where it is succeeds: it can then come back.
      let which = __priority_which_t(PRIO_PROCESS.rawValue)
      guard saved < prefetchLevel, setpriority(which, 0, saved - 1) == 0 else { return nil }
      guard setpriority(which, 0, prefetchLevel) == 0 else {
        _ = setpriority(which, 0, saved)  // back from the step above
        return nil
      }
      return saved
    #else
      return nil
    #endif
  }

  private static func raiseBack(to saved: Int32) -> Bool {
    #if canImport(Darwin)
      return pthread_set_qos_class_self_np(qos_class_t(rawValue: UInt32(bitPattern: saved)), 0) == 0
    #elseif canImport(Glibc)
      return setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, saved) == 0
    #else
      return false
    #endif
  }
}

/// One prefetch's lowered worker, while it runs: lowered when it starts, raised back once.
///
/// `@unchecked Sendable`: `saved` and `raiseFailed` are read and written only on the worker thread that runs the
/// render — the pool calls ``lower()`` there, and ``raise()`` does nothing on another thread (an `isCancelled()`
/// polled from a thread of the app's own is not the worker) — and read by the pool on that thread after the render
/// ended.
final class PrefetchLowering: @unchecked Sendable {
  private let priority: WorkerPriority
  /// The worker thread (its `pthread_t`'s bits).
  private let thread = PrefetchLowering.currentThread
  /// Where the thread was before it was lowered; `nil` when it is not lowered.
  private var saved: Int32?
  private(set) var raiseFailed = false

  /// Made on the worker thread that will run the render.
  init(_ priority: WorkerPriority) {
    self.priority = priority
  }

  /// Called by the pool on the worker thread, before the render runs.
  func lower() {
    saved = priority.lower()
  }

  /// Raises the worker back, if it is lowered; does nothing on another thread.
  func raise() {
    guard Self.currentThread == thread, let level = saved else { return }
    saved = nil
    if !priority.raise(level) { raiseFailed = true }
  }

  /// The calling thread's `pthread_t`, as bits (an integer or a pointer by platform).
  private static var currentThread: UInt {
    withUnsafeBytes(of: pthread_self()) { $0.load(as: UInt.self) }
  }
}
