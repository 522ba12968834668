import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkPreparation
@testable import IdleWorkTesting

/// While a queue awaits prepared results for tasks on screen, its frame clock keeps running for a while
/// (``QueueCore/clockKeepAliveWhilePreparing``), so that an apply is admitted against a frame it knows when its result
/// arrives; a prepare that runs on stops it. Stepped on the manual driver with a ``LinkLikeSource``.
final class FrameClockKeepAliveTests: XCTestCase {
  /// While results are being prepared for cells on screen the frame clock keeps running, so that an apply
  /// is admitted against the frame when its result arrives: it waits for the next frame rather than
  /// running past the deadline (idle), and runs in the first tracking pass after its arrival (scroll).
  func testAnArrivedApplyIsAdmittedAgainstTheFrame() {
    MainActor.assumeIsolated {
      let (queue, driver, source) = queueOnALinkThatKnowsItsFrame()
      var applied: [Int] = []
      queue.addTask(key: 0, estimatedCost: 0.006) { _ in
        0
      } apply: {
        applied.append($0)
      }
      driver.runPass()  // only a task waiting for its result: nothing runs
      XCTAssertTrue(source.isRunning, "a result on its way for a task on screen keeps the clock running")
      XCTAssertEqual(driver.runPreparations(), 1)
      driver.advance(by: 1.0 / 60 - 0.003)  // 3 ms left
      source.tick()
      driver.runPass()
      XCTAssertEqual(applied, [], "a 6 ms apply does not start 3 ms before the frame")
      source.deadline = driver.now + 0.003 + 1.0 / 60
      driver.advance(by: 0.003)
      source.tick()
      driver.runPass()
      XCTAssertEqual(applied, [0], "a whole frame ahead it fits")

      queue.addTask(key: 1, estimatedCost: 0.002) { _ in
        1
      } apply: {
        applied.append($0)
      }
      driver.runTrackingPass()
      XCTAssertEqual(driver.runPreparations(), 1)
      source.deadline = driver.now + 1.0 / 60
      source.tick()
      driver.runTrackingPass()
      XCTAssertEqual(applied, [0, 1], "the first tracking pass after the arrival applies it")
      assertPreparedBalanced(queue)
    }
  }

  /// A `prepare` that takes long (or hangs) with nothing runnable does not keep the display link ticking: it
  /// stops ``QueueCore/clockKeepAliveWhilePreparing`` after the queue last had runnable work. The result that
  /// arrives later starts it again, and its apply waits for the first frame rather than running unbounded.
  func testTheFrameClockStopsWhileOnlyALongPrepareRuns() {
    MainActor.assumeIsolated {
      let (queue, driver, source) = queueOnALinkThatKnowsItsFrame()
      var applied: [Int] = []
      queue.addTask(key: 0, estimatedCost: 0.006) { _ in
        0
      } apply: {
        applied.append($0)
      }
      driver.runPass()
      XCTAssertTrue(source.isRunning, "kept for a result due soon")
      driver.advance(by: 0.2)  // the prepare runs on: 0.2 s, twelve frames
      driver.runPass()
      XCTAssertFalse(source.isRunning, "the display link ticks for as long as a prepare runs")
      XCTAssertEqual(driver.runPreparations(), 1)
      driver.runPass()
      XCTAssertTrue(source.isRunning, "an arrival starts the clock")
      XCTAssertEqual(applied, [], "applied before the restarted clock knew a frame")
      source.deadline = driver.now + 1.0 / 60
      source.tick()
      driver.runPass()
      XCTAssertEqual(applied, [0], "applied at the first frame")
      assertPreparedBalanced(queue)
    }
  }

  /// The keep-alive while only results are awaited counts from when the queue began awaiting them, not from its last
  /// idle moment: a queue idle for half a second (a row scrolls in after the user paused) keeps its display link
  /// running in the pass after a prepared task is added. Stopped there, the link would restart when the result
  /// arrives a few milliseconds later and wait for its first tick: the apply would slip a frame, the case the
  /// keep-alive exists for.
  func testTheClockKeepsRunningForAResultDueSoonAfterTheQueueWasIdle() {
    MainActor.assumeIsolated {
      let (queue, driver, source) = queueOnALinkThatKnowsItsFrame()
      driver.runPass()  // idle: nothing pending
      driver.advance(by: 0.5)  // the user reads the screen for half a second
      source.deadline = driver.now + 1.0 / 60
      var applied: [Int] = []
      queue.addTask(key: 0, estimatedCost: 0.002) { _ in
        0
      } apply: {
        applied.append($0)
      }
      XCTAssertTrue(source.isRunning, "adding the task starts the clock")
      let stopsBefore = source.stops
      driver.runPass()  // only a task waiting for its result, which is due in a few milliseconds
      XCTAssertTrue(
        source.isRunning && source.stops == stopsBefore,
        "the display link was stopped in the first pass after the task was added (keep-alive measured from "
          + "the queue's last idle moment, 0.5 s ago, not from when it began awaiting the result)")
      queue.invalidate()
    }
  }
}
