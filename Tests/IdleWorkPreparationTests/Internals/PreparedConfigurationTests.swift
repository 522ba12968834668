import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkPreparation
@testable import IdleWorkTesting

/// Prepared tasks and a cell's configurations — the same content again, another row, a released cell — stepped by
/// hand: a result reaches only the configuration it was prepared for.
final class PreparedConfigurationTests: XCTestCase {
  typealias Cell = PreparedTaskTests.Cell

  /// `cellForRowAt` for a reload of the same row with the same content binds, then adds: the task joins the
  /// render already running — one preparation, never told it is cancelled, applied once.
  func testAReloadOfTheSameContentJoinsTheRunningRender() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let cell = PreparedTaskTests.Cell()
      let prepared = Counter()
      let cancelledSeen = Counter()
      Self.configure(cell, on: queue, prepared: prepared, cancelledSeen: cancelledSeen, reloadWhilePrepared: true)
      XCTAssertEqual(driver.runPreparations(), 1)
      XCTAssertEqual(driver.runPreparations(), 0, "the reload started a second preparation")
      driver.drain()
      XCTAssertEqual(prepared.value, 1)
      XCTAssertEqual(cancelledSeen.value, 0, "the running render was told it is cancelled")
      XCTAssertEqual(cell.shown, ["photo 0"])
      let s = queue.counts
      XCTAssertEqual([s.executed, s.skippedAsStale, queue.counts.wastedPreparations], [1, 1, 0])
      assertPreparedBalanced(queue)
    }
  }

  /// What `cellForRowAt` does for row 0, showing photo 0: bind, then add.
  @MainActor
  private static func configure(
    _ cell: PreparedTaskTests.Cell, on queue: IdleQueue, prepared: Counter, cancelledSeen: Counter,
    reloadWhilePrepared: Bool
  ) {
    let box = UncheckedBox(cell)
    queue.bind(cell, to: 0)
    queue.addTask(for: cell, at: 0, content: "photo 0") { isCancelled in
      prepared.increment()
      if reloadWhilePrepared {
        // Runs by hand on the main thread: the table reloads the row while it is prepared.
        MainActor.assumeIsolated {
          configure(box.value, on: queue, prepared: prepared, cancelledSeen: cancelledSeen, reloadWhilePrepared: false)
        }
      }
      if isCancelled() { cancelledSeen.increment() }
      return "photo 0"
    } apply: { cell, value in
      cell.shown.append(value)
    }
  }

  /// A render not started keeps its place when the reload joins it; one that no task joins after the rebind is
  /// dropped at the next pass, and what it captured is freed.
  func testARenderNoTaskJoinsAfterARebindIsDroppedAtTheNextPass() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let cell = PreparedTaskTests.Cell()
      weak var captured: Probe?
      do {
        let probe = Probe()
        captured = probe
        let sendable = UncheckedBox(probe)
        queue.bind(cell, to: 0)
        queue.addTask(for: cell, at: 0, content: "photo 0") { _ in
          withExtendedLifetime(sendable) { "photo 0" }
        } apply: { cell, value in
          cell.shown.append(value)
        }
      }
      queue.bind(cell, to: 1)  // another row: nothing joins
      XCTAssertNotNil(captured, "held until the main thread's turn ends")
      driver.runPass()
      XCTAssertNil(captured, "a render no task joined outlived the pass after the rebind")
      XCTAssertEqual(driver.runPreparations(), 0)
      assertPreparedBalanced(queue)
    }
  }

  /// A new configuration of the cell takes its waiting prepared tasks out at once, as stale — counted after
  /// prepare only if their render had finished by then, whenever the next pass comes.
  func testAConfigurationReplacedLeavesItsPreparedTasksStaleAtOnce() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let cell = PreparedTaskTests.Cell()
      queue.bind(cell, to: 0)
      queue.addTask(for: cell, at: 0) { _ in
        "row 0"
      } apply: { cell, value in
        cell.shown.append(value)
      }
      queue.bind(cell, to: 1)
      XCTAssertEqual(queue.counts.skippedAsStale, 1, "left at once, not at the next pass")
      XCTAssertEqual(queue.counts.pending, 0)
      driver.drain()
      XCTAssertEqual(cell.shown, [])
      assertPreparedBalanced(queue)
    }
  }

  /// A task for content whose preparation finished but was not taken in yet applies that result at once (from
  /// the cache), rather than preparing it again.
  func testAFinishedResultNotTakenInIsUsedNotPreparedAgain() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver, configuration: .init())
      _ = Preparer(queue: queue, configuration: .init(resultCacheLimit: 1 << 20))
      let prepared = Counter()
      let cells = [PreparedTaskTests.Cell(), PreparedTaskTests.Cell()]
      @MainActor func show(_ row: Int) {
        queue.bind(cells[row], to: row)
        queue.addTask(for: cells[row], at: row, content: "photo") { _ in
          prepared.increment()
          return "photo"
        } apply: { cell, value in
          cell.shown.append(value)
        }
      }
      show(0)
      XCTAssertEqual(driver.runPreparations(), 1)
      show(1)  // the result has arrived, not taken in
      XCTAssertEqual(cells[1].shown, ["photo"], "not applied at once")
      XCTAssertEqual(driver.runPreparations(), 0, "prepared again")
      driver.drain()
      XCTAssertEqual(cells.map(\.shown), [["photo"], ["photo"]])
      XCTAssertEqual(prepared.value, 1)
      assertPreparedBalanced(queue)
    }
  }

  /// A result for a released cell is never applied: dropped at the next pass before its render starts, or
  /// counted stale after its render when it arrives.
  func testAReleasedCellsResultIsNeverApplied() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      var applied = 0
      var early: Cell? = Cell()
      var late: Cell? = Cell()
      for (row, cell) in [early!, late!].enumerated() {
        queue.bind(cell, to: row)
        queue.addTask(for: cell, at: row) { _ in
          row
        } apply: { _, _ in
          applied += 1
        }
      }
      XCTAssertEqual(driver.runPreparations(maximum: 1), 1, "the first render")
      early = nil  // released after its render
      late = nil  // released before its render started
      driver.runPass()
      XCTAssertEqual(driver.runPreparations(), 0, "the released cell's render was dropped at the pass")
      driver.drain()
      XCTAssertEqual(applied, 0)
      let s = queue.counts
      XCTAssertEqual(s.skippedAsStale, 2)
      XCTAssertEqual(queue.counts.wastedPreparations, 1)
      assertPreparedBalanced(queue)
    }
  }

  /// A prepared cell task whose cell goes after its result arrived and before its apply is stale after
  /// prepare, never applied, and the accounting balances.
  func testAPreparedTaskWhoseCellGoesBeforeItsApplyIsStale() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver)
      var cell: RichCell? = RichCell(number: 0)
      var applied = 0
      queue.bind(cell!, to: 0)
      queue.addTask(for: cell!, at: 0) { _ in
        "image"
      } apply: { cell, value in
        cell.label.text = value
        applied += 1
      }
      XCTAssertEqual(driver.runPreparations(), 1)
      cell = nil
      driver.drain()
      XCTAssertEqual(applied, 0)
      let s = queue.counts
      XCTAssertEqual(s.skippedAsStale, 1, s.summary)
      XCTAssertTrue(s.isBalanced, s.summary)
    }
  }
}
