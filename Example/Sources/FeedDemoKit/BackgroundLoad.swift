import Foundation

/// Steady work on another thread while a scenario runs — what a phone does in the background while the user
/// scrolls (decoding, a download's parsing, a sync): a thread that computes for `duty` of every 8 ms and sleeps
/// the rest, keeping one core that busy. The `busy` profile runs every strategy under it.
///
/// `@unchecked Sendable`: `stopped` is read and written only with `lock` held.
final class BackgroundLoad: @unchecked Sendable {
  /// One cycle of the load: work for `duty` of it, sleep for the rest.
  static let period: UInt64 = 8_000_000

  private let lock = NSLock()
  private var stopped = false
  /// Cycles the thread has begun (for tests: it runs), and whether it has ended.
  private var cycles = 0
  private var ended = false
  private let finished = DispatchSemaphore(value: 0)

  /// Starts a thread busy for `duty` (0...1) of a core.
  init(duty: Double) {
    let busy = UInt64(Double(Self.period) * min(max(duty, 0), 1))
    let thread = Thread { [self] in
      // A plain thread's QoS, below the workers' (not the main thread's, which it was started from).
      ThreadPriority.standard.applyToCurrentThread()
      var sink: UInt64 = 0
      while !isStopped {
        lock.withLock { cycles += 1 }
        let end = DispatchTime.now().uptimeNanoseconds + busy
        while DispatchTime.now().uptimeNanoseconds < end { sink = sink &* 6_364_136_223_846_793_005 &+ 1 }
        Thread.sleep(forTimeInterval: Double(Self.period - busy) / 1e9)  // the idle part of the cycle
      }
      withExtendedLifetime(sink) {}
      lock.withLock { ended = true }
      finished.signal()
    }
    thread.name = "FeedDemo background load"
    thread.start()
  }

  private var isStopped: Bool {
    lock.lock()
    defer { lock.unlock() }
    return stopped
  }

  /// Cycles the load's thread has begun so far.
  var cyclesBegun: Int { lock.withLock { cycles } }

  /// Whether the load's thread has ended.
  var hasEnded: Bool { lock.withLock { ended } }

  /// Stops the load and waits for its thread to end.
  func stop() {
    lock.lock()
    stopped = true
    lock.unlock()
    finished.wait()
  }
}
