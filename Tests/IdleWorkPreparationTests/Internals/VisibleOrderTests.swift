import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkPreparation
@testable import IdleWorkTesting

/// The order in which the workers start visible work, stepped by hand: plain tasks' preparations in the order
/// added, then cells on screen, the row shown last first — it stays on screen the longest, so during a fling that
/// outruns the workers a worker draws a row still there when its result arrives — then prefetches.
final class VisibleOrderTests: XCTestCase {
  final class Cell {
    var shown: [String] = []
  }

  /// Binds each cell to its row, in order, and asks for the row's image: the rows appear one after another.
  @MainActor
  private static func show(_ cells: [Cell], in queue: IdleQueue, with photo: Preparation<String, String>) {
    for (row, cell) in cells.enumerated() {
      queue.bind(cell, to: row)
      queue.preparer.addTask(for: cell, at: row, prepare: photo, from: "row \(row)") { cell, image in
        cell.shown.append(image)
      }
    }
  }

  /// Rows shown one after another during a scroll: the last shown is prepared first, then the one before it.
  func testTheRowShownLastIsPreparedFirst() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = PrefetchTests.prefetchingQueue()
      let cells = (0..<4).map { _ in Cell() }
      Self.show(cells, in: queue, with: photo)
      XCTAssertEqual(driver.runPreparations(maximum: 1), 1)
      XCTAssertEqual(log.entries, ["row 3"], "the oldest row, the first to leave the screen, was prepared first")
      let cell = Cell()
      queue.bind(cell, to: 4)
      queue.preparer.addTask(for: cell, at: 4, prepare: photo, from: "row 4") { cell, image in cell.shown.append(image)
      }
      driver.runPreparations()
      XCTAssertEqual(log.entries, ["row 3", "row 4", "row 2", "row 1", "row 0"])
      driver.drain()
      XCTAssertEqual((cells + [cell]).map(\.shown.count), [1, 1, 1, 1, 1])
      XCTAssertTrue(queue.counts.isBalanced, queue.counts.summary)
    }
  }

  /// A cell that leaves the screen and comes back is shown anew: its row goes before rows shown earlier. A row that
  /// joins a prefetch under way makes it its own, shown now.
  func testARowShownAgainOrJoiningAPrefetchIsTheLatest() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = PrefetchTests.prefetchingQueue()
      let cells = (0..<3).map { _ in Cell() }
      Self.show(cells, in: queue, with: photo)
      queue.cellDidEndDisplaying(cells[2], at: 2)
      queue.preparer.prefetch(photo, from: ["row 9"])
      queue.cellWillDisplay(cells[2], at: 2)  // back on screen: shown after rows 0 and 1
      let joining = Cell()
      queue.bind(joining, to: 9)
      queue.preparer.addTask(for: joining, at: 9, prepare: photo, from: "row 9") { cell, image in
        cell.shown.append(image)
      }
      driver.runPreparations()
      XCTAssertEqual(log.entries, ["row 9", "row 2", "row 1", "row 0"])
      driver.drain()
      XCTAssertEqual((cells + [joining]).map(\.shown.count), [1, 1, 1, 1])
      XCTAssertTrue(queue.counts.isBalanced, queue.counts.summary)
    }
  }

  /// Plain tasks have no row to scroll away: their preparations go first, in the order added, before cells'; then
  /// the cells', the latest first; prefetches last.
  func testPlainTasksGoFirstInTheOrderAdded() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = PrefetchTests.prefetchingQueue()
      queue.preparer.prefetch(photo, from: ["ahead"])
      let cells = (0..<2).map { _ in Cell() }
      queue.bind(cells[0], to: 0)
      queue.preparer.addTask(for: cells[0], at: 0, prepare: photo, from: "row 0") { cell, image in
        cell.shown.append(image)
      }
      queue.preparer.addTask(key: "a", prepare: photo, from: "plain a") { _ in }
      queue.bind(cells[1], to: 1)
      queue.preparer.addTask(for: cells[1], at: 1, prepare: photo, from: "row 1") { cell, image in
        cell.shown.append(image)
      }
      queue.preparer.addTask(key: "b", prepare: photo, from: "plain b") { _ in }
      XCTAssertEqual(PrefetchTests.prepareAll(driver), 5)
      XCTAssertEqual(log.entries, ["plain a", "plain b", "row 1", "row 0", "ahead"])
      driver.drain()
      XCTAssertTrue(queue.counts.isBalanced, queue.counts.summary)
    }
  }

  /// A cell leaving the screen holds its render back (a running one goes on); a cell shown again starts it;
  /// on-screen renders go before prefetches, prefetches before off-screen ones.
  func testDisplayDecidesWhichRendersStart() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let order = Log()
      let cells = (0..<3).map { _ in Cell() }
      for (row, cell) in cells.enumerated() {
        queue.bind(cell, to: row)
        queue.addTask(for: cell, at: row, droppable: row == 1) { _ in
          order.append(row)
          return "row \(row)"
        } apply: { cell, value in
          cell.shown.append(value)
        }
      }
      queue.cellDidEndDisplaying(cells[0], at: 0)
      queue.cellDidEndDisplaying(cells[2], at: 2)
      queue.cellWillDisplay(cells[2], at: 2)
      XCTAssertEqual(driver.runPreparations(), 2)
      XCTAssertEqual(order.values, [2, 1], "on screen first, then the prefetch; the off-screen one waits")
      driver.drain()
      XCTAssertEqual(cells.map(\.shown), [[], ["row 1"], ["row 2"]])
      XCTAssertEqual(queue.pendingTaskCount, 1, "the off-screen cell's task is parked")
      queue.cellWillDisplay(cells[0], at: 0)
      XCTAssertEqual(driver.runPreparations(), 1)
      driver.drain()
      XCTAssertEqual(cells[0].shown, ["row 0"])
      assertPreparedBalanced(queue)
    }
  }
}
