import CoreFoundation
import XCTest

@testable import FeedDemoKit

/// Idle wake-ups and CPU at rest, from hand-built readings: a 0.1 s keep-alive timer shows as 10 wake-ups
/// a second; a loop that sleeps shows none.
final class IdleTests: XCTestCase {
  private func result(wakeups: Int, cpuSeconds: Double) -> ScenarioResult {
    var recording = Recording()
    recording.idleWakeups = wakeups
    recording.idleCPUSeconds = cpuSeconds
    recording.idleSeconds = 0.5
    return ScenarioMetrics.result(kind: .dwu, profile: .light, refreshHz: 60, recording: recording, origin: 0)
  }

  /// DWU's timer: 5 wake-ups in half a second, 1 ms of CPU.
  func testKeepAliveTimerFails() {
    let r = result(wakeups: 5, cpuSeconds: 0.001)
    XCTAssertEqual(r[.idleWakeupsPerSecond], 10, accuracy: 1e-9)
    XCTAssertEqual(r[.idleCpuMsPerSecond], 2, accuracy: 1e-9)
  }

  /// A loop that truly sleeps.
  func testSleepingLoopIsClean() {
    XCTAssertEqual(result(wakeups: 0, cpuSeconds: 0)[.idleWakeupsPerSecond], 0)
  }

  /// The probe on the real loop: a repeating 50 ms timer in the default mode is seen as wake-ups.
  func testProbeSeesATimer() {
    MainActor.assumeIsolated {
      let timer = CFRunLoopTimerCreateWithHandler(nil, CFAbsoluteTimeGetCurrent() + 0.05, 0.05, 0, 0) { _ in }
      CFRunLoopAddTimer(CFRunLoopGetMain(), timer, kCFRunLoopDefaultMode)
      defer { CFRunLoopTimerInvalidate(timer) }
      let reading = IdleProbe.measure(seconds: 0.3)
      XCTAssertGreaterThanOrEqual(reading.wakeups, 4)
    }
  }
}
