import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// Several queues on one scheduler: one observer, one per-pass budget, served by priority then FIFO.
final class SharedSchedulerTests: XCTestCase {
  func testQueuesShareOneBudgetServedByPriorityThenFIFO() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let scheduler = IdleScheduler(driver: driver.core, budget: .tasks(3))
      let prefetch = IdleQueue(scheduler: scheduler, priority: 0, configuration: .init(budget: .tasks(10)))
      let visible = IdleQueue(scheduler: scheduler, priority: 10, configuration: .init(budget: .tasks(10)))
      var log: [String] = []
      for i in 0..<2 { prefetch.addTask(key: i) { log.append("prefetch \(i)") } }
      for i in 0..<2 { visible.addTask(key: i) { log.append("visible \(i)") } }
      driver.runPass()
      XCTAssertEqual(log, ["visible 0", "visible 1", "prefetch 0"], "3 tasks in total, the high priority first")
      driver.runPass()
      XCTAssertEqual(log.last, "prefetch 1")
      XCTAssertEqual(driver.passesRun, 2, "both queues are served by the same driver's passes")
    }
  }

  func testAMillisecondsBudgetCapsThePassAcrossQueues() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let scheduler = IdleScheduler(driver: driver.core, budget: .seconds(0.005))
      let a = IdleQueue(scheduler: scheduler, configuration: .init(budget: .tasks(100)))
      let b = IdleQueue(scheduler: scheduler, configuration: .init(budget: .tasks(100)))
      var ran = 0
      for queue in [a, b] {
        for i in 0..<10 {
          queue.addTask(key: i) {
            ran += 1
            driver.advance(by: 0.002)
          }
        }
      }
      let start = driver.now
      driver.runPass()
      XCTAssertEqual(ran, 3, "2, 4 ms are under 5 ms; the pass ends after the third")
      XCTAssertEqual(driver.now - start, 0.006, accuracy: 1e-12)
      driver.drain()
      XCTAssertEqual(ran, 20)
    }
  }

  func testEachQueuesOwnBudgetCapsItsShare() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let scheduler = IdleScheduler(driver: driver.core, budget: .tasks(4))
      let first = IdleQueue(scheduler: scheduler, configuration: .init(budget: .tasks(1)))
      let second = IdleQueue(scheduler: scheduler, configuration: .init(budget: .tasks(5)))
      var log: [String] = []
      for i in 0..<3 {
        first.addTask(key: i) { log.append("first") }
        second.addTask(key: i) { log.append("second") }
      }
      driver.runPass()
      XCTAssertEqual(log, ["first", "second", "second", "second"])
    }
  }

  func testInvalidatingOneQueueLeavesTheOthersRunning() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let scheduler = IdleScheduler(driver: driver.core, budget: nil)
      let a = IdleQueue(scheduler: scheduler)
      let b = IdleQueue(scheduler: scheduler)
      var ran: [String] = []
      a.addTask(key: 0) { ran.append("a") }
      b.addTask(key: 0) { ran.append("b") }
      a.invalidate()
      XCTAssertFalse(driver.isStopped, "a shared scheduler keeps its observer for the other queues")
      driver.drain()
      XCTAssertEqual(ran, ["b"])
      scheduler.stop()
      XCTAssertTrue(driver.isStopped)
    }
  }

  func testSharedSchedulerOnTheRealRunLoop() {
    MainActor.assumeIsolated {
      let scheduler = IdleScheduler(budget: .tasks(2))
      defer { scheduler.stop() }
      let low = IdleQueue(scheduler: scheduler, priority: 0)
      let high = IdleQueue(scheduler: scheduler, priority: 1)
      var log: [String] = []
      low.addTask(key: 0) { log.append("low") }
      high.addTask(key: 0) { log.append("high") }
      spin(until: { log.count == 2 }, timeout: 5)
      XCTAssertEqual(log, ["high", "low"])
    }
  }

  /// On a shared scheduler each queue's pass begins when its own serve begins, though every queue takes its results
  /// in before the first is served: a lower-priority queue's `.seconds` budget and its `longestPassDuration` are not
  /// charged the time a higher-priority queue's tasks took (it would run one task per pass whenever a higher queue
  /// ran longer than its budget, and report passes it never spent).
  func testASecondQueuesOwnBudgetIsNotChargedTheFirstQueuesTasks() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let scheduler = IdleScheduler(driver: driver.core, budget: nil)
      let first = IdleQueue(scheduler: scheduler, priority: 10, configuration: .init(budget: .tasks(1)))
      let second = IdleQueue(scheduler: scheduler, priority: 0, configuration: .init(budget: .seconds(0.008)))
      var log: [String] = []
      first.addTask(key: 0, estimatedCost: 0.010) {
        log.append("first")
        driver.advance(by: 0.010)
      }
      for i in 0..<2 {
        second.addTask(key: i, estimatedCost: 0.001) {
          log.append("second \(i)")
          driver.advance(by: 0.001)
        }
      }
      driver.runPass()
      XCTAssertEqual(
        log, ["first", "second 0", "second 1"],
        "the second queue's 8 ms budget was charged the first queue's 10 ms task: it ran one 1 ms task")
      XCTAssertEqual(
        second.statistics.longestPassDuration, 0.002, accuracy: 1e-9,
        "the second queue's longest pass includes the first queue's task")
      withExtendedLifetime((first, second)) {}
    }
  }
}
