import Foundation
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
      let handOver = CellHandOver(cells)
      cells = []
      let go = DispatchSemaphore(value: 0)
      let done = DispatchSemaphore(value: 0)
      Thread {
        var rest = handOver.take()
        go.wait()  // until the passes begin
        var generator = SeededGenerator(seed: 16)
        while !rest.isEmpty {
          rest.swapAt(Int.random(in: 0..<rest.count, using: &generator), rest.count - 1)
          rest.removeLast()  // the last reference: the cell deinitialises on this thread
        }
        done.signal()
      }.start()
      var passes = 0
      go.signal()
      repeat {
        driver.runPass()
        passes += 1
      } while done.wait(timeout: .now()) == .timedOut
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

/// Hands the cells to the releasing thread.
private final class CellHandOver: @unchecked Sendable {
  // @unchecked Sendable: the main thread writes `cells` before starting the thread, which only reads it
  // (the thread's start orders the two), and nothing touches it afterwards.
  private var cells: [NumberedCell]
  init(_ cells: [NumberedCell]) { self.cells = cells }
  func take() -> [NumberedCell] {
    defer { cells = [] }
    return cells
  }
}
