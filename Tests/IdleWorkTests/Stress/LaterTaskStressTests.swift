import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// Later tasks whose work four threads hand over while the main thread runs passes, rebinds cells, cancels tasks and
/// finally ends the queue: every task is accounted for once, each runs at most once and only with work, no work runs
/// after its task left, and no work is freed off the main thread. Run under TSan: `swift test --sanitize=thread
/// --scratch-path .build-tsan --filter LaterTaskStress`.
final class LaterTaskStressTests: XCTestCase {
  /// What a work closure captures: counts where it is freed.
  final class Capture: Sendable {
    let freedOffMain: Counter
    init(_ freedOffMain: Counter) { self.freedOffMain = freedOffMain }
    deinit { if !Thread.isMainThread { freedOffMain.increment() } }
  }

  func testWorkHandedOverFromManyThreadsWhilePassesRun() {
    MainActor.assumeIsolated {
      var rng = SeededGenerator(seed: 51)
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver, configuration: .init(budget: .tasks(8), maximumQueueLength: 3_900))
      let freedOffMain = Counter()
      let cells = (0..<400).map { _ in FakeCell() }
      let ranCounts = LockedBox<[Int: Int]>([:])
      let total = 4_000
      // Every tenth a cell's (400 cells, one row each), the rest plain; a fifth of the cells' rows go stale at once.
      var cellTasks: [(index: Int, task: LaterTask<FakeCell>)] = []
      var plainTasks: [(index: Int, task: LaterTask<Void>)] = []
      for index in 0..<total {
        if index % 10 == 0 {
          let cell = cells[index / 10]
          cellTasks.append((index, queue.addLaterTask(for: cell, at: row(index))))
          if Int.random(in: 0..<5, using: &rng) == 0 { queue.bind(cell, to: row(-1)) }
        } else {
          plainTasks.append((index, queue.addLaterTask(key: index)))
        }
      }
      let handOver = DispatchGroup()
      for share in 0..<4 {
        let cellShare = cellTasks.filter { $0.index % 4 == share }
        let plainShare = plainTasks.filter { $0.index % 4 == share }
        DispatchQueue.global().async(group: handOver) {
          for (index, task) in cellShare {
            let capture = Capture(freedOffMain)
            task.fulfill { _ in
              withExtendedLifetime(capture) {}
              ranCounts.update { $0[index, default: 0] += 1 }
            }
          }
          for (index, task) in plainShare {
            let capture = Capture(freedOffMain)
            task.fulfill { _ in
              withExtendedLifetime(capture) {}
              ranCounts.update { $0[index, default: 0] += 1 }
            }
          }
        }
      }
      var passes = 0
      while handOver.wait(timeout: .now()) == .timedOut {
        driver.runPass()
        passes += 1
        if passes % 7 == 0, let (_, task) = plainTasks.randomElement(using: &rng) { task.handle.cancel() }
        if passes % 11 == 0 { queue.bind(cells.randomElement(using: &rng)!, to: row(-2)) }
      }
      driver.drain()
      let statistics = queue.statistics
      queue.invalidate()
      spin(until: { freedOffMain.value == 0 }, timeout: 1)
      XCTAssertTrue(ranCounts.value.values.allSatisfy { $0 == 1 }, "a task's work ran twice")
      XCTAssertEqual(statistics.executed, ranCounts.value.count)
      XCTAssertEqual(
        statistics.added,
        statistics.executed + statistics.skippedAsStale + statistics.evicted + statistics.cancelled + statistics.pending
      )
      XCTAssertEqual(queue.statistics.pending, 0)
      XCTAssertEqual(freedOffMain.value, 0, "a work closure was freed off the main thread")
      XCTAssertGreaterThan(statistics.executed, 0)
      XCTAssertGreaterThan(statistics.skippedAsStale + statistics.evicted, 0)
      print("later-task stress: \(passes) passes while handing over; \(statistics)")
    }
  }
}
