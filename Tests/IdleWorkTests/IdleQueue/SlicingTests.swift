import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// Slicing heavy work: resumable tasks.
final class SlicingTests: XCTestCase {
  func testAResumableTaskRunsOneSlicePerPassAndKeepsItsPlace() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      var log: [String] = []
      var slicesLeft = 3
      queue.addResumableTask(key: "job") { _ in
        log.append("job")
        slicesLeft -= 1
        return slicesLeft == 0
      }
      queue.addTask(key: "next") { log.append("next") }
      driver.runPass()
      XCTAssertEqual(queue.pendingTaskCount, 2, "an unfinished job stays pending")
      driver.drain()
      XCTAssertEqual(log, ["job", "job", "job", "next"], "the resumed slice keeps its place at the head")
      XCTAssertEqual(queue.statistics.executed, 2)
      XCTAssertEqual(queue.statistics.slicesRun, 4)
    }
  }

  func testAThirtyMillisecondJobBecomesThirtyOneMillisecondSlices() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      var done = 0
      queue.addResumableTask(key: "heavy") { _ in
        driver.advance(by: 0.001)
        done += 1
        return done >= 30
      }
      XCTAssertEqual(driver.drain(), 30)
      XCTAssertEqual(done, 30)
      XCTAssertEqual(queue.statistics.longestPassDuration, 0.001, accuracy: 1e-9)
    }
  }

  func testAResumableTaskCancelledBetweenSlicesNeverResumes() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      var slices = 0
      let handle = queue.addResumableTask(key: "job") { _ in
        slices += 1
        return false
      }
      driver.runPass()
      XCTAssertTrue(handle.cancel())
      driver.drain()
      XCTAssertEqual(slices, 1)
      XCTAssertEqual(queue.statistics.cancelled, 1)
      XCTAssertTrue(queue.statistics.isBalanced)
    }
  }

  func testAResumableCellTaskStopsWhenItsCellIsRebound() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let cell = FakeCell()
      var slices = 0
      queue.addResumableTask(for: cell, at: row(0)) { _, _ in
        slices += 1
        return false
      }
      driver.runPass()
      driver.runPass()
      queue.bind(cell, to: row(1))  // the cell is configured for another row
      driver.drain()
      XCTAssertEqual(slices, 2)
      XCTAssertEqual(queue.statistics.skippedAsStale, 1)
    }
  }
}
