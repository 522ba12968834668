import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkPreparation
@testable import IdleWorkTesting

/// `wastedPreparations`: a render whose result no task applies counts as wasted, once, whichever way its last task
/// leaves; a render whose apply configures its own cell again was applied.
final class WastedRenderTests: XCTestCase {
  typealias Cell = PreparedTaskTests.Cell

  /// An apply that configures its own cell again (a reload of the row it filled) applied the result:
  /// it is not counted wasted.
  func testAnApplyThatConfiguresItsCellAgainIsNotAWastedRender() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let cell = Cell()
      queue.bind(cell, to: 0)
      queue.addTask(for: cell, at: 0) { _ in
        "row 0"
      } apply: { cell, value in
        cell.shown.append(value)
        queue.bind(cell, to: 0)  // e.g. `reloadRows` for the new height reconfigures the cell at once
      }
      driver.runPreparations()
      driver.drain()
      XCTAssertEqual(cell.shown, ["row 0"])
      let s = queue.counts
      XCTAssertEqual(s.executed, 1)
      XCTAssertEqual(queue.counts.wastedPreparations, 0, "the render was applied")
      assertPreparedBalanced(queue)
    }
  }

  /// Wasted renders are counted once each, whichever way their last task leaves.
  func testWastedRendersAreCountedOnceEach() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(maximumQueueLength: 100)
      let cells = (0..<4).map { _ in Cell() }
      for (row, cell) in cells.enumerated() {
        queue.bind(cell, to: row)
        queue.addTask(for: cell, at: row, content: row % 2) { _ in
          "content \(row % 2)"
        } apply: { cell, value in
          cell.shown.append(value)
        }
      }
      let cancelled = queue.addTask(key: "plain") { _ in
        0
      } apply: { _ in
        XCTFail("cancelled")
      }
      XCTAssertEqual(driver.runPreparations(), 3, "rows 0 and 2 share, rows 1 and 3 share, the plain one")
      // Every task leaves without applying, each a different way, before or after the results are taken in.
      queue.bind(cells[0], to: 10)
      queue.cellDidEndDisplaying(cells[1], at: 1)
      queue.cellDidEndDisplaying(cells[3], at: 3)
      XCTAssertTrue(cancelled.cancel())
      assertPreparedBalanced(queue)
      // Takes the results in (as every call that takes in other threads' work does), running nothing: row 0
      // is stale after its render, rows 1 and 3 are parked, row 2 waits for a pass.
      XCTAssertEqual(queue.cancelTasks(forKey: "nothing"), 0)
      assertPreparedBalanced(queue)
      queue.bind(cells[2], to: 12)
      queue.cancelTasks(forKey: 1)
      queue.bind(cells[3], to: 13)
      driver.drain()
      driver.runPass()
      assertPreparedBalanced(queue)
      XCTAssertEqual(cells.map(\.shown), [[], [], [], []])
      let s = queue.counts
      XCTAssertEqual(queue.counts.wastedPreparations, 3)
      XCTAssertEqual(s.executed, 0)
      XCTAssertEqual(s.cancelled, 2)
      XCTAssertEqual(s.skippedAsStale, 3)
      XCTAssertEqual(s.pending, 0)
    }
  }
}
