import CoreFoundation
import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// What a queue does while a scroll is tracked (`Configuration.scrolling`): by default it pauses; fitted to
/// frames, it runs what its frame clock admits. The admission rules themselves are in `FrameDeadlineTests`
/// and `PassPlannerTests`; the preset is there too.
final class ScrollingTests: XCTestCase {
  func testByDefaultNothingRunsWhileTracking() {
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

  func testTheDefaultPausesWithNoFrameClockAndFittingToFramesTracksUIKitsScrollMode() {
    let pause = IdleQueue.Configuration().scrolling
    XCTAssertFalse(pause.fitsToFrames)
    XCTAssertNil(pause.frameClockSource, "no frame clock")
    XCTAssertEqual(pause.trackingModes, [], "no tracking passes")
    let fitted = IdleQueue.Scrolling.fitToFrames(timeUntilNextFrame: { 0.010 })
    XCTAssertTrue(fitted.fitsToFrames)
    XCTAssertNotNil(fitted.frameClockSource, "the closure is the frame clock")
    XCTAssertEqual(fitted.trackingModes, [RunLoop.Mode("UITrackingRunLoopMode")])
    #if !canImport(UIKit)
      XCTAssertNil(IdleQueue.Scrolling.fitToFrames().frameClockSource, "no display link here: no frame clock")
    #endif
  }

  /// Fitted to frames without the rest of the preset (the default `.tasks(1)` raised to 10): a tracking
  /// pass runs tasks while they fit before the next frame, then ends without asking for another pass.
  func testWhileTrackingTasksStopWhenTheFrameRunsOut() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let frames = ManualFrames(driver, deadline: nil)
      let queue = IdleQueue(
        driver: driver, configuration: .init(budget: .tasks(10), scrolling: .fitToFrames { frames.timeLeft }))
      var ran = 0
      for i in 0..<5 {
        queue.addTask(key: i, estimatedCost: 0.003) {
          ran += 1
          driver.advance(by: 0.003)  // each task eats 3 ms of the frame
        }
      }
      frames.deadline = driver.now + 0.010
      driver.runTrackingPass()
      XCTAssertEqual(ran, 3, "3 ms + 0.75 ms margin fits in 10, 7 and 4 ms left, not in 1 ms")
      XCTAssertFalse(driver.isPassRequested, "a tracking pass never asks for another; frames wake the loop")
      frames.deadline = nil
      driver.runTrackingPass()
      XCTAssertEqual(ran, 3, "with no frame known nothing runs while tracking")
      driver.runPass()
      XCTAssertEqual(ran, 5, "idle, with no frame pending: the budget alone bounds the pass")
    }
  }

  /// On the real loop: UIKit's tracking mode, with a 60 Hz timer as the display link.
  func testWorkFittedToFramesRunsInTheTrackingModeOfTheRealLoop() {
    MainActor.assumeIsolated {
      let tracking = IdleQueue.Scrolling.trackingMode
      var nextFrame = Date().addingTimeInterval(1 / 60)
      let queue = IdleQueue(
        configuration: .init(scrolling: .fitToFrames { MainActor.assumeIsolated { nextFrame.timeIntervalSinceNow } }))
      defer { queue.invalidate() }
      var ran = 0
      queue.addTask(key: 0) { ran += 1 }
      let link = addTimer(every: 1 / 60, mode: tracking) { nextFrame = Date().addingTimeInterval(1 / 60) }
      defer { CFRunLoopTimerInvalidate(link) }
      spin(until: { ran == 1 }, timeout: 5, mode: tracking)
    }
  }
}
