import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// Cell identity beyond index paths: table-view event sequences with inserts, deletes and
/// moves, in which UIKit shows cells at new index paths without a new `cellForRowAt`, stepped on the manual
/// driver with ``IdentityTable``, which calls the queue as an app with a diffable data source does: with item
/// identifiers.
///
/// Each test also says what the same sequence does when the app passes index paths instead of items, which the
/// queue treats as positions: with the table passing index paths, every test below fails.
final class CellIdentityTests: XCTestCase {
  /// An insert above the visible rows pushes the last one off screen; UIKit reports it at its new index path.
  /// With index paths, `cellDidEndDisplaying(cell, at: newPath)` parks nothing, so the off-screen row's three
  /// draws run (executed 15, pending 0).
  func testAnInsertAboveVisibleRowsKeepsTheirDrawsAndParksTheRowPushedOffScreen() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let table = IdentityTable(items: ["a", "b", "c", "d", "e"], visibleRows: 4, queue: queue)
      table.insert("new", at: 0)
      driver.drain()
      table.assertVisibleRowsAreDrawn()
      XCTAssertEqual(table.cell(showing: "d")?.drawn, [], "the row pushed off screen waits")
      XCTAssertEqual(table.misdrawn, 0)
      XCTAssertEqual(queue.statistics.executed, 12)
      XCTAssertEqual(queue.statistics.pending, 3, "the off-screen row's draws are parked, not run")
      XCTAssertEqual(queue.statistics.skippedAsStale, 0)
      XCTAssertTrue(queue.statistics.isBalanced)
    }
  }

  /// A cell scrolled off, then shown again (`willDisplay` without `cellForRowAt`, as collection-view
  /// prefetching does) after an insert above shifted its row. With index paths, `cellWillDisplay(cell, at:
  /// newPath)` takes the cell for new content and drops its draws, leaving it blank (drawn `[]`, 3 stale).
  func testACellShownAgainAfterAnInsertAboveKeepsItsDraws() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let table = IdentityTable(items: ["a", "b", "c"], visibleRows: 4, queue: queue)
      table.endDisplaying(row: 1)  // "b" scrolls off: its draws are parked
      driver.drain()
      XCTAssertEqual(queue.statistics.pending, 3)
      table.insert("new", at: 0)  // "b" is now row 2
      table.display(row: 2)  // shown again, without a new cellForRowAt
      driver.drain()
      table.assertVisibleRowsAreDrawn()
      XCTAssertEqual(table.misdrawn, 0)
      XCTAssertEqual(queue.statistics.skippedAsStale, 0, "nothing dropped")
      XCTAssertEqual(queue.statistics.pending, 0)
      XCTAssertTrue(queue.statistics.isBalanced)
    }
  }

  /// A delete above shifts the rows below up; the row below the deleted one later scrolls off at its new
  /// index path. With index paths, that `cellDidEndDisplaying` names a path the cell is not bound to and parks
  /// nothing, so the off-screen row's draws run (pending 0).
  func testADeleteAboveShiftsRowsUpAndTheirCellsStillPark() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let table = IdentityTable(items: ["a", "b", "c", "d", "e"], visibleRows: 3, queue: queue)
      table.delete(at: 0)  // "a"'s cell leaves and is reused for "d", the new last visible row
      table.endDisplaying(row: 0)  // "b", now row 0, scrolls off
      driver.drain()
      table.assertVisibleRowsAreDrawn()
      XCTAssertEqual(table.misdrawn, 0, "no draw for \"a\" lands on the cell now showing \"d\"")
      XCTAssertEqual(queue.statistics.skippedAsStale, 3, "\"a\"'s draws")
      XCTAssertEqual(queue.statistics.pending, 3, "\"b\"'s draws are parked")
      XCTAssertEqual(queue.statistics.executed, 6)
      XCTAssertTrue(queue.statistics.isBalanced)
    }
  }

  /// A move: UIKit moves the cell without reconfiguring it; later it scrolls off and comes back at its new
  /// index path. With index paths, parking misses it, and `willDisplay` at the new path rebinds the cell and
  /// drops its draws (drawn `[]`, 3 stale).
  func testAMovedCellParksAndComesBackAtItsNewIndexPathWithItsDraws() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let table = IdentityTable(items: ["a", "b", "c", "d"], visibleRows: 4, queue: queue)
      table.move(from: 3, to: 0)  // "d" to the top
      table.endDisplaying(row: 0)
      driver.drain()
      XCTAssertEqual(queue.statistics.executed, 9, "three rows' draws run")
      XCTAssertEqual(queue.statistics.pending, 3, "\"d\"'s wait")
      table.display(row: 0)
      driver.drain()
      table.assertVisibleRowsAreDrawn()
      XCTAssertEqual(table.misdrawn, 0)
      XCTAssertEqual(queue.statistics.executed, 12)
      XCTAssertEqual(queue.statistics.skippedAsStale, 0)
      XCTAssertTrue(queue.statistics.isBalanced)
    }
  }

  /// Reused cells across inserts, deletes and moves: no draw ever lands on a cell showing another item or on
  /// a cell off screen, and every task is accounted for. With index paths, the draws of a row pushed off screen
  /// at its new index path run there.
  func testASequenceOfEditsNeverMisdrawsAndAccountsForEveryTask() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(maximumQueueLength: 100)
      let table = IdentityTable(items: (0..<8).map { "item \($0)" }, visibleRows: 4, queue: queue)
      driver.runPass()
      table.insert("x", at: 1)
      driver.runPass()
      table.move(from: 3, to: 0)
      table.delete(at: 2)
      driver.runPass()
      table.insert("y", at: 0)
      table.endDisplaying(row: 2)
      table.display(row: 2)
      driver.drain()
      table.assertVisibleRowsAreDrawn()
      XCTAssertEqual(table.misdrawn, 0)
      XCTAssertEqual(table.drawnOffScreen, 0)
      XCTAssertEqual(queue.statistics.pending, table.offScreenDraws, "only rows off screen wait")
      XCTAssertTrue(queue.statistics.isBalanced)
    }
  }

  /// Two tables share one queue (`IdleQueue.main`), both with a row 0. With index paths as the cell tasks'
  /// keys, cancelling one table's row cancels the other's too (6 cancelled, not 3).
  func testTwoTablesSharingAQueueCancelTheirOwnTasksByItem() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let left = IdentityTable(items: ["l0", "l1"], visibleRows: 2, queue: queue)
      let right = IdentityTable(items: ["r0", "r1"], visibleRows: 2, queue: queue)
      XCTAssertEqual(queue.cancelTasks(forKey: "l0"), 3, "the item is the key")
      driver.drain()
      XCTAssertEqual(left.cell(showing: "l0")?.drawn, [])
      XCTAssertEqual(left.cell(showing: "l1")?.drawn, ["l1", "l1", "l1"])
      right.assertVisibleRowsAreDrawn()
      XCTAssertEqual(queue.statistics.cancelled, 3)
      XCTAssertTrue(queue.statistics.isBalanced)
    }
  }

  /// Two tables sharing a queue, each giving its tasks its own key: one table's tasks are cancelled as a
  /// group (its screen closed), the other's run. By index path, cancelling rows 0 and 1 cancels both tables'
  /// tasks (12, not 6).
  func testTwoTablesSharingAQueueCancelApartByAKeyOfTheirOwn() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let left = IdentityTable(items: ["a", "b"], visibleRows: 2, queue: queue, keyedByTable: true)
      let right = IdentityTable(items: ["a", "b"], visibleRows: 2, queue: queue, keyedByTable: true)
      XCTAssertEqual(queue.cancelTasks(forKey: ObjectIdentifier(left)), 6)
      XCTAssertEqual(queue.cancelTasks(forKey: "a"), 0, "the item is not the key when a key is given")
      driver.drain()
      XCTAssertEqual(left.cell(showing: "a")?.drawn, [])
      right.assertVisibleRowsAreDrawn()
      XCTAssertEqual(queue.statistics.executed, 6)
      XCTAssertEqual(queue.statistics.cancelled, 6)
      XCTAssertTrue(queue.statistics.isBalanced)
    }
  }

  /// A resumable cell task follows its item the same way, and takes a key of its own. With index paths, the
  /// cell, bound at row 1 and reported off screen at row 2 after an insert above, is not parked, so its slices
  /// run off screen.
  func testAResumableCellTaskFollowsItsItemAndTakesAKey() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let cell = FakeCell()
      var slices = 0
      queue.bind(cell, to: "b")
      queue.addResumableTask(for: cell, at: "b", key: 7) { _, _ in
        slices += 1
        return slices >= 3
      }
      // An insert above moves "b" from row 1 to row 2; it scrolls off there.
      queue.cellDidEndDisplaying(cell, at: "b")
      driver.drain()
      XCTAssertEqual(slices, 0, "parked by item")
      queue.cellWillDisplay(cell, at: "b")
      driver.runPass()
      XCTAssertEqual(slices, 1)
      XCTAssertEqual(queue.cancelTasks(forKey: "b"), 0, "a key given replaces the item")
      XCTAssertEqual(queue.cancelTasks(forKey: 7), 1, "its own key")
      XCTAssertTrue(queue.statistics.isBalanced)
    }
  }
}

