import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkPreparation
@testable import IdleWorkTesting

/// Main-thread preparations (`Preparation.mainThread`): made in the queue's passes like any task, a slice per step,
/// cached, shared and accounted as a worker's; their prefetches run only in the pass's slack, nearest first, and
/// never in a frame they do not fit.
final class MainThreadPreparationTests: XCTestCase {
  final class Cell {
    var shown: [String] = []
  }

  /// A queue on the manual driver with a frame clock the test sets (`nil`: no frame pending), and a main-thread
  /// preparation that logs each input, checks it runs on the main thread, and advances the driver's clock by
  /// `cost` seconds.
  @MainActor
  static func queue(
    budget: IdleQueue.Budget = .tasks(100), cost: TimeInterval = 0
  ) -> (IdleQueue, ManualPassDriver, ManualFrames, TextLog, Preparation<String, String>) {
    let driver = ManualPassDriver()
    let frames = ManualFrames(driver, deadline: nil)
    let queue = IdleQueue(
      driver: driver,
      configuration: .init(budget: budget, scrolling: .fitToFrames(timeUntilNextFrame: { frames.timeLeft })))
    let log = TextLog()
    let tile = Preparation.mainThread { (name: String) in
      XCTAssertTrue(Thread.isMainThread)
      log.append(name)
      driver.advance(by: cost)
      return "tile of \(name)"
    }
    return (queue, driver, frames, log, tile)
  }

  /// A main-thread preparation in three slices, each logged ("a1", "a2", "a3").
  static func card(log: TextLog) -> Preparation<String, String> {
    Preparation.mainThread(slices: { (name: String) in
      var done = 0
      return { _ in
        done += 1
        log.append("\(name)\(done)")
        return done == 3 ? "card of \(name)" : nil
      }
    })
  }

  /// A cell's task makes its result in a pass, on the main thread — never on a worker — then applies it.
  func testACellTaskMakesItsResultInAPassThenApplies() {
    MainActor.assumeIsolated {
      let (queue, driver, _, log, tile) = Self.queue()
      let cell = Cell()
      queue.bind(cell, to: 0)
      queue.preparer.addTask(for: cell, at: 0, prepare: tile, from: "a") { cell, tile in cell.shown.append(tile) }
      XCTAssertEqual(driver.runPreparations(), 0, "no worker makes it")
      XCTAssertEqual(log.entries, [])
      driver.runPass()
      XCTAssertEqual(log.entries, ["a"])
      XCTAssertEqual(cell.shown, ["tile of a"])
      let s = queue.counts
      XCTAssertEqual([s.added, s.executed, s.pending], [1, 1, 0])
      XCTAssertTrue(s.isBalanced, s.summary)
    }
  }

  /// The result is kept: a row shown again with the same input applies it inside `addTask`, made once.
  func testAResultIsKeptAndAppliesInsideTheNextAddTask() {
    MainActor.assumeIsolated {
      let (queue, driver, _, log, tile) = Self.queue()
      let first = Cell()
      queue.bind(first, to: 0)
      queue.preparer.addTask(for: first, at: 0, prepare: tile, from: "a") { cell, tile in cell.shown.append(tile) }
      driver.runPass()
      let again = Cell()
      queue.bind(again, to: 7)
      queue.preparer.addTask(for: again, at: 7, prepare: tile, from: "a") { cell, tile in cell.shown.append(tile) }
      XCTAssertEqual(again.shown, ["tile of a"], "applied inside addTask")
      XCTAssertEqual(log.entries, ["a"])
      XCTAssertEqual(queue.counts.cacheHits, 1)
    }
  }

  /// Two tasks for one input share one making of it, in the pass that reaches the first.
  func testTasksForOneInputShareOneMaking() {
    MainActor.assumeIsolated {
      let (queue, driver, _, log, tile) = Self.queue()
      var applied: [String] = []
      queue.preparer.addTask(key: 1, prepare: tile, from: "a") { applied.append("1 \($0)") }
      queue.preparer.addTask(key: 2, prepare: tile, from: "a") { applied.append("2 \($0)") }
      driver.runPass()
      XCTAssertEqual(log.entries, ["a"])
      XCTAssertEqual(applied, ["1 tile of a", "2 tile of a"])
      XCTAssertEqual(queue.counts.wastedPreparations, 0)
    }
  }

