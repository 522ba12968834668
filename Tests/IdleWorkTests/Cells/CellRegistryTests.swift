import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// The cell registry (``CellRegistry``): its shortcuts — the last record found and a table by cell address, both
/// unowned — stay right while cells are freed, their addresses reused and records pruned; a cell's liveness is read
/// without a weak reference, and a cell that something else refers to weakly is still seen alive, then released;
/// cells released on another thread while records are pruned (run under ThreadSanitizer in CI) leave the
/// accounting exact.
final class CellRegistryTests: XCTestCase {
  func testCellsFreedInLargeNumbersNeverLendTheirRecordsToNewCells() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(maximumQueueLength: 10_000)
      var kept: [FakeCell] = []
      var ran = 0
      var ranForFreed = 0
      for round in 0..<500 {
        do {
          let freed = FakeCell()
          queue.bind(freed, to: round)
          queue.addTask(for: freed, at: round) { _ in ranForFreed += 1 }
        }
        let cell = FakeCell()  // often at the freed cell's address
        kept.append(cell)
        queue.addTask(for: cell, at: round) { _ in ran += 1 }
        if round.isMultiple(of: 3) { queue.bind(kept[round / 2], to: -round) }  // rebinds an older cell
      }
      driver.drain()
      XCTAssertEqual(ranForFreed, 0)
      XCTAssertEqual(ran, 500 - 167, "every cell's task runs unless the cell was bound again")
      XCTAssertEqual(queue.statistics.skippedAsStale, 500 + 167)
      XCTAssertTrue(queue.statistics.isBalanced)
    }
  }

  /// A cell that something else refers to weakly (it has a side table), before or after it is bound, is still
  /// seen alive and then released.
  func testACellWithASideTableIsSeenAliveAndReleased() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver)
      var before: RichCell? = RichCell(number: 0)
      weak let weakBefore = before
      var after: RichCell? = RichCell(number: 1)
      queue.bind(before!, to: 0)
      queue.bind(after!, to: 1)
      weak let weakAfter = after
      var ran: [Int] = []
      queue.addTask(for: before!, at: 0) { cell in ran.append(cell.number) }
      queue.addTask(for: after!, at: 1) { cell in ran.append(cell.number) }
      queue.addTask(for: before!, at: 0) { cell in ran.append(cell.number) }
      queue.addTask(for: after!, at: 1) { cell in ran.append(cell.number) }
      driver.runPass()
      XCTAssertEqual(ran, [0], "the first pass runs one task")
      before = nil
      after = nil
      XCTAssertNil(weakBefore)
      XCTAssertNil(weakAfter)
      driver.drain()
      XCTAssertEqual(ran, [0])
      let s = queue.statistics
      XCTAssertEqual(s.skippedAsStale, 3, s.summary)
      XCTAssertTrue(s.isBalanced, s.summary)
    }
  }

  /// Cells released on another thread while the main thread binds new cells (so that the registry prunes
  /// its records of released cells, freeing their memory) and runs passes. Run under ThreadSanitizer.
  func testCellsReleasedOnAnotherThreadWhileRecordsArePruned() {
    MainActor.assumeIsolated {
      let cellCount = 10_000
      let driver = ManualPassDriver()
      var configuration = IdleQueue.Configuration()
      configuration.maximumQueueLength = Int.max
      configuration.budget = .tasks(5)
      let queue = IdleQueue(driver: driver, configuration: configuration)
      defer { queue.invalidate() }
      var cells: [RichCell] = []
      var ran = 0
      var misplaced = 0
      for index in 0..<cellCount {
        let cell = RichCell(number: index)
        queue.bind(cell, to: index)
        if index.isMultiple(of: 2) {
          queue.addTask(for: cell, at: index) { cell in
            ran += 1
            if cell.number != index { misplaced += 1 }
            cell.label.text = cell.text
          }
        }
        cells.append(cell)
      }
      var fresh = 0
      releaseOnAnotherThread(&cells, seed: 7) {
        driver.runPass()
        for _ in 0..<16 {
          let cell = RichCell(number: -1)
          queue.bind(cell, to: cellCount + fresh)
          fresh += 1
        }
      }
      driver.drain()
      let s = queue.statistics
      XCTAssertEqual(misplaced, 0)
      XCTAssertEqual(s.executed, ran)
      XCTAssertEqual(s.executed + s.skippedAsStale, cellCount / 2, s.summary)
      XCTAssertTrue(s.isBalanced, s.summary)
    }
  }
}
