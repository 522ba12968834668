import CoreFoundation
import Foundation
import TestHelpers
import XCTest

@testable import IdleWork

/// Deadline-aware passes on the real main `CFRunLoop`: the frame clock's start and stop, and the wake-up at the
/// deadline a waiting pass asks for.
final class FrameClockRunLoopTests: XCTestCase {
  func testTheClockStartsWithPendingWorkAndStopsWhenTheQueueDrains() {
    MainActor.assumeIsolated {
      let source = FakeFrameClockSource()
      var configuration = IdleQueue.Configuration(budget: .tasks(1))
      configuration.scrolling = .fitToFrames(source: { source })
      let queue = IdleQueue(configuration: configuration)
      defer { queue.invalidate() }
      var ran = 0
      for i in 0..<3 { queue.addTask(key: i) { ran += 1 } }
      XCTAssertEqual(source.log, ["start"])
      spin(until: { source.log.count == 2 }, timeout: 5)
      XCTAssertEqual(ran, 3)
      XCTAssertEqual(source.log, ["start", "stop"], "stopped at the pass after the last task")
      queue.addTask(key: 4) { ran += 1 }
      spin(until: { source.log.count == 4 }, timeout: 5)
      XCTAssertEqual(source.log, ["start", "stop", "start", "stop"])
      queue.addTask(key: 5) { ran += 1 }
      queue.cancelAllTasks()
      spin(until: { source.log.count == 6 }, timeout: 5)
      XCTAssertEqual(source.log.last, "stop", "a queue emptied by cancellation stops the clock at the next turn")
    }
  }

  /// Frames on the wall clock: the task needing 12 ms (+1 ms margin) is first offered with 5 ms left, so
  /// the pass ends and arms the driver's deadline timer; after the deadline a whole 60 Hz frame begins
  /// and the task runs.
  func testAPassWaitingForTheDeadlineArmsATimerAndTheTaskRunsInTheNextFrame() {
    MainActor.assumeIsolated {
      final class Deadline: @unchecked Sendable {
        var at = CFAbsoluteTimeGetCurrent() + 1.0 / 60
      }
      let deadline = Deadline()
      let clock: @MainActor @Sendable () -> TimeInterval? = {
        let now = CFAbsoluteTimeGetCurrent()
        while deadline.at <= now { deadline.at += 1.0 / 60 }
        return deadline.at - now
      }
      let queue = IdleQueue(configuration: .init(budget: .tasks(1), scrolling: .fitToFrames(timeUntilNextFrame: clock)))
      defer { queue.invalidate() }
      queue.addTask(key: "learn the frame") {}
      spin(until: { queue.statistics.executed == 1 }, timeout: 5)
      let driver = queue.core.scheduler.driver as? RunLoopPassDriver
      XCTAssertNil(driver?.deadlineTimerFireDate, "no pass has waited yet")
      var ranAt: CFAbsoluteTime?
      deadline.at = CFAbsoluteTimeGetCurrent() + 0.005
      let refusedBefore = deadline.at
      queue.addTask(key: "draw", estimatedCost: 0.012) { ranAt = CFAbsoluteTimeGetCurrent() }
      spin(until: { ranAt != nil }, timeout: 5)
      XCTAssertNotNil(driver?.deadlineTimerFireDate, "the refused pass armed the deadline timer")
      XCTAssertGreaterThanOrEqual(ranAt ?? 0, refusedBefore, "it did not start with 5 ms left")
    }
  }
}
