import Dispatch

/// The one clock of the benchmark: monotonic nanoseconds, the same source IdleWork's run-loop driver
/// reads (`DispatchTime.now().uptimeNanoseconds`), so waiting times and frame deadlines agree.
enum Clock {
  /// Monotonic time in nanoseconds.
  static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

  /// Milliseconds between two clock readings (0 if `end` is before `start`).
  static func milliseconds(from start: UInt64, to end: UInt64) -> Double {
    end > start ? Double(end - start) / 1e6 : 0
  }

  /// Nanoseconds in `seconds`.
  static func nanoseconds(_ seconds: Double) -> UInt64 { UInt64(max(0, seconds) * 1e9) }
}