/// A table view as UIKit drives one, small enough to step by hand: rows show items (identified by strings),
/// the first `visibleRows` rows are on screen, cells are reused. It calls the queue as an app's data source
/// and delegate do with a diffable data source — `bind` and three draws in `cellForRowAt`, `willDisplay`,
/// `didEndDisplaying` — passing each row's item identifier. UIKit's part: on an insert, delete or move, the
/// cells that stay on screen get no call; a row pushed off screen gets `didEndDisplaying` at its new index
/// path, a deleted row at its old one; a row coming on screen gets `cellForRowAt` and `willDisplay`.
@MainActor
final class IdentityTable {
  /// A reusable cell: what it shows now and what was drawn into it.
  final class Cell {
    var item: String?
    var drawn: [String] = []
  }

  private let queue: IdleQueue
  private var items: [String]
  private let visibleRows: Int
  /// The cell of each row on screen or scrolled off but not yet reused, by row.
  private var cells: [Int: Cell] = [:]
  /// Rows whose cell ended displaying and was not shown again.
  private var offScreen: Set<Int> = []
  private var reusePool: [Cell] = []
  /// Whether tasks are keyed by this table (`ObjectIdentifier(self)`) instead of by item.
  private let keyedByTable: Bool
  /// Draws that landed on a cell showing another item.
  private(set) var misdrawn = 0
  /// Draws that ran while their cell was off screen (scrolled off or waiting for reuse).
  private(set) var drawnOffScreen = 0

