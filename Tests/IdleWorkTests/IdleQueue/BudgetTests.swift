import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// Budgets, stepped exactly: tasks advance the manual clock to simulate their cost.
final class BudgetTests: XCTestCase {
  func testTasksBudgetRunsThatManyPerPass() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(budget: .tasks(3))
      var ran = 0
      for i in 0..<7 { queue.addTask(key: i) { ran += 1 } }
      driver.runPass()
      XCTAssertEqual(ran, 3)
      driver.runPass()
      XCTAssertEqual(ran, 6)
      driver.runPass()
      XCTAssertEqual(ran, 7)
      XCTAssertEqual(queue.statistics.passes, 3)
    }
  }

  func testMillisecondsBudgetRunsUntilTheTimeIsSpent() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(budget: .seconds(0.004))
      var ran = 0
      for i in 0..<10 {
        queue.addTask(key: i) {
          ran += 1
          driver.advance(by: 0.0015)
        }
      }
      driver.runPass()
      XCTAssertEqual(
        ran, 2, "1.5 ms, then 3.0 ms spent: a third task, predicted at 1.5 ms, would end at 4.5 ms, past the 4 ms")
      XCTAssertEqual(queue.statistics.longestPassDuration, 0.003, accuracy: 1e-9, "no overrun")
      driver.runPass()
      XCTAssertEqual(ran, 4)
    }
  }

  func testMillisecondsBudgetAlwaysRunsAtLeastOneTask() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(budget: .seconds(0.001))
      var ran = 0
      for i in 0..<3 {
        queue.addTask(key: i) {
          ran += 1
          driver.advance(by: 0.03)
        }
      }
      driver.runPass()
      XCTAssertEqual(ran, 1)
      XCTAssertEqual(queue.statistics.longestPassDuration, 0.030, accuracy: 1e-9)
    }
  }

  func testStaleTasksDoNotCountAgainstTheBudget() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(budget: .tasks(1))
      var ran: [Int] = []
      let cells = (0..<5).map { _ in FakeCell() }
      for (i, cell) in cells.enumerated() { queue.addTask(for: cell, at: row(i)) { _ in ran.append(i) } }
      for (i, cell) in cells.prefix(3).enumerated() { queue.bind(cell, to: row(i + 100)) }
      driver.runPass()
      XCTAssertEqual(ran, [3], "three stale tasks skipped for free, then one live task ran")
      XCTAssertEqual(queue.statistics.skippedAsStale, 3)
    }
  }

  func testBudgetIsSettable() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      var ran = 0
      for i in 0..<5 { queue.addTask(key: i) { ran += 1 } }
      queue.budget = .tasks(4)
      driver.runPass()
      XCTAssertEqual(ran, 4)
      XCTAssertEqual(queue.budget, .tasks(4))
    }
  }

  func testInvalidBudgetsAreDescribedWithTheParameterAndRange() {
    XCTAssertNil(IdleQueue.Budget.tasks(1).validationFailure)
    XCTAssertNil(IdleQueue.Budget.seconds(0.0005).validationFailure)
    for bad in [IdleQueue.Budget.tasks(0), .tasks(-3)] {
      XCTAssertTrue(bad.validationFailure?.contains("1...Int.max") ?? false, "\(bad)")
    }
    for bad in [IdleQueue.Budget.seconds(0.0), .seconds(-1), .seconds(.nan), .seconds(.infinity)] {
      XCTAssertTrue(bad.validationFailure?.contains("finite and greater than 0") ?? false, "\(bad)")
    }
  }
}
