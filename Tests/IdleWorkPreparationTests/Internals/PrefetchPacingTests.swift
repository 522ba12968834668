import Foundation
import IdleWorkTesting
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkPreparation

/// Prefetches are paced (they leave a worker free) only while a scroll is tracked, a visible row lately waited for
/// a worker, and the main thread's frames are tight: less than 8.3 ms left after its work, or late. A frame with
/// time to spare loses nothing to a worker that takes a core for a few milliseconds, and prefetches keep ahead of
/// the scroll on every worker.
final class PrefetchPacingTests: XCTestCase {
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

  // MARK: Judging the frames

  /// A display-link-like source that knows a frame only once it has ticked since its start.
  @MainActor
  final class TickingSource: FrameClockSource {
    var timeLeft: TimeInterval? = 0.012
    private(set) var hasTicked = false
    func tick() { hasTicked = true }
    func start() { hasTicked = false }
    func stop() { hasTicked = false }
    func timeUntilDeadline() -> TimeInterval? { hasTicked ? timeLeft : nil }
    var frameDuration: TimeInterval? { nil }
    var startsTicking: Bool { true }
  }

  /// A display link just started again has not ticked: the clock reads its "no frame yet" as a passed deadline (so
  /// that a pass waits for the first tick), which says nothing about the main thread running late.
  func testARestartedLinkThatHasNotTickedIsNotTightFrames() {
    MainActor.assumeIsolated {
      let source = TickingSource()
      let clock = FrameClock(source: source)
      clock.start()
      source.tick()
      XCTAssertFalse(clock.framesAreTight(now: 1_000_000), "12 ms left: time to spare")
      clock.stop()  // the queue drained
      clock.start()  // a task came: the link starts again, its first tick under a frame away
      XCTAssertFalse(
        clock.framesAreTight(now: 30_000_000), "no frame read since the link started: nothing says frames are tight")
    }
  }

  /// The same through a queue: during a scroll with 14 ms to spare in the frame, a row's task restarts the drained
  /// queue's display link; the tracking pass before the link's first tick does not report tight frames (that would
  /// switch the pacing on for 0.1 s with nothing measured). Once the link has ticked, the same pass reads 14 ms.
  func testATrackingPassBeforeTheRestartedLinkTicksDoesNotReportTightFrames() {
    MainActor.assumeIsolated {
      for ticks in [false, true] {
        let (queue, driver, source) = queueOnALinkThatKnowsItsFrame()
        defer { queue.invalidate() }
        let pool = queue.core.preparationMade().line.pool
        XCTAssertFalse(source.isRunning, "drained: the link stopped")
        driver.advance(by: 0.2)
        source.deadline = driver.now + 0.014
        queue.addTask(key: "row", estimatedCost: 0.001) {}
        XCTAssertTrue(source.isRunning)
        if ticks { source.tick() }
        driver.runTrackingPass()
        XCTAssertFalse(pool.framesWereTightLately, ticks ? "14 ms left after the tick" : "before the link's first tick")
      }
    }
  }

  /// Judging the frames changes nothing the planner decides: a tracking pass with nothing to run (the clock kept
  /// alive while prefetches are prepared) that sees a passed deadline does not start the stale timer early, so a
  /// later pass still waits for the frame rather than judging the clock stopped and running a task unbounded.
  func testATrackingPassWithNothingToRunDoesNotChangeTheStaleClockDetection() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let source = ScriptedSource()
      source.seconds = 0.012
      var configuration = IdleQueue.Configuration.scrollingFeed()
      configuration.scrolling = .fitToFrames(source: { source })
      let queue = IdleQueue(driver: driver, configuration: configuration)
      defer { queue.invalidate() }
      let photo = Preparation { (name: String, _) in "image of \(name)" }
      // Waiting: the clock stays alive while they are prepared.
      queue.preparer.prefetch(photo, from: ["p0", "p1", "p2", "p3"])
      queue.addTask(key: "first", estimatedCost: 0.001) {}
      driver.runPass()
      XCTAssertEqual(queue.counts.executed, 1)
      driver.advance(by: 0.005)
      source.seconds = -0.001  // the deadline passed: the link's callback is due
      XCTAssertEqual(driver.runPreparations(maximum: 1), 1)  // a prefetch's result arrives: a pass comes
      driver.runTrackingPass()  // nothing to run on this queue
      driver.advance(by: 0.017)
      var ran = false
      queue.addTask(key: "second", estimatedCost: 0.001) { ran = true }
      driver.runPass()
      XCTAssertFalse(ran, "the planner first saw the deadline passed only now: the pass waits for the frame")
    }
  }

  /// The rule at random moments no later than `now`: paced while `now < tracked + linger`, `now - visibleRowWaited <
  /// linger` and `now - framesWereTight < linger`; it ends at the earliest of the three ends.
  func testPacingIsTheEarlierRulePlusTightFrames() {
    let linger = PrefetchPacing.linger
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      let base = UInt64.random(in: 0...(1 << 50), using: &generator)
      let t = base + UInt64.random(in: 0...300_000_000, using: &generator)
      let v = base + UInt64.random(in: 0...300_000_000, using: &generator)
      let f = base + UInt64.random(in: 0...300_000_000, using: &generator)
      let now = max(t, v, f) + UInt64.random(in: 0...200_000_000, using: &generator)
      var pacing = PrefetchPacing()
      pacing.noteTracking(at: f, framesAreTight: true)
      pacing.noteTracking(at: t, framesAreTight: false)
      pacing.noteVisibleRowWaited(at: v)
      let expected = now < t &+ linger && now &- v < linger && now &- f < linger
      guard pacing.isPacing(at: now) == expected, pacing.endsAt == min(t, v, f) &+ linger else {
        XCTFail("tracked \(t), row waited \(v), tight \(f), now \(now): paced \(pacing.isPacing(at: now))")
        return
      }
    }
  }
}
