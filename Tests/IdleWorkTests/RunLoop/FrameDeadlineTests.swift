import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// Deadline-aware passes, on the manual driver with an injected frame clock and injected task
/// costs (tasks advance the manual clock by their cost). The frame clock is "the deadline minus now".
final class FrameDeadlineTests: XCTestCase {
  @MainActor
  static func deadlineQueue(
    budget: IdleQueue.Budget = .tasks(100), deadline: TimeInterval? = 0.016
  ) -> (IdleQueue, ManualPassDriver, ManualFrames) {
    let driver = ManualPassDriver()
    let frames = ManualFrames(driver, deadline: deadline)
    let queue = IdleQueue(
      driver: driver,
      configuration: .init(
        budget: budget, maximumQueueLength: 100, scrolling: .fitToFrames(timeUntilNextFrame: { frames.timeLeft })))
    return (queue, driver, frames)
  }

  /// The `.scrollingFeed` preset on the manual driver, its frame clock a ``ManualFrames`` the test moves (no frame
  /// pending at first).
  @MainActor
  static func feedQueue() -> (IdleQueue, ManualPassDriver, ManualFrames) {
    let driver = ManualPassDriver()
    let frames = ManualFrames(driver, deadline: nil)
    let queue = IdleQueue(driver: driver, configuration: .scrollingFeed(timeUntilNextFrame: { frames.timeLeft }))
    return (queue, driver, frames)
  }

  /// ``feedQueue()`` after one pass at a 60 Hz frame's start, so that the queue knows a frame's length.
  @MainActor
  static func feedQueueThatKnows60Hz() -> (IdleQueue, ManualPassDriver, ManualFrames) {
    let (queue, driver, frames) = feedQueue()
    frames.deadline = 1.0 / 60
    queue.addTask(key: "learn the frame") {}
    driver.runPass()
    return (queue, driver, frames)
  }

  // MARK: Admit only what fits

  func testATaskWhosePredictedCostExceedsTheTimeLeftDoesNotStart() {
    MainActor.assumeIsolated {
      // The clock first reads a whole frame, so the queue knows a frame's length.
      let (queue, driver, frames) = Self.deadlineQueue(deadline: 0.0166)
      queue.addTask(key: "warm-up") {}
      driver.runPass()
      var ran = false
      driver.advance(by: 0.0166 - 0.0041)  // 4.1 ms left before the frame
      queue.addTask(key: "draw", estimatedCost: 0.006) {
        ran = true
        driver.advance(by: 0.006)
      }
      driver.runPass()
      XCTAssertFalse(ran, "a 6 ms draw does not start with 4.1 ms left")
      XCTAssertEqual(queue.pendingTaskCount, 1)
      XCTAssertFalse(driver.isPassRequested, "no pass is asked for before the deadline (no spinning)")
      driver.advance(by: 0.0041)
      XCTAssertTrue(driver.isPassRequested, "a pass is due once the deadline has passed")
      frames.deadline = driver.now + 0.0166  // the next frame begins
      driver.runPass()
      XCTAssertTrue(ran, "a whole frame ahead: 6 ms + 1 ms margin fits")
      XCTAssertEqual(queue.statistics.executed, 2)
    }
  }

  func testTheMarginIsAQuarterOfThePredictionWithinATenthOfAMillisecondAndOne() {
    let ms: UInt64 = 1_000_000
    func decide(_ predicted: UInt64, left: Int64) -> FrameAdmission.Decision {
      FrameAdmission.decide(predicted: predicted, timeLeft: left, frameLength: 16 * ms, isFirstInPass: false)
    }
    XCTAssertEqual(decide(20_000, left: 130_000), .start, "20 µs + 0.1 ms fits in 0.13 ms")
    XCTAssertEqual(decide(20_000, left: 110_000), .wait(110_000), "but not in 0.11 ms: the margin is at least 0.1 ms")
    XCTAssertEqual(decide(2 * ms, left: 2_500_000), .start, "2 ms + 0.5 ms (a quarter) fits in 2.5 ms")
    XCTAssertEqual(decide(2 * ms, left: 2_400_000), .wait(2_400_000))
    XCTAssertEqual(decide(6 * ms, left: 7 * 1_000_000), .start, "6 ms + 1 ms (at most) fits in 7 ms")
    XCTAssertEqual(decide(6 * ms, left: 6_900_000), .wait(6_900_000))
  }

