import CoreFoundation
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The timing thread behind the simulated display link: at each vsync of a fixed grid it signals the
/// display link's run-loop source and wakes the main loop — what the display's vsync interrupt does to
/// `CADisplayLink`'s mach port on iOS. While the link is paused the thread blocks on a condition, so a
/// paused link costs the main loop no wake-ups.
final class VsyncThread: @unchecked Sendable {
  // @unchecked Sendable: `running` and `stopped` are guarded by `condition`; the CF objects are only
  // used through CFRunLoopSourceSignal and CFRunLoopWakeUp, which CoreFoundation documents as thread-safe.
  private let condition = NSCondition()
  private var running = false
  private var stopped = false
  private let source: CFRunLoopSource
  private let loop: CFRunLoop
  private let origin: UInt64
  private let period: UInt64

  /// Creates the thread (blocked until ``resume()``) for vsyncs at `origin + k · period`.
  init(source: CFRunLoopSource, loop: CFRunLoop, origin: UInt64, period: UInt64) {
    self.source = source
    self.loop = loop
    self.origin = origin
    self.period = period
    let thread = Thread { [self] in
      ThreadPriority.userInteractive.applyToCurrentThread()
      self.main()
    }
    thread.name = "FeedDemo.vsync"
    thread.qualityOfService = .userInteractive
    thread.start()
  }

  /// Starts signalling at every vsync from the next one on.
  func resume() {
    condition.lock()
    running = true
    condition.signal()
    condition.unlock()
  }

  /// Stops signalling until the next ``resume()``.
  func pause() {
    condition.lock()
    running = false
    condition.unlock()
  }

  /// Ends the thread.
  func stop() {
    condition.lock()
    stopped = true
    running = false
    condition.signal()
    condition.unlock()
  }

  private func main() {
    while true {
      condition.lock()
      while !running && !stopped { condition.wait() }
      if stopped {
        condition.unlock()
        return
      }
      condition.unlock()
      let now = Clock.now
      let next = origin &+ ((now &- origin) / period + 1) &* period
      var request = timespec(tv_sec: Int(next - now) / 1_000_000_000, tv_nsec: Int(next - now) % 1_000_000_000)
      var remaining = timespec()
      while nanosleep(&request, &remaining) != 0 { request = remaining }
      condition.lock()
      if running {
        CFRunLoopSourceSignal(source)
        CFRunLoopWakeUp(loop)
      }
      condition.unlock()
    }
  }
}
