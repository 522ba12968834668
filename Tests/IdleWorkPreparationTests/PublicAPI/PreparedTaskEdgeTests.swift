import Foundation
import IdleWork
import IdleWorkPreparation
import IdleWorkTesting
import TestHelpers
import XCTest

/// Prepared tasks as later tasks of their queue, at the edges: callbacks that end or start preparations while a task is
/// added, a queue that refuses the task, cancels and evictions before and after the result, released cells, shared
/// failures, applies that re-enter the queue.
final class PreparedTaskEdgeTests: XCTestCase {
  struct Broken: Error {}

  /// A count kept from any thread. `@unchecked Sendable`: `value` is read and written only with `lock` held.
  final class Tally: @unchecked Sendable {
    let lock = NSLock()
    var value = 0
    func bump() { lock.withLock { value += 1 } }
    var count: Int { lock.withLock { value } }
  }

  @MainActor
  static func queueCounts(_ q: IdleQueue) -> [Int] {
    let s = q.statistics
    return [s.added, s.executed, s.skippedAsStale, s.evicted, s.cancelled, s.pending]
  }

  @MainActor
  static func make(length: Int = 100, cache: Int = 4096) -> (ManualPassDriver, IdleQueue, Preparer) {
    let driver = ManualPassDriver()
    let queue = IdleQueue(driver: driver, configuration: .init(maximumQueueLength: length))
    return (driver, queue, Preparer(queue: queue, configuration: .init(workers: 1, resultCacheLimit: cache)))
  }

  static func photo(_ counter: Tally) -> Preparation<String, String> {
    Preparation(resultBytes: { _ in 10 }) { (name: String, _) in
      counter.bump()
      return "photo \(name)"
    }
  }

  /// A plain later task's onAbandon (run inside the bind of the prepared task's addLaterTask) cancels the prefetch
  /// the prepared task just chose to join: the prepared task must still get its result, prepared once.
  func testPrefetchCancelledInsideTheJoiningTasksBind() {
    MainActor.assumeIsolated {
      let (driver, queue, preparer) = Self.make()
      let counter = Tally()
      let photo = Self.photo(counter)
      let cell = PhotoCell()
      _ = queue.addLaterTask(for: cell, at: 1, onAbandon: { preparer.cancelPrefetching(photo, from: ["x"]) })
      preparer.prefetch(photo, from: ["x"])
      preparer.addTask(for: cell, at: 2, prepare: photo, from: "x") { cell, value in cell.shown.append(value) }
      driver.runPreparations()
      driver.drain()
      XCTAssertEqual(cell.shown, ["photo x"])
      XCTAssertEqual(counter.count, 1)
      XCTAssertEqual(Self.queueCounts(queue), [2, 1, 1, 0, 0, 0])
      assertBalanced(preparer)
    }
  }

  /// The same with the prefetch evicted by a new prefetch call (queue length 1) from inside the bind.
  func testPrefetchEvictedInsideTheJoiningTasksBind() {
    MainActor.assumeIsolated {
      let (driver, queue, preparer) = Self.make(length: 2)
      let counter = Tally()
      let photo = Self.photo(counter)
      let cell = PhotoCell()
      _ = queue.addLaterTask(for: cell, at: 1, onAbandon: { preparer.prefetch(photo, from: ["y", "z"]) })
      preparer.prefetch(photo, from: ["x"])
      preparer.addTask(for: cell, at: 2, prepare: photo, from: "x") { cell, value in cell.shown.append(value) }
      driver.runPreparations()
      driver.drain()
      XCTAssertEqual(cell.shown, ["photo x"])
      assertBalanced(preparer)
    }
  }