  func testAPassFillsTheFrameWithTasksPredictedToFit() {
    MainActor.assumeIsolated {
      let (queue, driver, frames) = Self.deadlineQueue(deadline: 0.010)
      var ran = 0
      for i in 0..<10 {
        queue.addTask(key: i) {
          ran += 1
          driver.advance(by: 0.002)
        }
      }
      driver.runPass()
      // 0 ms: predicted 0 (nothing measured), runs; 2 ms: 2 + 1 <= 8, runs; 4: 2+1 <= 6; 6: 2+1 <= 4;
      // 8 ms: 2 + 1 > 2: the pass ends.
      XCTAssertEqual(ran, 4)
      XCTAssertEqual(driver.now, 0.008, accuracy: 1e-9)
      XCTAssertLessThanOrEqual(driver.now, frames.deadline!, "the frame is not late")
    }
  }

  func testWithoutAFrameClockPassesBehaveAsBefore() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(budget: .tasks(3))
      var ran = 0
      for i in 0..<5 { queue.addTask(key: i, estimatedCost: 1.0) { ran += 1 } }
      driver.runPass()
      XCTAssertEqual(ran, 3, "estimates change nothing without a clock or a .seconds budget")
    }
  }

  func testNoFramePendingMeansNoDeadline() {
    MainActor.assumeIsolated {
      let (queue, driver, _) = Self.deadlineQueue(budget: .tasks(2), deadline: nil)
      var ran = 0
      for i in 0..<3 { queue.addTask(key: i, estimatedCost: 0.050) { ran += 1 } }
      driver.runPass()
      XCTAssertEqual(ran, 2, "the clock returns nil: only the budget limits the pass")
    }
  }

  func testStaleTasksAreStillSkippedForFreeWhileTheNextTaskWaits() {
    MainActor.assumeIsolated {
      let (queue, driver, frames) = Self.deadlineQueue(deadline: 0.0166)
      queue.addTask(key: "learn the frame") {}
      driver.runPass()
      frames.deadline = driver.now + 0.003
      let cell = FakeCell()
      queue.addTask(for: cell, at: row(0)) { _ in XCTFail("stale") }
      queue.bind(cell, to: row(1))
      queue.addTask(key: "big", estimatedCost: 0.005) {}
      driver.runPass()
      XCTAssertEqual(queue.statistics.skippedAsStale, 1)
      XCTAssertEqual(queue.statistics.executed, 1, "only the warm-up")
      XCTAssertEqual(queue.pendingTaskCount, 1)
    }
  }

  // MARK: Know the cost

  func testThePredictionFollowsMeasuredCosts() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(budget: .tasks(1))
      var costs: [TimeInterval] = [0.002, 0.002, 0.006, 0.006, 0.006, 0.006]
      for i in 0..<costs.count { queue.addTask(key: i) { driver.advance(by: costs.removeFirst()) } }
      XCTAssertEqual(queue.core.predictor.predict(.task, estimate: nil), 0, "nothing measured yet")
      var predictions: [Double] = []
      while driver.isPassRequested {
        driver.runPass()
        predictions.append(Double(queue.core.predictor.predict(.task, estimate: nil)) / 1e6)
      }
      // A moving average with weight 1/4: 2, 2, 3, 3.75, 4.3125, 4.734375 ms.
      let expected = [2, 2, 3, 3.75, 4.3125, 4.734375]
      for (got, want) in zip(predictions, expected) { XCTAssertEqual(got, want, accuracy: 1e-5) }
      XCTAssertEqual(queue.core.predictor.predict(.task, estimate: 1_000), 1_000, "the caller's estimate wins")
      XCTAssertEqual(queue.core.predictor.predict(.slice, estimate: nil), 0, "slices are predicted apart")
    }
  }

  func testTheCallersEstimateWinsOverThePrediction() {
    MainActor.assumeIsolated {
      let (queue, driver, frames) = Self.deadlineQueue(deadline: 0.0166)
      queue.addTask(key: "measured") { driver.advance(by: 0.001) }
      driver.runPass()
      frames.deadline = driver.now + 0.005
      var ran: [String] = []
      queue.addTask(key: "big", estimatedCost: 0.008) { ran.append("big") }
      driver.runPass()
      XCTAssertEqual(ran, [], "predicted 1 ms from measurements, but the caller says 8 ms")
    }
  }

  // MARK: Never starved

  func testANeverFittingTaskStillRunsWhenTheLoopIsIdle() {
    MainActor.assumeIsolated {
      let (queue, driver, frames) = Self.deadlineQueue(deadline: 0.0166)
      queue.addTask(key: "learn the frame") {}
      driver.runPass()
      var ran = 0
      queue.addTask(key: "huge", estimatedCost: 0.030) {
        ran += 1
        driver.advance(by: 0.030)
      }
      frames.deadline = driver.now + 0.004  // mid-frame: 4 ms left
      driver.runPass()
      XCTAssertEqual(ran, 0, "longer than any frame, and not at a frame's start: it waits")
      frames.deadline = nil  // no frame pending: the loop is otherwise idle
      driver.runPass()
      XCTAssertEqual(ran, 1)
      XCTAssertEqual(queue.statistics.executed, 2, "it is counted as executed")
      XCTAssertEqual(queue.statistics.longestPassDuration, 0.030, accuracy: 1e-9, "and its length is visible")
    }
  }

  func testANeverFittingTaskRunsFirstInAPassAtAFramesStartSoItIsNeverStarved() {
    MainActor.assumeIsolated {
      let (queue, driver, frames) = Self.deadlineQueue(deadline: 0.0166)
      queue.addTask(key: "learn the frame") {}
      driver.runPass()
      var log: [String] = []
      queue.addTask(key: "small") {
        log.append("small")
        driver.advance(by: 0.001)
      }
      queue.addTask(key: "huge", estimatedCost: 0.030) {
        log.append("huge")
        driver.advance(by: 0.030)
      }
      queue.addTask(key: "after") { log.append("after") }
      frames.deadline = driver.now + 0.0166
      driver.runPass()
      XCTAssertEqual(log, ["small"], "a never-fitting task runs only first in a pass")
      var passes = 0
      while !log.contains("huge"), passes < 100 {
        driver.advance(by: max(frames.timeLeft ?? 0, 0))
        frames.deadline = driver.now + 0.0166  // each frame's start
        driver.runPass()
        passes += 1
      }
      XCTAssertEqual(passes, 1, "it runs at the next frame's start")
      XCTAssertEqual(log, ["small", "huge"], "and ends its pass: nothing after it in the same frame")
    }
  }

  // MARK: Slice to the deadline

  func testTheDeadlineAResumableSliceSeesIsTheFrames() {
    MainActor.assumeIsolated {
      let (queue, driver, frames) = Self.deadlineQueue(deadline: 0.010)
      var seen: [TimeInterval] = []
      var tiles = 0
      queue.addResumableTask(key: "tiles") { timeRemaining in
        seen.append(timeRemaining())
        repeat {
          tiles += 1
          driver.advance(by: 0.002)
        } while timeRemaining() >= 0.002
        seen.append(timeRemaining())
        return tiles >= 20
      }
      driver.runPass()
      XCTAssertEqual(seen[0], 0.009, accuracy: 1e-9, "10 ms before the frame, less the 1 ms margin")
      XCTAssertEqual(tiles, 4, "tiles of 2 ms until less than a tile is left: 9, 7, 5, 3, then 1 ms")
      XCTAssertEqual(seen[1], 0.001, accuracy: 1e-9)
      XCTAssertLessThanOrEqual(driver.now, frames.deadline!)
    }
  }

  func testASliceThatSizesItselfToTheTimeLeftIsPredictedPerStep() {
    MainActor.assumeIsolated {
      let (queue, driver, frames) = Self.deadlineQueue(deadline: 0.010)
      var tiles = 0
      queue.addResumableTask(key: "tiles") { timeRemaining in
        repeat {
          tiles += 1
          driver.advance(by: 0.002)
        } while timeRemaining() >= 0.002
        return false
      }
      driver.runPass()
      XCTAssertEqual(tiles, 4, "8 ms of tiles in the 9 ms before the frame")
      XCTAssertEqual(
        queue.core.predictor.predict(.slice, estimate: nil), 2_000_000,
        "8 ms in tiles of 2 ms between reads of timeRemaining: a step costs 2 ms, not the slice's 8 ms")
      frames.deadline = driver.now + 0.0035
      driver.runPass()
      XCTAssertEqual(tiles, 5, "2 ms + 1 ms margin fits in 3.5 ms: the job goes on (predicted at 8 ms it would wait)")

      queue.addResumableTask(key: "blind") { _ in
        driver.advance(by: 0.003)
        return true
      }
      queue.cancelTasks(forKey: "tiles")
      frames.deadline = nil
      driver.runPass()
      XCTAssertEqual(
        queue.core.predictor.predict(.slice, estimate: nil), 2_250_000,
        "a slice that never reads the time is one step: 2 + (3 - 2) / 4 ms")
    }
  }

  func testASliceSeesTheLeastOfTheFrameAndTheSecondsBudget() {
    MainActor.assumeIsolated {
      let (queue, driver, _) = Self.deadlineQueue(budget: .seconds(0.004), deadline: 0.010)
      var seen: TimeInterval?
      queue.addResumableTask(key: "job") { timeRemaining in
        seen = timeRemaining()
        return true
      }
      driver.runPass()
      XCTAssertEqual(seen ?? 0, 0.004, accuracy: 1e-9)

      let (plain, plainDriver) = manualQueue()
      var plainSeen: TimeInterval?
      plain.addResumableTask(key: "job") { timeRemaining in
        plainSeen = timeRemaining()
        return true
      }
      plainDriver.runPass()
      XCTAssertEqual(plainSeen, 0, "no clock and a .tasks budget: one step per slice, as before")
    }
  }

  // MARK: A .seconds budget overruns by no more than the prediction error

  func testSecondsBudgetOverrunsByNoMoreThanThePredictionError() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(budget: .seconds(0.004), maximumQueueLength: 1000)
      var generator = SeededGenerator(seed: 11)
      var costs: [TimeInterval] = []
      for i in 0..<400 {
        let cost = Double.random(in: 0.0005...0.0015, using: &generator)
        costs.append(cost)
        queue.addTask(key: i) { driver.advance(by: cost) }
      }
      var worstOverrun = 0.0
      var worstError = 0.0
      var previous = queue.statistics.executed
      while driver.isPassRequested {
        let start = driver.now
        let prediction = Double(queue.core.predictor.predict(.task, estimate: nil)) / 1e9
        driver.runPass()
        let ran = queue.statistics.executed - previous
        if ran > 1 { worstOverrun = max(worstOverrun, driver.now - start - 0.004) }
        for cost in costs[previous..<queue.statistics.executed] { worstError = max(worstError, cost - prediction) }
        previous = queue.statistics.executed
      }
      XCTAssertEqual(queue.statistics.executed, 400)
      XCTAssertLessThanOrEqual(worstOverrun, worstError + 1e-9, "overrun \(worstOverrun), error \(worstError)")
      XCTAssertLessThan(worstOverrun, 0.001, "well under one whole task (up to 1.5 ms)")
    }
  }

  // MARK: The clock's start and stop (manual driver; the real loop is in FrameClockRunLoopTests)

  func testTheFrameClockRunsOnlyWhileTasksArePending() {
    MainActor.assumeIsolated {
      let source = FakeFrameClockSource()
      let driver = ManualPassDriver()
      var configuration = IdleQueue.Configuration()
      configuration.scrolling = .fitToFrames(source: { source })
      let queue = IdleQueue(driver: driver, configuration: configuration)
      XCTAssertEqual(source.log, [], "nothing pending: not started")
      queue.addTask(key: 0) {}
      queue.addTask(key: 1) {}
      XCTAssertEqual(source.log, ["start"], "started once when work became pending")
      driver.drain()
      XCTAssertEqual(source.log, ["start", "stop"], "stopped once drained")
      let cell = FakeCell()
      queue.addTask(for: cell, at: row(0)) { _ in }
      queue.cellDidEndDisplaying(cell, at: row(0))
      driver.drain()
      driver.runPass()
      XCTAssertEqual(source.log, ["start", "stop", "start", "stop"], "off-screen work alone does not keep it running")
      queue.cellWillDisplay(cell, at: row(0))
      XCTAssertEqual(source.log.last, "start")
      queue.invalidate()
      XCTAssertEqual(source.log.last, "stop")
    }
  }

  func testTheScrollingFeedPresetTurnsTheDeadlineOn() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      var timeLeft: TimeInterval? = 0.003
      let configuration = IdleQueue.Configuration.scrollingFeed(timeUntilNextFrame: {
        MainActor.assumeIsolated { timeLeft }
      })
      XCTAssertTrue(configuration.scrolling.fitsToFrames)
      XCTAssertEqual(configuration.budget, .seconds(1.0 / 60))
      let queue = IdleQueue(driver: driver, configuration: configuration)
      var ran = 0
      queue.addTask(key: 0, estimatedCost: 0.004) { ran += 1 }
      driver.advance(by: 0.1)
      driver.runTrackingPass()
      XCTAssertEqual(ran, 0, "during a scroll: 4 ms + 1 ms margin does not fit in 3 ms")
      timeLeft = 0.010
      driver.runTrackingPass()
      XCTAssertEqual(ran, 1, "it fits: it runs during the scroll")
      queue.addTask(key: 1) { ran += 1 }
      timeLeft = nil
      driver.advance(by: 0.1)
      driver.runTrackingPass()
      XCTAssertEqual(ran, 1, "no frame known: nothing runs while scrolling")
      driver.runPass()
      XCTAssertEqual(ran, 2, "idle, with no frame pending: it runs")
      #if !canImport(UIKit)
        XCTAssertNil(IdleQueue.Configuration.scrollingFeed().scrolling.frameClockSource, "no display link here")
      #endif
      XCTAssertEqual(configuration.maximumQueueLength, 128, "three screens of a dense feed")
    }
  }

  #if !canImport(UIKit)
    /// Without UIKit and without a `timeUntilNextFrame` the preset has no frame clock at all: no frame is ever
    /// known, so nothing runs while scrolling (idle passes still run, time-budgeted).
    func testThePresetWithNoFrameClockRunsNothingWhileScrolling() {
      MainActor.assumeIsolated {
        let driver = ManualPassDriver()
        let queue = IdleQueue(driver: driver, configuration: .scrollingFeed())
        var ran = 0
        queue.addTask(key: 0, estimatedCost: 0.001) { ran += 1 }
        driver.advance(by: 0.1)
        driver.runTrackingPass()
        XCTAssertEqual(ran, 0, "no frame clock: nothing while scrolling")
        driver.runPass()
        XCTAssertEqual(ran, 1, "idle: it runs")
      }
    }
  #endif

  func testDuringAScrollACostNeverMeasuredIsTriedOnlyFirstInAPassAtAFramesStart() {
    MainActor.assumeIsolated {
      let (queue, driver, frames) = Self.feedQueue()
      var ran: [Int] = []
      @MainActor func addDraw(_ i: Int) {
        queue.addTask(key: i) {
          driver.advance(by: 0.006)
          ran.append(i)
        }
      }
      // The clock learns the frame's length (the most time left it has read): 16 ms. (A slice: its
      // measured cost teaches the slices' prediction, not the tasks'.)
      queue.addResumableTask(key: -1, estimatedCost: 0.001) { _ in true }
      frames.deadline = driver.now + 0.016
      driver.runTrackingPass()
      addDraw(0)
      addDraw(1)
      addDraw(2)
      frames.deadline = driver.now + 0.007
      driver.runTrackingPass()
      XCTAssertEqual(ran, [], "never measured: not gambled with less than half the frame left (7 of 16 ms)")
      frames.deadline = driver.now + 0.008
      driver.runTrackingPass()
      XCTAssertEqual(ran, [0], "first in a pass with half the frame left: tried once, and measured (6 ms)")
      frames.deadline = driver.now + 0.0075
      driver.runTrackingPass()
      XCTAssertEqual(ran, [0, 1], "now known: 6 ms + 1 ms margin fits in 7.5 ms, and nothing more does")
      frames.deadline = driver.now + 0.004
      driver.runTrackingPass()
      XCTAssertEqual(ran, [0, 1], "6 ms does not fit in 4 ms")
      frames.deadline = nil
      driver.runPass()
      XCTAssertEqual(ran, [0, 1, 2], "idle, no frame pending: it runs")
    }
  }

  func testDuringAScrollAKnownNeverFittingTaskWaitsForAnIdlePass() {
    MainActor.assumeIsolated {
      let (queue, driver, frames) = Self.feedQueue()
      var ran = 0
      queue.addTask(key: 0, estimatedCost: 0.020) { ran += 1 }
      frames.deadline = driver.now + 0.016
      driver.runTrackingPass()
      XCTAssertEqual(ran, 0, "20 ms never fits a 16 ms frame: not during a scroll, even at the frame's start")
      driver.runPass()
      XCTAssertEqual(ran, 1, "the first idle pass at a frame's start runs it")
    }
  }
}
