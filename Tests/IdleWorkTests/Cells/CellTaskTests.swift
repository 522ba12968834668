import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// `addTask(for:at:)`: the weakly held cell and its configuration decide whether a task is stale.
final class CellTaskTests: XCTestCase {
  func testTaskRunsWithTheCellWhileItStillShowsTheIndexPath() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let cell = FakeCell()
      var drawnInto: [ObjectIdentifier] = []
      queue.addTask(for: cell, at: row(4)) { cell in drawnInto.append(ObjectIdentifier(cell)) }
      driver.drain()
      XCTAssertEqual(drawnInto, [ObjectIdentifier(cell)])
    }
  }

  func testTaskForACellReboundToAnotherRowIsSkippedAsStale() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let cell = FakeCell()
      var ran: [Int] = []
      queue.addTask(for: cell, at: row(1)) { _ in ran.append(1) }
      queue.addTask(for: cell, at: row(12)) { _ in ran.append(12) }  // the cell is reused for row 12
      driver.drain()
      XCTAssertEqual(ran, [12])
      XCTAssertEqual(queue.statistics.skippedAsStale, 1)
      XCTAssertEqual(queue.statistics.executed, 1)
    }
  }

  func testTaskForAFreedCellIsSkippedAndTheCellIsNotKeptAlive() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      var ran = 0
      weak var weakCell: FakeCell?
      do {
        let cell = FakeCell()
        weakCell = cell
        queue.addTask(for: cell, at: row(0)) { _ in ran += 1 }
      }
      XCTAssertNil(weakCell, "the queue holds the cell weakly")
      driver.drain()
      XCTAssertEqual(ran, 0)
      XCTAssertEqual(queue.statistics.skippedAsStale, 1)
    }
  }

  func testTheKeyOfACellTaskIsItsIndexPath() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let a = FakeCell()
      let b = FakeCell()
      var ran: [String] = []
      queue.addTask(for: a, at: row(2, section: 1)) { _ in ran.append("a") }
      queue.addTask(for: b, at: row(3, section: 1)) { _ in ran.append("b") }
      XCTAssertEqual(queue.cancelTasks(forKey: row(2, section: 1)), 1)
      driver.drain()
      XCTAssertEqual(ran, ["b"])
    }
  }
}
