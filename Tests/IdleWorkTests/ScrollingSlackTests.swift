import CoreFoundation
import Foundation
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// Opt-in work while a scroll is tracked, only for tasks that waited long enough and only within frame slack.
final class ScrollingSlackTests: XCTestCase {
  @MainActor
  private final class FrameClock {
    var secondsToNextFrame: Double? = 0.010
  }

  @MainActor
  private static func slackQueue(_ clock: FrameClock) -> (IdleQueue, ManualPassDriver) {
    let (queue, driver) = manualQueue(budget: .tasks(10))
    queue.core.scrollingSlack = IdleQueue.ScrollingSlack(minimumWait: 0.050, minimumFrameSlack: 0.004) {
      clock.secondsToNextFrame
    }
    return (queue, driver)
  }

  func testWithoutTheSettingNothingRunsWhileTracking() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      var ran = 0
      queue.addTask(key: 0) { ran += 1 }
      driver.advance(by: 1.0)
      driver.runTrackingPass()
      XCTAssertEqual(ran, 0)
      driver.runPass()
      XCTAssertEqual(ran, 1)
    }
  }

  func testOnlyTasksThatWaitedLongEnoughRunWhileTracking() {
    MainActor.assumeIsolated {
      let clock = FrameClock()
      let (queue, driver) = Self.slackQueue(clock)
      var ran: [String] = []
      queue.addTask(key: 0) { ran.append("old") }
      driver.advance(by: 0.06)
      queue.addTask(key: 1) { ran.append("young") }
      driver.runTrackingPass()
      XCTAssertEqual(ran, ["old"], "the young task has waited 0 ms of the 50 required")
      driver.advance(by: 0.05)
      driver.runTrackingPass()
      XCTAssertEqual(ran, ["old", "young"])
    }
  }

  func testTasksStopWhenTheFrameSlackRunsOut() {
    MainActor.assumeIsolated {
      let clock = FrameClock()
      let (queue, driver) = Self.slackQueue(clock)
      var ran = 0
      for i in 0..<5 {
        queue.addTask(key: i) {
          ran += 1
          clock.secondsToNextFrame! -= 0.003  // each task eats 3 ms of the frame
        }
      }
      driver.advance(by: 0.1)
      driver.runTrackingPass()
      XCTAssertEqual(ran, 2, "10 ms left: run (7 left), run (4 left, not more than the 4 ms slice): stop")
      XCTAssertFalse(driver.isPassRequested, "a tracking pass never asks for another; frames wake the loop")
      clock.secondsToNextFrame = nil
      driver.runTrackingPass()
      XCTAssertEqual(ran, 2, "with no frame clock nothing runs while tracking")
    }
  }

  func testInvalidSlackSettingsAreDescribed() {
    // The initializer stops the program on bad values; the message text is checked through a child
    // process in the hardening tests. Here: valid extremes are accepted.
    let slack = IdleQueue.ScrollingSlack(minimumWait: 0, minimumFrameSlack: 0.0001) { nil }
    XCTAssertEqual(slack.minimumWait, 0)
    XCTAssertEqual(slack.trackingModes, [RunLoop.Mode("UITrackingRunLoopMode")])
  }

  /// On the real loop: a custom tracking mode with a 60 Hz timer as the display link.
  func testSlackWorkRunsInTheTrackingModeOfTheRealLoop() {
    MainActor.assumeIsolated {
      let tracking = RunLoop.Mode("IdleWorkTests.SlackTracking")
      var nextFrame = Date().addingTimeInterval(1 / 60)
      var configuration = IdleQueue.Configuration()
      configuration.scrollingSlack = IdleQueue.ScrollingSlack(
        minimumWait: 0.02, minimumFrameSlack: 0.002, trackingModes: [tracking]
      ) { MainActor.assumeIsolated { nextFrame.timeIntervalSinceNow } }
      let queue = IdleQueue(configuration: configuration)
      defer { queue.invalidate() }
      var ran = 0
      queue.addTask(key: 0) { ran += 1 }
      let link = addTimer(every: 1 / 60, mode: tracking) { nextFrame = Date().addingTimeInterval(1 / 60) }
      defer { CFRunLoopTimerInvalidate(link) }
      spin(until: { ran == 1 }, timeout: 5, mode: tracking)
    }
  }
}
