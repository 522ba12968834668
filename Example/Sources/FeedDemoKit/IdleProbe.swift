import CoreFoundation
import Foundation

/// Measures the cost of rest: run-loop wake-ups (an observer at `kCFRunLoopAfterWaiting` in the common
/// modes) and main-thread CPU time (the thread's CPU clock) while the loop runs in the default mode with nothing to do.
@MainActor
enum IdleProbe {
  /// What a measurement saw.
  struct Reading {
    /// Wake-ups, not counting the one that ends the measurement window (the run's own timeout).
    let wakeups: Int
    /// Main-thread CPU seconds (user + system).
    let cpuSeconds: Double
    /// The window's length in seconds.
    let seconds: Double
  }

  /// Runs the main loop in the default mode for `seconds` and reports what the rest cost.
  static func measure(seconds: Double) -> Reading {
    var wakeTimes: [UInt64] = []
    wakeTimes.reserveCapacity(1024)
    let observer = CFRunLoopObserverCreateWithHandler(nil, CFRunLoopActivity.afterWaiting.rawValue, true, 0) {
      _, _ in wakeTimes.append(Clock.now)
    }
    CFRunLoopAddObserver(CFRunLoopGetMain(), observer, kCFRunLoopCommonModes)
    let cpuStart = threadCPUSeconds()
    let start = Clock.now
    RunLoopModes.run(mode: RunLoopModes.defaultCF, timeout: seconds, until: { false })
    let end = Clock.now
    let cpuEnd = threadCPUSeconds()
    CFRunLoopObserverInvalidate(observer)
    // The window ends with the run's timeout, which wakes the loop once; that wake-up is the probe's own.
    let windowEnd = start + Clock.nanoseconds(seconds) - 1_000_000
    let wakeups = wakeTimes.filter { $0 < windowEnd }.count
    if ProcessInfo.processInfo.environment["FEEDDEMO_DEBUG"] != nil {
      let offsets = wakeTimes.map { fmt(Clock.milliseconds(from: start, to: $0), 1) }
      FileHandle.standardError.write(Data("    idle wake-ups at ms: \(offsets)\n".utf8))
    }
    return Reading(wakeups: wakeups, cpuSeconds: cpuEnd - cpuStart, seconds: Double(end - start) / 1e9)
  }

  /// CPU time of the calling thread, from the thread's own clock: `getrusage` counts in scheduler ticks, too
  /// coarse to tell a 10 Hz timer's wake-ups from none in a window under a second.
  static func threadCPUSeconds() -> Double {
    ProcessProbe.threadCPUMilliseconds() / 1000
  }
}
