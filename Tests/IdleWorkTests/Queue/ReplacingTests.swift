import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// `replacesPending`: last wins, as YYTransaction's run-loop set.
final class ReplacingTests: XCTestCase {
  func testTheSameRequestMadeFiveTimesRunsOnceTheLastOneAtTheBack() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      var ran: [String] = []
      queue.addTask(key: "layout", replacesPending: true) { ran.append("layout 0") }
      queue.addTask(key: "other") { ran.append("other") }
      for i in 1...4 { queue.addTask(key: "layout", replacesPending: true) { ran.append("layout \(i)") } }
      XCTAssertEqual(queue.pendingTaskCount, 2)
      XCTAssertEqual(queue.statistics.cancelled, 4, "each replaced request is counted as cancelled")
      driver.drain()
      XCTAssertEqual(ran, ["other", "layout 4"], "the last request runs once, in the place of the last request")
      XCTAssertTrue(queue.statistics.isBalanced)
    }
  }

  func testAReplacingTaskAlsoReplacesOneAnotherThreadHandedOver() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      var ran: [String] = []
      XCTAssertTrue(queue.addTaskFromAnyThread(key: "layout") { ran.append("from another thread") })
      queue.addTask(key: "layout", replacesPending: true) { ran.append("replacement") }
      XCTAssertEqual(queue.statistics.cancelled, 1, "the handed-over task is pending, so it is replaced")
      driver.drain()
      XCTAssertEqual(ran, ["replacement"], "the replaced task never runs, before or after its replacement")
      XCTAssertTrue(queue.statistics.isBalanced)
    }
  }

  func testWithoutReplacingEveryRequestRuns() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      var ran = 0
      for _ in 1...5 { queue.addTask(key: "layout") { ran += 1 } }
      driver.drain()
      XCTAssertEqual(ran, 5)
    }
  }

  func testReplacingReleasesTheReplacedTaskAndItsHandleIsNoLongerPending() {
    MainActor.assumeIsolated {
      let (queue, _) = manualQueue()
      weak var released: Probe?
      var handle: IdleTaskHandle?
      do {
        let probe = Probe()
        released = probe
        handle = queue.addTask(key: 1) { _ = probe }
      }
      queue.addTask(key: 1, replacesPending: true) {}
      XCTAssertNil(released, "the replaced closure is released at once")
      XCTAssertEqual(handle?.isPending, false)
    }
  }
}