  init(items: [String], visibleRows: Int, queue: IdleQueue, keyedByTable: Bool = false) {
    self.items = items
    self.visibleRows = visibleRows
    self.queue = queue
    self.keyedByTable = keyedByTable
    for row in 0..<min(visibleRows, items.count) { showNewCell(at: row) }
  }

  /// The cell showing `item` (on screen, scrolled off or waiting for reuse), if any.
  func cell(showing item: String) -> Cell? { (Array(cells.values) + reusePool).first { $0.item == item } }

  /// The draws still waiting in cells off screen: scrolled off, or waiting for reuse (not configured again).
  var offScreenDraws: Int {
    (offScreen.compactMap { cells[$0] } + reusePool).reduce(0) { $0 + 3 - $1.drawn.count }
  }

  /// Every row on screen shows its item, drawn three times.
  func assertVisibleRowsAreDrawn(file: StaticString = #filePath, line: UInt = #line) {
    for row in 0..<min(visibleRows, items.count) where !offScreen.contains(row) {
      XCTAssertEqual(cells[row]?.item, items[row], "row \(row)", file: file, line: line)
      XCTAssertEqual(cells[row]?.drawn, Array(repeating: items[row], count: 3), "row \(row)", file: file, line: line)
    }
  }

  /// Whether `cell` is scrolled off or waiting for reuse.
  private func isOffScreen(_ cell: Cell) -> Bool {
    reusePool.contains { $0 === cell } || offScreen.contains { cells[$0] === cell }
  }

