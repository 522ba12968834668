import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// A cell's liveness is read while another thread may be releasing it: the registry holds its cells without
/// a weak reference where cells are native Swift objects (see `CellRegistry.Record`), so this runs under
/// ThreadSanitizer in CI. 10,000 cells, three tasks each; a background thread holds the only references and
/// releases them in a random order while the main thread runs passes. Every task runs with its own cell
/// (never another at a reused address) or is skipped as stale once its cell is gone, and the accounting is
/// exact.
final class CellReleaseStressTests: XCTestCase {
  func testCellsReleasedOnAnotherThreadWhileThePassesRun() {
    MainActor.assumeIsolated {
      let cellCount = 10_000
      let driver = ManualPassDriver()
      var configuration = IdleQueue.Configuration()
      configuration.maximumQueueLength = Int.max
      configuration.budget = .tasks(7)
      let queue = IdleQueue(driver: driver, configuration: configuration)
      defer { queue.invalidate() }
      var cells: [NumberedCell] = []
      var ran = 0
      var misplaced = 0
      for index in 0..<cellCount {
        let cell = NumberedCell(number: index)
        let path = IndexPath(indexes: [0, index])
        queue.bind(cell, to: path)
        for _ in 0..<3 {
          queue.addTask(for: cell, at: path) { cell in
            ran += 1
            if cell.number != index { misplaced += 1 }
          }
        }
        cells.append(cell)
      }
      releaseOnAnotherThread(&cells, seed: 16) { driver.runPass() }
      driver.drain()
      let statistics = queue.statistics
      XCTAssertEqual(misplaced, 0, "a task ran with another cell")
      XCTAssertEqual(statistics.executed, ran)
      XCTAssertEqual(statistics.executed + statistics.skippedAsStale, cellCount * 3, "\(statistics)")
      XCTAssertEqual(statistics.pending, 0)
      XCTAssertGreaterThan(statistics.skippedAsStale, 0, "no cell was released before its tasks ran")
    }
  }
}

/// A cell that knows the row it was made for.
private final class NumberedCell {
  let number: Int
  init(number: Int) { self.number = number }
}
