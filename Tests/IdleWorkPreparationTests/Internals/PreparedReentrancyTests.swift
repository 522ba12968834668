import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkPreparation
@testable import IdleWorkTesting

/// Applies that re-enter the queue.
final class PreparedReentrancyTests: XCTestCase {
  /// An apply that adds tasks, cancels others and invalidates the queue: accounted exactly, nothing runs
  /// after the invalidation, and the results that arrive later are dropped.
  func testAnApplyThatAddsCancelsAndInvalidates() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(budget: .tasks(10), maximumQueueLength: 100)
      var log: [String] = []
      queue.addTask(key: "first") { _ in
        "first"
      } apply: { value in
        log.append(value)
        queue.addTask(key: "added") { _ in
          "added"
        } apply: { value in
          log.append(value)
          queue.invalidate()
        }
        queue.addTask(key: "cut") { _ in
          "cut"
        } apply: {
          log.append($0)
        }
        XCTAssertEqual(queue.cancelTasks(forKey: "victim"), 1)
      }
      queue.addTask(key: "victim") { _ in
        "victim"
      } apply: {
        log.append($0)
      }
      XCTAssertEqual(driver.runPreparations(), 2)
      driver.drain()
      XCTAssertEqual(log, ["first"], "the victim was cancelled by the earlier apply, in the same pass")
      XCTAssertEqual(driver.runPreparations(maximum: 1), 1)
      driver.drain()
      XCTAssertEqual(log, ["first", "added"])
      XCTAssertEqual(driver.runPreparations(), 0, "the queue ended")
      driver.drain()
      XCTAssertEqual(log, ["first", "added"])
      let s = queue.counts
      XCTAssertEqual(s.added, 4)
      XCTAssertEqual(s.executed, 2)
      XCTAssertEqual(s.cancelled, 2)
      XCTAssertEqual(queue.counts.wastedPreparations, 1, "the victim's render")
      assertPreparedBalanced(queue)
    }
  }
}