  /// `insertItems`: rows from `row` on move down one.
  func insert(_ item: String, at row: Int) {
    items.insert(item, at: row)
    shift(from: row, by: 1)
    if row < visibleRows { showNewCell(at: row) }
    pushOffScreen(row: visibleRows)
  }

  /// `deleteItems`: the row's cell ends displaying (at its old index path) and rows below move up.
  func delete(at row: Int) {
    if let cell = cells.removeValue(forKey: row) {
      queue.cellDidEndDisplaying(cell, at: items[row])
      reusePool.append(cell)
    }
    offScreen.remove(row)
    items.remove(at: row)
    shift(from: row + 1, by: -1)
    if visibleRows - 1 < items.count, cells[visibleRows - 1] == nil { showNewCell(at: visibleRows - 1) }
  }

  /// `moveItem`: the cell moves with its item, unconfigured.
  func move(from source: Int, to destination: Int) {
    let item = items.remove(at: source)
    items.insert(item, at: destination)
    var moved: [Int: Cell] = [:]
    var order = Array(0..<items.count)
    order.insert(order.remove(at: source), at: destination)
    for (newRow, oldRow) in order.enumerated() { moved[newRow] = cells[oldRow] }
    cells = moved
  }

  /// The row scrolls off; its cell is kept (a collection view keeps prefetched cells) and not reused.
  func endDisplaying(row: Int) {
    guard let cell = cells[row] else { return }
    queue.cellDidEndDisplaying(cell, at: items[row])
    offScreen.insert(row)
  }

  /// The row comes back with the cell it had, without `cellForRowAt`.
  func display(row: Int) {
    guard let cell = cells[row] else { return }
    queue.cellWillDisplay(cell, at: items[row])
    offScreen.remove(row)
  }

  /// The row at `row` (after an insert) is below the screen: its cell ends displaying and is reused.
  private func pushOffScreen(row: Int) {
    guard let cell = cells.removeValue(forKey: row) else { return }
    if !offScreen.contains(row) { queue.cellDidEndDisplaying(cell, at: items[row]) }
    offScreen.remove(row)
    // The cell waits in the pool with its draws parked, as UIKit's reuse queue holds it until it is needed.
    reusePool.append(cell)
  }

  /// Moves the cells of rows from `row` on by `offset` (an insert or delete above them).
  private func shift(from row: Int, by offset: Int) {
    var shifted: [Int: Cell] = [:]
    for (key, cell) in cells { shifted[key >= row ? key + offset : key] = cell }
    cells = shifted
    offScreen = Set(offScreen.map { $0 >= row ? $0 + offset : $0 })
  }

  /// `cellForRowAt` and `willDisplay` for a row coming on screen.
  private func showNewCell(at row: Int) {
    let cell = reusePool.popLast() ?? Cell()
    let item = items[row]
    cell.item = item
    cell.drawn = []
    queue.bind(cell, to: item)
    for _ in 0..<3 {
      let draw: @MainActor (Cell) -> Void = { [unowned self] cell in
        if cell.item != item { misdrawn += 1 }
        if isOffScreen(cell) { drawnOffScreen += 1 }
        cell.drawn.append(item)
      }
      if keyedByTable {
        queue.addTask(for: cell, at: item, key: ObjectIdentifier(self), draw)
      } else {
        queue.addTask(for: cell, at: item, draw)
      }
    }
    cells[row] = cell
    queue.cellWillDisplay(cell, at: item)
  }
}