  /// handle.cancel() before the preparation started: it is dropped, never run, nothing wasted.
  func testCancelBeforeStartDropsThePreparation() {
    MainActor.assumeIsolated {
      let (driver, queue, preparer) = Self.make()
      let counter = Tally()
      let photo = Self.photo(counter)
      let cell = PhotoCell()
      let handle = preparer.addTask(for: cell, at: 1, prepare: photo, from: "x") { c, v in c.shown.append(v) }
      XCTAssertTrue(handle.isPending)
      XCTAssertTrue(handle.cancel())
      XCTAssertFalse(handle.isPending)
      XCTAssertEqual(driver.runPreparations(), 0, "a cancelled task's preparation must not run")
      driver.drain()
      XCTAssertEqual(driver.runPreparations(), 0)
      XCTAssertEqual(counter.count, 0)
      XCTAssertEqual(cell.shown, [])
      XCTAssertEqual(Self.queueCounts(queue), [1, 0, 0, 0, 1, 0])
      XCTAssertEqual(preparer.statistics.wastedPreparations, 0)
      assertBalanced(preparer)
    }
  }

  /// handle.cancel() after the result arrived: whether the pass took it in first must not change the counts.
  func testCancelAfterArrivalCountsTheSameWhetherOrNotTakenIn() {
    MainActor.assumeIsolated {
      var wasted: [Int] = []
      for takeInFirst in [false, true] {
        let (driver, _, preparer) = Self.make()
        let photo = Self.photo(Tally())
        let cell = PhotoCell()
        let handle = preparer.addTask(for: cell, at: 1, prepare: photo, from: "x") { c, v in c.shown.append(v) }
        XCTAssertEqual(driver.runPreparations(), 1)
        if takeInFirst {
          // A prefetch takes in what arrived.
          preparer.prefetch(photo, from: ["unrelated"])
          preparer.cancelPrefetching(photo, from: ["unrelated"])
        }
        XCTAssertTrue(handle.cancel())
        driver.drain()
        driver.sendMemoryWarning()  // the cache empties: a result kept unused counts wasted now
        driver.drain()
        XCTAssertEqual(cell.shown, [])
        wasted.append(preparer.statistics.wastedPreparations)
        assertBalanced(preparer)
      }
      XCTAssertEqual(wasted[0], wasted[1], "wasted (not taken in, taken in) = \(wasted)")
    }
  }

  /// A full queue refuses the prepared task at once: onAbandon runs inside addLaterTask before the request joins.
  func testQueueFullRefusesThePreparedTask() {
    MainActor.assumeIsolated {
      let (driver, queue, preparer) = Self.make(length: 1)
      let counter = Tally()
      let photo = Self.photo(counter)
      var ran = 0
      queue.addTask(key: "blocker") { ran += 1 }
      var shown: [String] = []
      let handle = preparer.addTask(key: "p", prepare: photo, from: "x", droppable: true) { shown.append($0) }
      XCTAssertFalse(handle.isPending)
      XCTAssertEqual(driver.runPreparations(), 0, "nothing waits for the refused task's preparation")
      driver.drain()
      XCTAssertEqual(ran, 1)
      XCTAssertEqual(shown, [])
      XCTAssertEqual(counter.count, 0)
      // A later task for the same content starts it (the refused one left nothing joinable behind).
      preparer.addTask(key: "q", prepare: photo, from: "x") { shown.append($0) }
      XCTAssertEqual(driver.runPreparations(), 1)
      driver.drain()
      XCTAssertEqual(shown, ["photo x"])
      assertBalanced(preparer)
    }
  }

  /// An evicted prepared task (held joinable) must not have its preparation run for nothing.
  func testEvictedTaskPreparationIsDropped() {
    MainActor.assumeIsolated {
      let (driver, queue, preparer) = Self.make(length: 1)
      let counter = Tally()
      let photo = Self.photo(counter)
      var abandoned = 0
      _ = abandoned
      let cell = PhotoCell()
      preparer.addTask(for: cell, at: 1, prepare: photo, from: "x", droppable: true) { c, v in c.shown.append(v) }
      queue.addTask(key: "first") { abandoned += 1 }  // evicts the droppable prepared task
      XCTAssertEqual(queue.statistics.evicted, 1)
      XCTAssertEqual(driver.runPreparations(), 0)
      driver.drain()
      XCTAssertEqual(driver.runPreparations(), 0)
      XCTAssertEqual(counter.count, 0)
      XCTAssertEqual(cell.shown, [])
      assertBalanced(preparer)
    }
  }

