import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// Tasks that call back into their queue while it runs them.
final class ReentrancyTests: XCTestCase {
  func testATaskMayAddTasks() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      var ran: [String] = []
      queue.addTask(key: 0) {
        ran.append("first")
        queue.addTask(key: 1) { ran.append("added by first") }
      }
      driver.drain()
      XCTAssertEqual(ran, ["first", "added by first"])
    }
  }

  func testATaskCancellingItsOwnKeyStillRunsOnceAndCancelsTheRest() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(budget: .tasks(5))
      var ran: [Int] = []
      queue.addTask(key: "k") {
        ran.append(1)
        XCTAssertEqual(queue.cancelTasks(forKey: "k"), 1, "only the other task with the key is still pending")
      }
      queue.addTask(key: "k") { ran.append(2) }
      driver.drain()
      XCTAssertEqual(ran, [1])
      XCTAssertEqual(queue.statistics.executed, 1)
      XCTAssertEqual(queue.statistics.cancelled, 1)
    }
  }

  func testATaskMayRemoveAllTasks() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(budget: .tasks(5))
      var ran: [Int] = []
      queue.addTask(key: 0) {
        ran.append(0)
        queue.cancelAllTasks()
      }
      for i in 1..<4 { queue.addTask(key: i) { ran.append(i) } }
      driver.drain()
      XCTAssertEqual(ran, [0])
      XCTAssertEqual(queue.statistics.cancelled, 3)
    }
  }

  func testATaskMayInvalidateItsQueue() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(budget: .tasks(5))
      var ran: [Int] = []
      queue.addTask(key: 0) {
        ran.append(0)
        queue.invalidate()
      }
      queue.addTask(key: 1) { ran.append(1) }
      driver.drain()
      XCTAssertEqual(ran, [0])
      XCTAssertTrue(driver.isStopped)
      XCTAssertTrue(queue.statistics.isBalanced)
    }
  }

  func testNoPassRunsInsideAnotherAndEachTaskRunsOnce() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(budget: .tasks(2))
      let (other, otherDriver) = manualQueue()
      var ran: [String] = []
      queue.addTask(key: 0) {
        ran.append("outer")
        // What a nested run loop would do: fire the observers again while this task is running.
        driver.runPass()
        otherDriver.runPass()
        ran.append("outer end")
      }
      queue.addTask(key: 1) { ran.append("second") }
      other.addTask(key: 0) { ran.append("other") }
      driver.runPass()
      XCTAssertEqual(ran, ["outer", "outer end", "second"])
      XCTAssertTrue(otherDriver.isPassRequested, "a refused pass is asked for again after the outer pass")
      otherDriver.drain()
      XCTAssertEqual(ran, ["outer", "outer end", "second", "other"])
    }
  }

  /// A task added by a running task runs in a later pass, as `addTask` says ("in a later idle pass"), even when the
  /// budget would allow more in this one: five self-re-posting tasks under `.tasks(3)` run one per pass.
  func testATaskAddedDuringAPassRunsInALaterPass() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(budget: .tasks(3))
      var runs: [Int] = []
      @MainActor func post(_ n: Int) {
        queue.addTask(key: n) {
          runs.append(n)
          if n < 5 { post(n + 1) }
        }
      }
      post(1)
      driver.runPass()
      XCTAssertEqual(runs, [1])
      XCTAssertTrue(driver.isPassRequested, "the re-posted task asks for a pass")
      driver.runPass()
      XCTAssertEqual(runs, [1, 2])
      XCTAssertEqual(driver.drain(), 3)
      XCTAssertEqual(runs, [1, 2, 3, 4, 5])
    }
  }
}
