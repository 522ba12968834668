import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkPreparation
@testable import IdleWorkTesting

/// Prepared tasks stepped by hand: `ManualPassDriver.runPreparations` plays the workers, passes the applies.
final class PreparedTaskTests: XCTestCase {
  final class Cell {
    var shown: [String] = []
  }

  /// A plain prepared task: prepared only when the worker runs, applied only in a pass, accounted as executed.
  func testPrepareRunsOffThePassAndApplyInAPass() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let prepared = Counter()
      var applied: [Int] = []
      queue.addTask(key: "k") { _ in
        prepared.increment()
        return 42
      } apply: { value in
        applied.append(value)
      }
      driver.drain()
      XCTAssertEqual(applied, [], "no apply before the result arrives")
      XCTAssertEqual(prepared.value, 0)
      XCTAssertFalse(driver.isPassRequested, "waiting for a result asks for no pass")
      XCTAssertEqual(driver.runPreparations(), 1)
      XCTAssertEqual(prepared.value, 1)
      XCTAssertTrue(driver.isPassRequested, "an arrival wakes the loop")
      XCTAssertEqual(applied, [])
      driver.runPass()
      XCTAssertEqual(applied, [42])
      let s = queue.counts
      XCTAssertEqual(s.added, 1)
      XCTAssertEqual(s.executed, 1)
      XCTAssertEqual(s.pending, 0)
      XCTAssertTrue(s.isBalanced, s.summary)
    }
  }

  /// A cell configured again before its render starts: the render is dropped unstarted, the task is stale.
  func testRebindDropsARenderNotStarted() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let cell = Cell()
      let prepared = Counter()
      queue.bind(cell, to: 0)
      queue.addTask(for: cell, at: 0) { _ in
        prepared.increment()
        return "row 0"
      } apply: { cell, value in
        cell.shown.append(value)
      }
      queue.bind(cell, to: 1)
      queue.addTask(for: cell, at: 1) { _ in
        prepared.increment()
        return "row 1"
      } apply: { cell, value in
        cell.shown.append(value)
      }
      XCTAssertEqual(driver.runPreparations(), 1, "the rebound row's render was dropped before it started")
      driver.drain()
      XCTAssertEqual(cell.shown, ["row 1"])
      let s = queue.counts
      XCTAssertEqual(s.skippedAsStale, 1)
      XCTAssertEqual(queue.counts.wastedPreparations, 0)
      XCTAssertTrue(s.isBalanced, s.summary)
    }
  }

  /// A result that arrives for a cell configured again meanwhile is dropped, counted stale after prepare and
  /// as a wasted render; never applied.
  func testResultForACellConfiguredAgainIsNeverApplied() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let cell = Cell()
      queue.bind(cell, to: 0)
      queue.addTask(for: cell, at: 0) { _ in
        "row 0"
      } apply: { cell, value in
        cell.shown.append(value)
      }
      XCTAssertEqual(driver.runPreparations(), 1)
      queue.bind(cell, to: 1)  // the result has arrived, not yet taken in
      driver.drain()
      XCTAssertEqual(cell.shown, [])
      let s = queue.counts
      XCTAssertEqual(s.skippedAsStale, 1)
      XCTAssertEqual(queue.counts.wastedPreparations, 1)
      XCTAssertTrue(s.isBalanced, s.summary)
    }
  }

  /// Off-screen cells' renders wait; on-screen ones go first, the row shown last first; a cell shown again gets its
  /// render.
  func testOffScreenRendersWaitAndVisibleGoFirst() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let cells = (0..<3).map { _ in Cell() }
      let order = Log()
      for (row, cell) in cells.enumerated() {
        queue.bind(cell, to: row)
        queue.addTask(for: cell, at: row) { _ in
          order.append(row)
          return "row \(row)"
        } apply: { cell, value in
          cell.shown.append(value)
        }
      }
      queue.cellDidEndDisplaying(cells[0], at: 0)
      XCTAssertEqual(driver.runPreparations(maximum: 1), 1)
      XCTAssertEqual(order.values, [2])
      XCTAssertEqual(driver.runPreparations(), 1)
      XCTAssertEqual(order.values, [2, 1], "the off-screen cell's render does not start")
      queue.cellWillDisplay(cells[0], at: 0)
      XCTAssertEqual(driver.runPreparations(), 1)
      driver.drain()
      XCTAssertEqual(cells.map(\.shown), [["row 0"], ["row 1"], ["row 2"]])
    }
  }

  /// Prefetches (discardable) are prepared after on-screen work.
  func testDiscardableRendersGoLast() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let order = Log()
      queue.addTask(key: 0, droppable: true) { _ in
        order.append(0)
      } apply: { _ in
      }
      queue.addTask(key: 1) { _ in
        order.append(1)
      } apply: { _ in
      }
      driver.runPreparations()
      XCTAssertEqual(order.values, [1, 0])
    }
  }

  /// A prefetch (a discardable task without a cell) never evicts a visible row's prepared task, which would
  /// leave that row blank: added to a full queue of them it evicts itself, and a visible row's task added to
  /// a full queue holding a prefetch evicts the prefetch, not the oldest row's task.
  func testAPrefetchNeverEvictsAVisibleRowsPreparedTask() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(maximumQueueLength: 3)
      let cells = (0..<4).map { _ in Cell() }
      @MainActor func configure(_ row: Int) -> IdleTaskHandle {
        queue.bind(cells[row], to: row)
        return queue.addTask(for: cells[row], at: row) { _ in
          "row \(row)"
        } apply: { cell, value in
          cell.shown.append(value)
        }
      }
      @MainActor func prefetch(_ page: Int) -> IdleTaskHandle {
        queue.addTask(key: "page \(page)", droppable: true) { _ in
          page
        } apply: { _ in
        }
      }
      let rows = (0..<3).map(configure)
      let first = prefetch(1)
      XCTAssertFalse(first.isPending, "the prefetch evicts itself")
      XCTAssertEqual(rows.map(\.isPending), [true, true, true], "no visible row's task is evicted")
      XCTAssertEqual(queue.counts.evicted, 1)
      XCTAssertEqual(driver.runPreparations(), 3)
      driver.drain()
      XCTAssertEqual(cells.map(\.shown), [["row 0"], ["row 1"], ["row 2"], []])

      // Row 0 (the oldest), a prefetch, row 1, and then row 3 scrolls in.
      let again = [configure(0), prefetch(2), configure(1)]
      let newRow = configure(3)
      XCTAssertEqual(again.map(\.isPending), [true, false, true], "the prefetch goes, not the oldest row's task")
      XCTAssertTrue(newRow.isPending)
      XCTAssertEqual(queue.counts.evicted, 2)
      driver.runPreparations()
      driver.drain()
      XCTAssertEqual(cells.map(\.shown), [["row 0", "row 0"], ["row 1", "row 1"], ["row 2"], ["row 3"]])
      XCTAssertTrue(queue.counts.isBalanced, queue.counts.summary)
    }
  }

  /// Same content while one is in flight: one render, each requester applies (its own stale check).
  func testSameContentSharesOneRender() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let renders = Counter()
      let a = Cell()
      let b = Cell()
      queue.bind(a, to: 0)
      queue.bind(b, to: 1)
      for (row, cell) in [a, b].enumerated() {
        queue.addTask(for: cell, at: row, content: "avatar") { _ in
          renders.increment()
          return "avatar"
        } apply: { cell, value in
          cell.shown.append(value)
        }
      }
      queue.bind(b, to: 2)  // b moves on: its request is stale, a's still applies
      XCTAssertEqual(driver.runPreparations(), 1)
      driver.drain()
      XCTAssertEqual(renders.value, 1)
      XCTAssertEqual(a.shown, ["avatar"])
      XCTAssertEqual(b.shown, [])
      XCTAssertEqual(queue.counts.wastedPreparations, 0)
      XCTAssertTrue(queue.counts.isBalanced)
    }
  }

  /// With a cache, a task for content already prepared applies at once, inside the call.
  func testCacheHitAppliesInsideTheCall() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver, configuration: .init())
      _ = Preparer(queue: queue, configuration: .init(resultCacheLimit: 1000))
      let renders = Counter()
      let cell = Cell()
      @MainActor func configure(_ row: Int) {
        queue.bind(cell, to: row)
        queue.addTask(for: cell, at: row, content: "photo", resultBytes: { _ in 100 }) { _ in
          renders.increment()
          return "photo"
        } apply: { cell, value in
          cell.shown.append(value)
        }
      }
      configure(0)
      driver.runPreparations()
      driver.drain()
      XCTAssertEqual(cell.shown, ["photo"])
      configure(0)  // reloaded with the same content
      XCTAssertEqual(cell.shown, ["photo", "photo"], "applied inside the call")
      XCTAssertEqual(renders.value, 1)
      XCTAssertEqual(queue.pendingTaskCount, 0)
      queue.dropDiscardableTasks()  // a memory warning empties the cache
      configure(0)
      XCTAssertEqual(cell.shown.count, 2)
      XCTAssertEqual(queue.counts.executed, 2)
      XCTAssertTrue(queue.counts.isBalanced)
    }
  }

  /// A throwing prepare counts the task as failed; its apply never runs.
  func testThrowingPrepareCountsFailed() {
    MainActor.assumeIsolated {
      struct Broken: Error {}
      let (queue, driver) = manualQueue()
      var applied = false
      queue.addTask(key: 0) { _ -> Int in
        throw Broken()
      } apply: { _ in
        applied = true
      }
      driver.runPreparations()
      driver.drain()
      XCTAssertFalse(applied)
      XCTAssertEqual(queue.counts.failed, 1)
      XCTAssertEqual(queue.counts.pending, 0)
      XCTAssertTrue(queue.counts.isBalanced)
    }
  }

  /// `isCancelled` turns true once every requester has left.
  func testIsCancelledTurnsTrueWhenTheTaskIsCancelled() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let seen = Log()
      var handle: IdleTaskHandle?
      handle = queue.addTask(key: 0) { isCancelled in
        seen.append(isCancelled() ? 1 : 0)
        MainActor.assumeIsolated { _ = handle?.cancel() }
        seen.append(isCancelled() ? 1 : 0)
        return 0
      } apply: { _ in
        XCTFail("cancelled")
      }
      driver.runPreparations()
      driver.drain()
      XCTAssertEqual(seen.values, [0, 1])
      XCTAssertEqual(queue.counts.cancelled, 1)
      XCTAssertEqual(queue.counts.wastedPreparations, 1)
      XCTAssertTrue(queue.counts.isBalanced)
    }
  }
}
