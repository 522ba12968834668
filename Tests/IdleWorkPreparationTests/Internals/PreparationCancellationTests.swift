import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkPreparation
@testable import IdleWorkTesting

/// Eviction, cancels and a cell configured again reach a prepared task's render: one not started is dropped, one
/// running is told (`isCancelled()` turns true), and a render that never arrives frees what its tasks capture.
final class PreparationCancellationTests: XCTestCase {
  typealias Cell = PreparedTaskTests.Cell

  /// Detects when an object that a `prepare` (any thread) captures is freed.
  final class SendableProbe: Sendable {}

  /// Capacity 0 evicts a prepared task at once and drops its render unstarted; a full queue evicts the
  /// oldest waiting task, whose render a running worker is then told is cancelled.
  func testEvictionDropsOrCancelsTheRender() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(maximumQueueLength: 0)
      let handle = queue.addTask(key: 0) { _ in
        0
      } apply: { _ in
        XCTFail("evicted")
      }
      XCTAssertFalse(handle.isPending)
      XCTAssertEqual(driver.runPreparations(), 0, "the evicted task's render never starts")
      XCTAssertEqual(queue.counts.evicted, 1)
      assertPreparedBalanced(queue)

      queue.maximumQueueLength = 1
      let seen = Log()
      queue.addTask(key: 1) { isCancelled in
        // Running: a newer task overflows the queue and evicts this one.
        MainActor.assumeIsolated {
          _ = queue.addTask(key: 2) { _ in
            2
          } apply: {
            seen.append($0)
          }
        }
        seen.append(isCancelled() ? -1 : 1)
        return 1
      } apply: { _ in
        XCTFail("evicted")
      }
      XCTAssertEqual(driver.runPreparations(), 2)
      driver.drain()
      XCTAssertEqual(seen.values, [-1, 2], "isCancelled turned true on eviction; the newer task applied")
      let s = queue.counts
      XCTAssertEqual(s.evicted, 2)
      XCTAssertEqual(s.executed, 1)
      XCTAssertEqual(queue.counts.wastedPreparations, 1)
      assertPreparedBalanced(queue)
    }
  }

  /// `cancelTasks(forKey:)` and a handle's `cancel()` drop renders not started and tell running ones.
  func testCancelsDropWaitingRendersAndTellRunningOnes() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let ran = Log()
      queue.addTask(key: "a") { _ in
        ran.append(0)
      } apply: { _ in
        XCTFail("cancelled")
      }
      queue.addTask(key: "a") { _ in
        ran.append(1)
      } apply: { _ in
        XCTFail("cancelled")
      }
      let handle = queue.addTask(key: "b") { _ in
        ran.append(2)
      } apply: { _ in
        XCTFail("cancelled")
      }
      XCTAssertEqual(queue.cancelTasks(forKey: "a"), 2)
      XCTAssertTrue(handle.cancel())
      XCTAssertFalse(handle.cancel(), "once")
      XCTAssertEqual(driver.runPreparations(), 0)
      XCTAssertEqual(ran.values, [])
      let seen = Log()
      queue.addTask(key: "c") { isCancelled in
        seen.append(isCancelled() ? 1 : 0)
        MainActor.assumeIsolated { _ = queue.cancelTasks(forKey: "c") }
        seen.append(isCancelled() ? 1 : 0)
        throw CancellationError()  // stops on isCancelled: not a wasted render
      } apply: { (_: Int) in
        XCTFail("cancelled")
      }
      XCTAssertEqual(driver.runPreparations(), 1)
      driver.drain()
      XCTAssertEqual(seen.values, [0, 1])
      let s = queue.counts
      XCTAssertEqual(s.cancelled, 4)
      XCTAssertEqual(queue.counts.failed, 0, "a task cancelled before its render threw is cancelled, not failed")
      XCTAssertEqual(queue.counts.wastedPreparations, 0)
      assertPreparedBalanced(queue)
    }
  }

  /// A render dropped before it started (its task cancelled, its cell configured again) or running when the
  /// queue ends frees its `prepare` and `apply` and what they capture (a render and its requests must not hold each
  /// other).
  func testARenderThatNeverArrivesFreesWhatItsTasksCapture() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      weak var cancelledCapture: SendableProbe?
      weak var reboundCapture: SendableProbe?
      weak var endedCapture: SendableProbe?
      let cell = Cell()
      do {
        let probe = SendableProbe()
        cancelledCapture = probe
        let handle = queue.addTask(key: "cancelled") { _ in
          withExtendedLifetime(probe) { 1 }
        } apply: { _ in
          withExtendedLifetime(probe) {}
        }
        XCTAssertTrue(handle.cancel())
      }
      do {
        let probe = SendableProbe()
        reboundCapture = probe
        queue.bind(cell, to: 0)
        queue.addTask(for: cell, at: 0) { _ in
          withExtendedLifetime(probe) { "row 0" }
        } apply: { cell, value in
          withExtendedLifetime(probe) { cell.shown.append(value) }
        }
        queue.bind(cell, to: 1)  // the render is dropped unstarted; the stale task leaves at the next pass
      }
      XCTAssertEqual(driver.runPreparations(), 0, "both renders were dropped before they started")
      driver.runPass()
      assertPreparedBalanced(queue)
      XCTAssertNil(cancelledCapture, "a cancelled task's closures outlive it")
      XCTAssertNil(reboundCapture, "a rebound cell's task's closures outlive it")
      do {
        let probe = SendableProbe()
        endedCapture = probe
        queue.addTask(key: "running at the end") { _ in
          // Runs by hand on the main thread: the queue ends while this render runs.
          MainActor.assumeIsolated { queue.invalidate() }
          return 1
        } apply: { _ in
          withExtendedLifetime(probe) {}
        }
      }
      XCTAssertEqual(driver.runPreparations(), 1)
      assertPreparedBalanced(queue)
      XCTAssertEqual(queue.counts.cancelled, 2)
      XCTAssertNil(endedCapture, "a task of an ended queue keeps its apply alive")
      XCTAssertEqual(cell.shown, [])
    }
  }
}
