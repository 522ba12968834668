import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// Table-view event sequences: `bind` at the top of `cellForRowAt`, `willDisplay`,
/// `didEndDisplaying`, reloads and prefetching, stepped on the manual driver.
final class CellLifecycleTests: XCTestCase {
  func testAReusedCellsDrawsForItsOldRowAreStaleOnceItIsBoundToAnother() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let cell = FakeCell()
      var ran: [String] = []
      configure(cell, at: row(1), content: "row 1", on: queue) { ran.append($0) }
      queue.bind(cell, to: row(9))  // reused for a text-only row: it queues nothing
      driver.drain()
      XCTAssertEqual(ran, [], "no draw for row 1 lands on the cell now showing row 9")
      XCTAssertEqual(queue.statistics.skippedAsStale, 2)
    }
  }

  func testACellReconfiguredForTheSameIndexPathDropsItsPreviousContentsTasks() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let cell = FakeCell()
      var ran: [String] = []
      configure(cell, at: row(3), content: "old", on: queue) { ran.append($0) }
      driver.runPass()  // one old draw ran
      // reloadData / reconfigureRows / a new snapshot: cellForRowAt runs again for row 3 with new content.
      configure(cell, at: row(3), content: "new", on: queue) { ran.append($0) }
      driver.drain()
      XCTAssertEqual(ran, ["old 0", "new 0", "new 1"], "the old content's second draw never runs")
      XCTAssertEqual(queue.statistics.skippedAsStale, 1, "counted as stale")
      XCTAssertEqual(queue.statistics.executed, 3)
      XCTAssertTrue(queue.statistics.isBalanced)
    }
  }

  func testTasksAddedAfterBindJoinTheCurrentConfiguration() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let cell = FakeCell()
      var ran: [String] = []
      queue.bind(cell, to: row(2))
      queue.addTask(for: cell, at: row(2)) { _ in ran.append("a") }
      queue.addTask(for: cell, at: row(2)) { _ in ran.append("b") }
      driver.drain()
      XCTAssertEqual(ran, ["a", "b"], "tasks of one configuration do not make each other stale")
    }
  }

  func testAnOffScreenCellsTasksWaitAndDoNotRunAheadOfVisibleRows() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let gone = FakeCell()
      let visible = FakeCell()
      var ran: [String] = []
      configure(gone, at: row(0), content: "gone", draws: 3, on: queue) { ran.append($0) }
      configure(visible, at: row(5), content: "visible", draws: 1, on: queue) { ran.append($0) }
      queue.cellDidEndDisplaying(gone, at: row(0))
      driver.runPass()
      XCTAssertEqual(ran, ["visible 0"], "the visible row's task runs in the first pass")
      XCTAssertLessThanOrEqual(driver.drain(), 1, "parked work asks for no pass: the loop can sleep")
      XCTAssertFalse(driver.isPassRequested)
      XCTAssertEqual(ran, ["visible 0"], "the off-screen cell's tasks wait")
      XCTAssertEqual(queue.pendingTaskCount, 3, "waiting, not lost")
      XCTAssertTrue(queue.statistics.isBalanced)
    }
  }

  func testACellShownAgainThroughWillDisplayWithoutCellForRowGetsItsContent() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let cell = FakeCell()
      var ran: [String] = []
      // Prefetching: cellForItemAt, willDisplay, didEndDisplaying, then willDisplay again with no new
      // cellForItemAt — UICollectionView does this when the user scrolls back a little.
      configure(cell, at: row(7), content: "row 7", on: queue) { ran.append($0) }
      queue.cellWillDisplay(cell, at: row(7))
      queue.cellDidEndDisplaying(cell, at: row(7))
      driver.drain()
      XCTAssertEqual(ran, [])
      queue.cellWillDisplay(cell, at: row(7))
      XCTAssertTrue(driver.isPassRequested, "the parked work asks for a pass")
      driver.drain()
      XCTAssertEqual(ran, ["row 7 0", "row 7 1"], "the cell is not left blank")
      XCTAssertEqual(queue.statistics.skippedAsStale, 0)
    }
  }

  func testDidEndDisplayingForAnIndexPathTheCellNoLongerShowsChangesNothing() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let cell = FakeCell()
      var ran: [String] = []
      configure(cell, at: row(4), content: "row 4", draws: 1, on: queue) { ran.append($0) }
      // After reloadData UIKit can report the end of display of the cell's previous index path.
      queue.cellDidEndDisplaying(cell, at: row(1))
      driver.drain()
      XCTAssertEqual(ran, ["row 4 0"])
    }
  }

  func testWillDisplayAtAnotherIndexPathStartsANewConfiguration() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let cell = FakeCell()
      var ran: [String] = []
      configure(cell, at: row(4), content: "row 4", draws: 1, on: queue) { ran.append($0) }
      queue.cellWillDisplay(cell, at: row(8))
      driver.drain()
      XCTAssertEqual(ran, [], "row 4's draw must not land on the cell shown at row 8")
      XCTAssertEqual(queue.statistics.skippedAsStale, 1)
    }
  }

  func testAnOffScreenCellIsReusedForAnotherRow() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let cell = FakeCell()
      var ran: [String] = []
      configure(cell, at: row(0), content: "row 0", on: queue) { ran.append($0) }
      queue.cellDidEndDisplaying(cell, at: row(0))
      configure(cell, at: row(20), content: "row 20", draws: 1, on: queue) { ran.append($0) }
      driver.drain()
      XCTAssertEqual(ran, ["row 20 0"], "the new row runs: binding puts the cell on screen again")
      XCTAssertEqual(queue.statistics.skippedAsStale, 2, "the parked tasks of row 0 became stale")
    }
  }

  func testOffScreenTasksAreEvictedBeforeVisibleOnesEvenIfNewer() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(maximumQueueLength: 4)
      let visible = FakeCell()
      let gone = FakeCell()
      var ran: [String] = []
      configure(visible, at: row(1), content: "visible", draws: 2, on: queue) { ran.append($0) }
      configure(gone, at: row(2), content: "gone", draws: 2, on: queue) { ran.append($0) }
      queue.cellDidEndDisplaying(gone, at: row(2))
      let other = FakeCell()
      configure(other, at: row(3), content: "other", draws: 2, on: queue) { ran.append($0) }
      XCTAssertEqual(queue.statistics.evicted, 2)
      queue.cellWillDisplay(gone, at: row(2))
      driver.drain()
      XCTAssertEqual(ran, ["visible 0", "visible 1", "other 0", "other 1"], "the off-screen draws went first")
    }
  }

  func testAPreviousOwnerAtTheSameAddressDoesNotLendItsConfiguration() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      var ran: [String] = []
      var kept: FakeCell?
      for i in 0..<200 {  // cells come and go, often at reused addresses; the last one stays
        let cell = FakeCell()
        queue.addTask(for: cell, at: row(0)) { _ in ran.append("\(i)") }
        if i == 199 { kept = cell }
      }
      driver.drain()
      XCTAssertEqual(ran, ["199"], "the live cell runs; no freed cell's task lands on it")
      XCTAssertEqual(queue.statistics.skippedAsStale, 199)
      withExtendedLifetime(kept) {}
    }
  }

  /// The tasks of a parked cell that is then released leave at the next pass, and what they captured is freed: with
  /// only parked tasks left, a pass still looks at them.
  func testParkedTasksOfAReleasedCellLeaveAtTheNextPass() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      weak var captured: Probe?
      do {
        let cell = FakeCell()
        let screen = Probe()
        captured = screen
        queue.bind(cell, to: row(0))
        queue.addTask(for: cell, at: row(0)) { _ in _ = screen }
        queue.cellDidEndDisplaying(cell, at: row(0))
        driver.runPass()
        XCTAssertEqual(queue.statistics.pending, 1, "parked while the cell lives")
        XCTAssertNotNil(captured)
      }
      driver.runPass()
      XCTAssertNil(captured, "the closure and what it captured are freed")
      XCTAssertEqual(queue.statistics.skippedAsStale, 1)
      XCTAssertEqual(queue.statistics.pending, 0)
      XCTAssertFalse(driver.isPassRequested)
    }
  }
}

/// `cellForRowAt` as the README writes it: bind, then queue the row's draws.
@MainActor private func configure(
  _ cell: FakeCell, at indexPath: IndexPath, content: String, draws: Int = 2, on queue: IdleQueue,
  log: @escaping @MainActor (String) -> Void
) {
  queue.bind(cell, to: indexPath)
  for i in 0..<draws { queue.addTask(for: cell, at: indexPath) { _ in log("\(content) \(i)") } }
}