  /// Sliced work runs one slice per step, within the pass's budget (one task per pass here); its task applies the
  /// result in the step after the last slice.
  func testSlicedWorkRunsOneSlicePerStepWithinTheBudget() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver, configuration: .init(budget: .tasks(1)))
      let log = TextLog()
      let card = Self.card(log: log)
      var applied: [String] = []
      queue.preparer.addTask(key: 0, prepare: card, from: "a") { applied.append($0) }
      driver.runPass()
      XCTAssertEqual(log.entries, ["a1"])
      driver.runPass()
      XCTAssertEqual(log.entries, ["a1", "a2"])
      driver.runPass()
      XCTAssertEqual(log.entries, ["a1", "a2", "a3"])
      XCTAssertEqual(applied, [], "the budget is spent")
      driver.runPass()
      XCTAssertEqual(applied, ["card of a"])
      let s = queue.counts
      XCTAssertEqual([s.executed, s.pending], [1, 0])
      XCTAssertFalse(driver.isPassRequested)
    }
  }

  /// Visible rows' results are made newest row first — the one that stays on screen longest in a fling — as workers
  /// take them; each is applied before the next is made.
  func testTheVisibleRowThatAppearedLastIsMadeFirst() {
    MainActor.assumeIsolated {
      let (queue, driver, _, log, tile) = Self.queue(budget: .tasks(2))
      let cells = (0..<3).map { _ in Cell() }
      for (row, cell) in cells.enumerated() {
        queue.bind(cell, to: row)
        queue.preparer.addTask(for: cell, at: row, prepare: tile, from: "r\(row)") { cell, tile in
          cell.shown.append(tile)
        }
      }
      driver.runPass()
      XCTAssertEqual(log.entries, ["r2"])
      XCTAssertEqual(cells[2].shown, ["tile of r2"], "applied in the same pass")
      driver.drain()
      XCTAssertEqual(log.entries, ["r2", "r1", "r0"])
      XCTAssertEqual(cells.map(\.shown), [["tile of r0"], ["tile of r1"], ["tile of r2"]])
    }
  }

  /// A slice is given the time the pass has left: the frame's, less the margin.
  func testASliceIsGivenTheTimeLeftBeforeTheFrame() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let frames = ManualFrames(driver, deadline: 0.010)
      let queue = IdleQueue(
        driver: driver, configuration: .init(scrolling: .fitToFrames(timeUntilNextFrame: { frames.timeLeft })))
      var given: [TimeInterval] = []
      let card = Preparation.mainThread(slices: { (_: String) in
        { timeRemaining in
          given.append(timeRemaining())
          return "card"
        }
      })
      queue.preparer.addTask(key: 0, prepare: card, from: "a") { _ in }
      driver.runPass()
      XCTAssertEqual(given.count, 1)
      XCTAssertEqual(given[0], 0.010 - Double(FrameAdmission.margin) / 1e9, accuracy: 1e-9)
    }
  }

  /// A preparation that throws fails its tasks; nothing is applied or kept.
  func testAThrowingPreparationFailsItsTasks() {
    MainActor.assumeIsolated {
      struct Boom: Error {}
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver)
      let failing = Preparation.mainThread { (_: String) throws -> String in throw Boom() }
      var applied = 0
      queue.preparer.addTask(key: 0, prepare: failing, from: "a") { _ in applied += 1 }
      driver.drain()
      XCTAssertEqual(applied, 0)
      let s = queue.counts
      XCTAssertEqual([s.added, queue.counts.failed, s.pending], [1, 1, 0])
      XCTAssertTrue(s.isBalanced, s.summary)
    }
  }

  /// A cell configured again before its pass never makes nor applies the old row's result.
  func testACellConfiguredAgainNeverMakesTheOldRowsResult() {
    MainActor.assumeIsolated {
      let (queue, driver, _, log, tile) = Self.queue()
      let cell = Cell()
      queue.bind(cell, to: 0)
      queue.preparer.addTask(for: cell, at: 0, prepare: tile, from: "a") { cell, tile in cell.shown.append(tile) }
      queue.bind(cell, to: 1)
      queue.preparer.addTask(for: cell, at: 1, prepare: tile, from: "b") { cell, tile in cell.shown.append(tile) }
      driver.drain()
      XCTAssertEqual(log.entries, ["b"])
      XCTAssertEqual(cell.shown, ["tile of b"])
      let s = queue.counts
      XCTAssertEqual([s.added, s.executed, s.skippedAsStale], [2, 1, 1])
    }
  }

  /// A prefetch runs only in the pass's slack: after every runnable task, then nearest first.
  func testAPrefetchRunsOnlyAfterEveryRunnableTask() {
    MainActor.assumeIsolated {
      let (queue, driver, _, log, tile) = Self.queue(budget: .tasks(2))
      queue.preparer.prefetch(tile, from: ["p1", "p2", "p3"])
      queue.addTask(key: 0) { log.append("task") }
      driver.runPass()
      XCTAssertEqual(log.entries, ["task", "p1"])
      driver.runPass()
      XCTAssertEqual(log.entries, ["task", "p1", "p2", "p3"])
      let s = queue.counts
      XCTAssertEqual([s.added, s.executed, s.pending], [4, 4, 0])
      XCTAssertFalse(driver.isPassRequested, "nothing left to do")
    }
  }

  /// A prefetched row shows its result inside `addTask` (`cellForRowAt`): made once, counted a cache hit, not
  /// wasted.
  func testAPrefetchedRowAppliesInsideAddTask() {
    MainActor.assumeIsolated {
      let (queue, driver, _, log, tile) = Self.queue()
      queue.preparer.prefetch(tile, from: ["a"])
      driver.runPass()
      let cell = Cell()
      queue.bind(cell, to: 0)
      queue.preparer.addTask(for: cell, at: 0, prepare: tile, from: "a") { cell, tile in cell.shown.append(tile) }
      XCTAssertEqual(cell.shown, ["tile of a"])
      XCTAssertEqual(log.entries, ["a"])
      let s = queue.counts
      XCTAssertEqual([queue.counts.cacheHits, queue.counts.wastedPreparations, s.pending], [1, 0, 0])
      XCTAssertTrue(s.isBalanced, s.summary)
    }
  }

  /// A row's task for an input a prefetch waits to make takes the prefetch over: made once, as the task's step.
  func testATaskTakesAPendingPrefetchOver() {
    MainActor.assumeIsolated {
      let (queue, driver, _, log, tile) = Self.queue()
      queue.preparer.prefetch(tile, from: ["a"])
      var applied: [String] = []
      queue.preparer.addTask(key: 0, prepare: tile, from: "a") { applied.append($0) }
      driver.drain()
      XCTAssertEqual(log.entries, ["a"])
      XCTAssertEqual(applied, ["tile of a"])
      let s = queue.counts
      XCTAssertEqual([s.added, s.executed, s.pending], [2, 2, 0])
    }
  }

  /// During a frame a prefetch starts only if its measured cost fits the time left; unmeasured, it waits for a
  /// pass with no frame pending (or an idle pass at a frame's start).
  func testAPrefetchNeverStartsInAFrameItDoesNotFit() {
    MainActor.assumeIsolated {
      let (queue, driver, frames, log, tile) = Self.queue(cost: 0.004)
      queue.preparer.prefetch(tile, from: ["p1", "p2"])
      frames.deadline = driver.now + 0.012
      driver.runTrackingPass()
      XCTAssertEqual(log.entries, [], "unmeasured: not during a scroll")
      frames.deadline = driver.now + 0.004
      driver.runPass()
      XCTAssertEqual(log.entries, [], "unmeasured: not late in a frame")
      frames.deadline = nil
      driver.runPass()
      XCTAssertEqual(log.entries, ["p1", "p2"], "no frame pending: it runs, and is measured")
      queue.preparer.prefetch(tile, from: ["p3", "p4"])
      frames.deadline = driver.now + 0.003
      driver.runPass()
      XCTAssertEqual(log.entries, ["p1", "p2"], "4 ms does not fit 3 ms")
      frames.deadline = driver.now + 0.008
      driver.runPass()
      XCTAssertEqual(log.entries, ["p1", "p2", "p3"], "fits once, then 4 ms are left: not twice")
    }
  }

  /// A row's work measures the cost its prefetches are admitted by: after one task's making, a prefetch fits a frame
  /// during a scroll.
  func testATasksMakingMeasuresTheCostForPrefetches() {
    MainActor.assumeIsolated {
      let (queue, driver, frames, log, tile) = Self.queue(cost: 0.002)
      queue.preparer.addTask(key: 0, prepare: tile, from: "row") { _ in }
      queue.preparer.prefetch(tile, from: ["p1"])
      frames.deadline = driver.now + 0.016
      driver.runTrackingPass()
      XCTAssertEqual(log.entries, ["row"], "its apply, unmeasured, waits for the next frame's start")
      frames.deadline = driver.now + 0.016
      driver.runTrackingPass()
      XCTAssertEqual(log.entries, ["row", "p1"], "measured by the row: 2 ms fit")
    }
  }

  /// A row whose making is under way, sliced, goes off screen: the row that appears next is made first; the first
  /// is finished after it, in time no visible row wants, and applied when its cell comes back.
  func testARowOffScreenMidWayWaitsBehindAVisibleRow() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver, configuration: .init(budget: .tasks(1)))
      let log = TextLog()
      let card = Self.card(log: log)
      let (first, second) = (Cell(), Cell())
      queue.bind(first, to: 0)
      queue.preparer.addTask(for: first, at: 0, prepare: card, from: "a") { cell, card in cell.shown.append(card) }
      driver.runPass()
      XCTAssertEqual(log.entries, ["a1"])
      queue.cellDidEndDisplaying(first, at: 0)
      queue.bind(second, to: 1)
      queue.preparer.addTask(for: second, at: 1, prepare: card, from: "b") { cell, card in cell.shown.append(card) }
      driver.drain()
      XCTAssertEqual(log.entries, ["a1", "b1", "b2", "b3", "a2", "a3"])
      XCTAssertEqual(second.shown, ["card of b"])
      XCTAssertEqual(first.shown, [], "off screen: its task waits")
      queue.cellWillDisplay(first, at: 0)
      driver.drain()
      XCTAssertEqual(first.shown, ["card of a"])
      XCTAssertEqual(log.entries.count, 6, "made once")
    }
  }

  /// A prefetch the pass chose but did not admit (it did not fit the frame) keeps no place: prefetches asked for
  /// `first` later still go before it.
  func testAPrefetchNotAdmittedKeepsNoPlaceBeforeLaterFirstOnes() {
    MainActor.assumeIsolated {
      let (queue, driver, frames, log, tile) = Self.queue(budget: .tasks(1))
      queue.preparer.prefetch(tile, from: ["a", "b"])
      frames.deadline = driver.now + 0.012
      driver.runTrackingPass()  // unmeasured: not during a scroll
      XCTAssertEqual(log.entries, [])
      queue.preparer.prefetch(tile, from: ["landing"], first: true)
      frames.deadline = nil
      driver.drain()
      XCTAssertEqual(log.entries, ["landing", "a", "b"])
    }
  }

  /// A visible row whose making the pass did not admit keeps no place before rows that appeared after it: the
  /// newest is still made first.
  func testAVisibleRowNotAdmittedKeepsNoPlaceBeforeNewerRows() {
    MainActor.assumeIsolated {
      let (queue, driver, frames, log, tile) = Self.queue(budget: .tasks(1), cost: 0.004)
      queue.preparer.addTask(key: "m", prepare: tile, from: "measure") { _ in }
      driver.drain()  // measured: 4 ms
      let cells = (0..<3).map { _ in Cell() }
      queue.bind(cells[0], to: 0)
      queue.preparer.addTask(for: cells[0], at: 0, prepare: tile, from: "r0") { _, _ in }
      frames.deadline = driver.now + 0.003
      driver.runTrackingPass()  // 4 ms do not fit 3 ms: it waits
      XCTAssertEqual(log.entries, ["measure"])
      for row in 1..<3 {
        queue.bind(cells[row], to: row)
        queue.preparer.addTask(for: cells[row], at: row, prepare: tile, from: "r\(row)") { _, _ in }
      }
      frames.deadline = nil
      driver.drain()
      XCTAssertEqual(log.entries, ["measure", "r2", "r1", "r0"])
    }
  }

  /// A prefetch whose measured slice is longer than any frame is not starved while the frames keep coming (its own
  /// pending keeps the clock running): it runs first in an idle pass at a frame's start, and passes stop after it.
  func testAPrefetchLongerThanAnyFrameRunsAtAFramesStart() {
    MainActor.assumeIsolated {
      let (queue, driver, frames, log, tile) = Self.queue(cost: 0.020)
      queue.preparer.prefetch(tile, from: ["p1"])
      driver.drain()  // measured with no frame pending: 20 ms
      XCTAssertEqual(log.entries, ["p1"])
      queue.preparer.prefetch(tile, from: ["p2"])
      let frame = 1.0 / 60
      for _ in 0..<30 {
        frames.deadline = (driver.now / frame).rounded(.down) * frame + frame
        if driver.isPassRequested { driver.runPass() }
        driver.advance(by: frame)
      }
      XCTAssertEqual(log.entries, ["p1", "p2"])
      XCTAssertFalse(driver.isPassRequested)
    }
  }

  /// A prefetch is admitted by its own preparation's measured cost: a cheap preparation's measure does not let an
  /// expensive one, never measured, into a frame during a scroll.
  func testAPrefetchIsAdmittedByItsOwnPreparationsCost() {
    MainActor.assumeIsolated {
      let (queue, driver, frames, log, cheap) = Self.queue(cost: 0.001)
      let expensive = Preparation.mainThread { (name: String) in
        log.append("big \(name)")
        driver.advance(by: 0.010)
        return name
      }
      queue.preparer.addTask(key: 0, prepare: cheap, from: "row") { _ in }
      driver.drain()
      queue.preparer.prefetch(expensive, from: ["p"])
      frames.deadline = driver.now + 0.006
      driver.runTrackingPass()
      XCTAssertEqual(log.entries, ["row"], "unmeasured, it waits")
    }
  }

  /// During a scroll a visible row's making is admitted like a task (probed at a frame's start when unmeasured); a
  /// prefetch only where its measured cost fits what is left of the frame.
  func testAVisibleRowsMakingIsAdmittedLikeATaskAPrefetchOnlyWhereItFits() {
    MainActor.assumeIsolated {
      let (queue, driver, frames, log, tile) = Self.queue(cost: 0.010)
      queue.preparer.prefetch(tile, from: ["p"])
      queue.preparer.addTask(key: 0, prepare: tile, from: "row") { _ in }
      frames.deadline = driver.now + 0.016
      driver.runTrackingPass()
      XCTAssertEqual(log.entries, ["row"], "10 ms and its margin do not fit the 6 ms left")
      frames.deadline = driver.now + 0.016
      driver.runTrackingPass()
      XCTAssertEqual(log.entries, ["row", "p"])
    }
  }

  /// Prefetches asked for `first` go before every prefetch asked for so far, nearest first; a later `first` call goes
  /// before an earlier one.
  func testPrefetchesAskedForFirstGoAhead() {
    MainActor.assumeIsolated {
      let (queue, driver, _, log, tile) = Self.queue(budget: .tasks(1))
      queue.preparer.prefetch(tile, from: ["a", "b"])
      queue.preparer.prefetch(tile, from: ["x", "y"], first: true)
      queue.preparer.prefetch(tile, from: ["landing"], first: true)
      queue.preparer.prefetch(tile, from: ["c"])
      driver.drain()
      XCTAssertEqual(log.entries, ["landing", "x", "y", "a", "b", "c"])
    }
  }

  /// A prefetch asked for again with `first` moves ahead.
  func testAPendingPrefetchAskedForFirstMovesAhead() {
    MainActor.assumeIsolated {
      let (queue, driver, _, log, tile) = Self.queue(budget: .tasks(1))
      queue.preparer.prefetch(tile, from: ["a", "b", "c"])
      queue.preparer.prefetch(tile, from: ["c"], first: true)
      driver.drain()
      XCTAssertEqual(log.entries, ["c", "a", "b"])
    }
  }

  /// A sliced prefetch cancelled after its first slice runs no more slices, and counts cancelled.
  func testACancelledPrefetchStopsBetweenSlices() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver, configuration: .init(budget: .tasks(1)))
      let log = TextLog()
      let card = Self.card(log: log)
      queue.preparer.prefetch(card, from: ["a"])
      driver.runPass()
      XCTAssertEqual(log.entries, ["a1"])
      queue.preparer.cancelPrefetching(card, from: ["a"])
      driver.drain()
      XCTAssertEqual(log.entries, ["a1"])
      let s = queue.counts
      XCTAssertEqual([s.added, s.cancelled, s.pending], [1, 1, 0])
      XCTAssertTrue(s.isBalanced, s.summary)
      XCTAssertFalse(driver.isPassRequested)
    }
  }
}
