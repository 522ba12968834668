import Foundation
import IdleWorkTesting
import XCTest

@testable import IdleWork

/// Prefetches are paced (they leave a worker free) only while a scroll is tracked, a visible row lately waited for
/// a worker, and the main thread's frames are tight: less than 8.3 ms left after its work, or late. A frame with
/// time to spare loses nothing to a worker that takes a core for a few milliseconds, and prefetches keep ahead of
/// the scroll on every worker.
final class PacingTests: XCTestCase {
  /// The frame clock's judgement: the most time left read in the current frame (its first reading, after the
  /// main thread's work) decides; a passed deadline is tight; no frame, or a stopped clock, is not.
  func testFramesAreTightWhenLittleTimeIsLeftOrTheDeadlinePassed() {
    MainActor.assumeIsolated {
      let source = FakeFrameClockSource()
      let clock = FrameClock(source: source)
      source.timeLeft = 0.004
      XCTAssertFalse(clock.framesAreTight(now: 0), "a stopped clock says nothing about frames")
      clock.start()
      source.timeLeft = 0.012
      XCTAssertFalse(clock.framesAreTight(now: 1_000_000), "12 ms left: time to spare")
      source.timeLeft = 0.004
      XCTAssertFalse(
        clock.framesAreTight(now: 9_000_000), "the same frame (deadline 13 ms), read later: its first reading decides")
      source.timeLeft = 0.008
      XCTAssertTrue(clock.framesAreTight(now: 21_000_000), "a new frame (deadline 29 ms) with 8 ms left is tight")
      source.timeLeft = 0.009
      XCTAssertFalse(clock.framesAreTight(now: 37_000_000), "9 ms left is not")
      source.timeLeft = -0.001
      XCTAssertTrue(clock.framesAreTight(now: 47_000_000), "the deadline passed: the main thread runs late")
      source.timeLeft = nil
      XCTAssertFalse(clock.framesAreTight(now: 48_000_000), "no frame pending")
    }
  }

  /// A queue's tracking passes tell the pool whether the frames are tight, read on its frame clock; idle passes
  /// say nothing.
  func testATrackingPassTellsThePoolWhetherTheFramesAreTight() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      var timeLeft: TimeInterval? = 0.012
      let configuration = IdleQueue.Configuration.scrollingFeed(timeUntilNextFrame: {
        MainActor.assumeIsolated { timeLeft }
      })
      let queue = IdleQueue(driver: driver, configuration: configuration)
      defer { queue.invalidate() }
      _ = queue.core.preparationMade()  // the queue's line on its pool
      // Pending work that never fits a frame (it waits for idle passes, one per pass): the frame clock runs.
      for key in 0..<3 { queue.addTask(key: key, estimatedCost: 0.05) {} }
      let pool = queue.core.preparation!.line.pool
      driver.runTrackingPass()
      XCTAssertFalse(pool.framesWereTightLately, "12 ms left after the frame's work")
      driver.advance(by: 0.016)
      timeLeft = 0.003
      driver.runPass()
      XCTAssertFalse(pool.framesWereTightLately, "an idle pass tells nothing")
      driver.advance(by: 0.016)
      driver.runTrackingPass()
      XCTAssertTrue(pool.framesWereTightLately, "3 ms left in a tracking pass: tight")
    }
  }

  /// The rule, stepped exactly: paced only while a scroll is tracked, a visible row lately waited and the frames
  /// were lately tight, each within 0.1 s; it ends at the earliest of the three ends.
  func testPrefetchesArePacedOnlyWhileAllThreeHold() {
    let ms: UInt64 = 1_000_000
    var pacing = PrefetchPacing()
    XCTAssertFalse(pacing.isPacing(at: 1_000 * ms), "nothing happened yet")
    XCTAssertNil(pacing.endsAt)
    pacing.noteTracking(at: 1_000 * ms, framesAreTight: false)
    pacing.noteVisibleRowWaited(at: 1_001 * ms)
    XCTAssertFalse(pacing.isPacing(at: 1_002 * ms), "a scroll with a waiting row, but frames with time to spare")
    XCTAssertFalse(pacing.framesWereTightLately(at: 1_002 * ms))
    pacing.noteTracking(at: 1_016 * ms, framesAreTight: true)
    XCTAssertTrue(pacing.isPacing(at: 1_017 * ms), "tight frames: paced")
    XCTAssertEqual(pacing.endsAt, 1_101 * ms, "the visible row's wait is the first to lapse")
    XCTAssertTrue(pacing.isPacing(at: 1_100 * ms))
    XCTAssertFalse(pacing.isPacing(at: 1_101 * ms), "no visible row waited for 0.1 s")
    pacing.noteVisibleRowWaited(at: 1_110 * ms)
    XCTAssertTrue(pacing.isPacing(at: 1_111 * ms), "a row waits again, the scroll and its tight frames still recent")
    XCTAssertEqual(pacing.endsAt, 1_116 * ms, "now the tight frame is the first to lapse")
    pacing.noteTracking(at: 1_112 * ms, framesAreTight: false)
    XCTAssertEqual(pacing.endsAt, 1_116 * ms, "a frame with time to spare does not renew the tightness")
    XCTAssertFalse(pacing.isPacing(at: 1_116 * ms))
    XCTAssertFalse(pacing.framesWereTightLately(at: 1_116 * ms))
    pacing.noteTracking(at: 1_150 * ms, framesAreTight: true)
    XCTAssertTrue(pacing.isPacing(at: 1_151 * ms))
    XCTAssertFalse(pacing.isPacing(at: 1_210 * ms), "the row's wait lapsed at 1 210 ms")
  }
}