  /// An apply that reloads its own row for the same input (cache hit inside the apply) and one for another item.
  func testApplyThatReconfiguresItsOwnCell() {
    MainActor.assumeIsolated {
      let (driver, queue, preparer) = Self.make()
      let counter = Tally()
      let photo = Self.photo(counter)
      let cell = PhotoCell()
      var reloads = 0
      @MainActor func configure(_ item: Int, _ input: String) {
        preparer.addTask(for: cell, at: item, prepare: photo, from: input) { c, v in
          c.shown.append(v)
          if reloads == 0 {
            reloads += 1
            configure(item, input)  // same row, same input: a cache hit, applied at once
          } else if reloads == 1 {
            reloads += 1
            configure(item + 1, "y")  // the cell shows another row now
          }
        }
      }
      configure(1, "x")
      driver.runPreparations()
      driver.drain()
      driver.runPreparations()
      driver.drain()
      XCTAssertEqual(cell.shown, ["photo x", "photo x", "photo y"])
      XCTAssertEqual(counter.count, 2)
      XCTAssertEqual(preparer.statistics.cacheHits, 1)
      XCTAssertEqual(Self.queueCounts(queue), [2, 2, 0, 0, 0, 0])
      assertBalanced(preparer)
    }
  }

  /// A cell released while its preparation runs: the preparation learns it is cancelled; the task is stale, not
  /// failed.
  func testCellReleasedWhileItsPreparationRuns() {
    MainActor.assumeIsolated {
      let (driver, queue, preparer) = Self.make()
      let sawCancel = Tally()
      let slow = Preparation(resultBytes: { _ in 10 }) {
        (name: String, isCancelled: @Sendable () -> Bool) throws -> String in
        for _ in 0..<300 {
          if isCancelled() {
            sawCancel.bump()
            throw Broken()
          }
          // By hand the preparation runs on the main thread: let the main queue answer the cell check.
          if Thread.isMainThread { RunLoop.main.run(until: Date().addingTimeInterval(0.001)) } else { usleep(1000) }
        }
        return "photo \(name)"
      }
      var applied = 0
      do {
        var cell: PhotoCell? = PhotoCell()
        preparer.addTask(for: cell!, at: 1, prepare: slow, from: "x") { _, _ in applied += 1 }
        cell = nil
      }
      XCTAssertEqual(driver.runPreparations(), 1)
      driver.drain()
      XCTAssertEqual(sawCancel.count, 1, "the released cell's preparation is told it is cancelled")
      XCTAssertEqual(applied, 0)
      XCTAssertEqual(preparer.statistics.failed, 0)
      XCTAssertEqual(Self.queueCounts(queue), [1, 0, 1, 0, 0, 0])
      assertBalanced(preparer)
    }
  }

  /// A failing preparation shared by a prefetch and two tasks: both tasks cancelled and failed, once each.
  func testFailureSharedByAPrefetchAndTwoTasks() {
    MainActor.assumeIsolated {
      let (driver, queue, preparer) = Self.make()
      let counter = Tally()
      let failing = Preparation(resultBytes: { _ in 10 }) { (_: String, _) throws -> String in
        counter.bump()
        throw Broken()
      }
      preparer.prefetch(failing, from: ["x"])
      var shown = 0
      let a = preparer.addTask(key: "a", prepare: failing, from: "x") { _ in shown += 1 }
      let cell = PhotoCell()
      let b = preparer.addTask(for: cell, at: 1, prepare: failing, from: "x") { _, _ in shown += 1 }
      XCTAssertEqual(driver.runPreparations(), 1)
      driver.drain()
      XCTAssertEqual(counter.count, 1)
      XCTAssertEqual(shown, 0)
      XCTAssertFalse(a.isPending)
      XCTAssertFalse(b.isPending)
      XCTAssertFalse(a.cancel())
      XCTAssertEqual(preparer.statistics.failed, 2)
      XCTAssertEqual(Self.queueCounts(queue), [2, 0, 0, 0, 2, 0])
      assertBalanced(preparer)
    }
  }

