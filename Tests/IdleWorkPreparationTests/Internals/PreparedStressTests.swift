import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkPreparation

/// Thousands of prepared tasks on a real queue with several workers, the main thread
/// cancelling, rebinding cells and moving them off and on screen while renders run; renders poll
/// `isCancelled`, some throw, some share content. Every task must be accounted for exactly, no apply may
/// reach a cell that shows something else, and every worker must end with the queue. Run under TSan:
/// `swift test --sanitize=thread --scratch-path .build-tsan --filter PreparedStress`.
///
/// `IDLEWORK_PREPARED_STRESS_TASKS` overrides the 4,000 tasks.
final class PreparedStressTests: XCTestCase {
  /// A reused cell: what it shows now, set by the test when it binds it.
  final class StressCell {
    var row = -1
    var generation = 0
  }

  struct Broken: Error {}

  func testThousandsOfPreparedTasksWithCancelsRebindsAndFailures() {
    MainActor.assumeIsolated {
      let total = ProcessInfo.processInfo.environment["IDLEWORK_PREPARED_STRESS_TASKS"].flatMap { Int($0) } ?? 4_000
      let workers = 4
      let queue = IdleQueue(
        configuration: .init(
          budget: .tasks(64), maximumQueueLength: 256))
      _ = Preparer(queue: queue, configuration: .init(workers: workers, resultCacheLimit: 40 * 8))
      var rng = SeededGenerator(seed: 17)
      let cells = (0..<24).map { _ in StressCell() }
      var handles: [IdleTaskHandle] = []
      let renders = Counter()
      let cancelledRenders = Counter()
      var applies = 0
      var wrongCellApplies = 0
      var appliedIDs = Set<Int>()
      var appliedTwice = 0
      var nextGeneration = 0
      var added = 0
      let started = Date()

      @MainActor func bind(_ cell: StressCell, to row: Int) {
        nextGeneration += 1
        cell.row = row
        cell.generation = nextGeneration
        queue.bind(cell, to: row)
      }

      while added < total {
        let cell = rng.pick(cells)
        switch rng.int(0...99) {
        case 0..<55:
          // Configure a cell and queue its draws: some share content with other rows.
          if rng.chance(60) { bind(cell, to: rng.int(0...199)) }
          let id = added
          let (row, generation) = (cell.row, cell.generation)
          let content: Int? = rng.chance(30) ? row % 40 : nil
          let fails = id % 23 == 0
          let steps = rng.int(1...40)
          handles.append(
            queue.addTask(
              for: cell, at: row, key: id % 7, content: content, droppable: rng.chance(15),
              resultBytes: { _ in 8 }
            ) { isCancelled in
              renders.increment()
              var sum = 0
              for step in 0..<steps {
                if isCancelled() {
                  cancelledRenders.increment()
                  throw CancellationError()
                }
                sum &+= step
              }
              if fails { throw Broken() }
              return (content ?? -1, sum)
            } apply: { cell, value in
              applies += 1
              if cell.row != row || cell.generation != generation || (content != nil && value.0 != content) {
                wrongCellApplies += 1
              }
              if !appliedIDs.insert(id).inserted { appliedTwice += 1 }
            })
          added += 1
        case 55..<62:
          if !handles.isEmpty { handles[rng.int(0...handles.count - 1)].cancel() }
        case 62..<65:
          queue.cancelTasks(forKey: rng.int(0...6))
        case 65..<75:
          if cell.row >= 0 { queue.cellDidEndDisplaying(cell, at: cell.row) }
        case 75..<85:
          if cell.row >= 0 { queue.cellWillDisplay(cell, at: cell.row) }
        case 85..<88:
          queue.dropDiscardableTasks()
        default:
          _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.000_2))
        }
        if handles.count > 512 { handles.removeFirst(256) }
      }
      // Every cell back on screen, so that parked tasks can finish; then drain.
      for cell in cells where cell.row >= 0 { queue.cellWillDisplay(cell, at: cell.row) }
      spin(until: { queue.pendingTaskCount == 0 }, timeout: 30)
      let line = queue.core.preparation!.line
      let pool = line.pool
      let statistics = queue.counts
      queue.invalidate()
      spin(until: { pool.threadCounts.now == 0 }, timeout: 10)

      XCTAssertEqual(wrongCellApplies, 0, "results applied to a cell that shows something else")
      XCTAssertEqual(appliedTwice, 0, "tasks applied twice")
      XCTAssertEqual(statistics.added, total)
      XCTAssertEqual(statistics.executed, applies)
      XCTAssertEqual(statistics.pending, 0)
      XCTAssertTrue(statistics.isBalanced, statistics.summary)
      XCTAssertGreaterThan(queue.counts.failed, 0, "some renders threw")
      XCTAssertGreaterThan(statistics.cancelled, 0)
      XCTAssertGreaterThan(statistics.skippedAsStale, 0)
      XCTAssertGreaterThan(applies, 0)
      XCTAssertLessThanOrEqual(line.peakRunningCount, workers, "more renders ran at once than the queue's workers")
      XCTAssertEqual(pool.threadCounts.now, 0, "a worker outlived the queue")
      print(
        "prepared stress: \(statistics.summary)"
          + "wasted \(queue.counts.wastedPreparations), renders \(renders.value) "
          + "(\(cancelledRenders.value) stopped on isCancelled), peak renders at once \(line.peakRunningCount), "
          + String(format: "%.2f s", Date().timeIntervalSince(started)))
    }
  }
}