  /// Invalidating the queue from inside an apply, with another prepared task and a prefetch pending.
  func testInvalidateInsideAnApply() {
    MainActor.assumeIsolated {
      let (driver, queue, preparer) = Self.make()
      let counter = Tally()
      let photo = Self.photo(counter)
      var shown: [String] = []
      preparer.addTask(key: "a", prepare: photo, from: "a") { v in
        shown.append(v)
        queue.invalidate()
      }
      preparer.addTask(key: "b", prepare: photo, from: "b") { v in shown.append(v) }
      preparer.prefetch(photo, from: ["c"])
      XCTAssertEqual(driver.runPreparations(maximum: 1), 1)
      driver.drain()
      XCTAssertEqual(driver.runPreparations(), 0)
      driver.drain()
      XCTAssertEqual(shown, ["photo a"])
      assertBalanced(preparer)
      XCTAssertEqual(preparer.statistics.prefetchesPending, 0)
    }
  }

  /// A result pinned for a waiting task survives a memory warning and is applied.
  func testMemoryWarningKeepsAWaitingTasksResult() {
    MainActor.assumeIsolated {
      let (driver, queue, preparer) = Self.make()
      let counter = Tally()
      let photo = Self.photo(counter)
      let cell = PhotoCell()
      preparer.addTask(for: cell, at: 1, prepare: photo, from: "x") { c, v in c.shown.append(v) }
      XCTAssertEqual(driver.runPreparations(), 1)
      driver.sendMemoryWarning()
      driver.drain()
      XCTAssertEqual(cell.shown, ["photo x"])
      XCTAssertEqual(counter.count, 1)
      XCTAssertEqual(Self.queueCounts(queue), [1, 1, 0, 0, 0, 0])
      assertBalanced(preparer)
    }
  }

  /// Without a cache: a row reloaded after its result arrived (not taken in yet) joins it, not preparing again.
  func testNoCacheRowReloadedAfterArrivalJoinsTheResult() {
    MainActor.assumeIsolated {
      let (driver, queue, preparer) = Self.make(cache: 0)
      let counter = Tally()
      let photo = Self.photo(counter)
      let cell = PhotoCell()
      preparer.addTask(for: cell, at: 1, prepare: photo, from: "x") { c, v in c.shown.append(v) }
      XCTAssertEqual(driver.runPreparations(), 1)
      queue.bind(cell, to: 1)  // the row reloaded: its first task is stale
      preparer.addTask(for: cell, at: 1, prepare: photo, from: "x") { c, v in c.shown.append(v + "!") }
      XCTAssertEqual(driver.runPreparations(), 0)
      driver.drain()
      XCTAssertEqual(cell.shown, ["photo x!"])
      XCTAssertEqual(counter.count, 1)
      XCTAssertEqual(Self.queueCounts(queue), [2, 1, 1, 0, 0, 0])
      assertBalanced(preparer)
    }
  }

  /// An off-screen cell's task: its preparation waits unstarted; a prefetch of the same input joining it makes it run
  /// and the cell coming back applies it.
  func testOffScreenCellTaskWaitsThenComesBack() {
    MainActor.assumeIsolated {
      let (driver, queue, preparer) = Self.make()
      let counter = Tally()
      let photo = Self.photo(counter)
      let cell = PhotoCell()
      queue.bind(cell, to: 1)
      queue.cellDidEndDisplaying(cell, at: 1)
      preparer.addTask(for: cell, at: 1, prepare: photo, from: "x") { c, v in c.shown.append(v) }
      XCTAssertEqual(driver.runPreparations(), 0)
      queue.cellWillDisplay(cell, at: 1)
      XCTAssertEqual(driver.runPreparations(), 1)
      driver.drain()
      XCTAssertEqual(cell.shown, ["photo x"])
      XCTAssertEqual(Self.queueCounts(queue), [1, 1, 0, 0, 0, 0])
      assertBalanced(preparer)
    }
  }
}
