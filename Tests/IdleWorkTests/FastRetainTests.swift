import Foundation
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// Issue 11, hot path: apps retain their queue around every `addTask` (reading it from a property), and a
/// weakly referenced object takes the slow path for every retain and release — measured in FeedDemo, that
/// alone doubled an addition. So nothing inside IdleWork refers to the queue object weakly: the scheduler
/// and the queue directory (which handles look their queue up in) refer to its `QueueCore`.
final class FastRetainTests: XCTestCase {
  func testNothingRefersWeaklyToTheQueueAppsKeep() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver, configuration: .scrollingFeed(timeUntilNextFrame: { 0.01 }))
      let cell = NSObject()
      queue.bind(cell, to: IndexPath(indexes: [0, 0]))
      let handle = queue.addTask(key: 1) {}
      queue.addTask(for: cell, at: IndexPath(indexes: [0, 0])) { _ in }
      XCTAssertTrue(handle.isPending)
      // The runtime's weak count of an object nothing refers to weakly (no side table), for comparison.
      let none = _getWeakRetainCount(Unreferenced())
      XCTAssertEqual(
        _getWeakRetainCount(queue), none, "a weak reference to the queue puts its retains on the slow path")
      XCTAssertGreaterThan(
        _getWeakRetainCount(queue.core), none, "the scheduler and the queue directory refer weakly to its core")
      driver.drain()
      XCTAssertFalse(handle.isPending)
    }
  }

  func testHandlesAndPassesOutliveNoQueue() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      var queue: IdleQueue? = IdleQueue(driver: driver)
      weak let core = queue?.core
      var ran = false
      let handle = queue!.addTask(key: 1) { ran = true }
      queue = nil
      XCTAssertNil(core, "the core goes with the queue")
      XCTAssertFalse(handle.isPending)
      XCTAssertFalse(handle.cancel())
      driver.runPass()
      XCTAssertFalse(ran, "a released queue's tasks never run")
    }
  }
}

extension FastRetainTests {
  /// A handle stores its queue's number, not a reference (a retain per `addTask` and a release when the
  /// caller drops the handle were a quarter of an addition); the number finds the queue while it lives, and a
  /// freed queue's entry leaves the directory.
  func testHandlesFindTheirQueueByNumberAndAFreedQueueLeavesTheDirectory() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      var queue: IdleQueue? = IdleQueue(driver: driver)
      let number = queue!.core.number
      let before = _getRetainCount(queue!.core)
      let handles = (0..<10).map { key in queue!.addTask(key: key) {} }
      XCTAssertEqual(_getRetainCount(queue!.core), before, "handles hold no reference to the queue")
      XCTAssertTrue(handles[3].cancel())
      XCTAssertFalse(handles[3].isPending)
      XCTAssertTrue(handles[4].isPending)
      XCTAssertTrue(QueueDirectory.shared.queue(number) === queue!.core)
      queue = nil
      XCTAssertFalse(QueueDirectory.shared.contains(number), "a freed queue stays listed")
      XCTAssertFalse(handles[4].isPending)
      XCTAssertFalse(handles[4].cancel())
    }
  }

  #if !canImport(ObjectiveC)
    /// Where cells are native Swift objects, a weak reference gives the cell a side table, and every retain
    /// and release of it in the app (every `cellForRowAt` holds its cell) takes the runtime's slow path. The
    /// registry keeps its cells' memory with an unowned reference instead, and still sees a released cell.
    func testNothingRefersWeaklyToACellAndAReleasedCellIsStillSeen() {
      MainActor.assumeIsolated {
        let driver = ManualPassDriver()
        let queue = IdleQueue(driver: driver)
        let none = _getWeakRetainCount(Unreferenced())
        var cell: HardeningCell? = HardeningCell()
        var ran = 0
        queue.bind(cell!, to: IndexPath(indexes: [0, 0]))
        queue.addTask(for: cell!, at: IndexPath(indexes: [0, 0])) { _ in ran += 1 }
        queue.addTask(for: cell!, at: IndexPath(indexes: [0, 0])) { _ in ran += 1 }
        queue.cellDidEndDisplaying(cell!, at: IndexPath(indexes: [0, 0]))
        XCTAssertEqual(_getWeakRetainCount(cell!), none, "a weak reference to a cell slows the app's retains of it")
        XCTAssertEqual(queue.statistics.pending, 2)
        cell = nil
        driver.drain()
        XCTAssertEqual(ran, 0, "a released cell's task ran")
        XCTAssertEqual(queue.statistics.skippedAsStale, 2, "a released cell's parked tasks are stale")
        XCTAssertEqual(queue.statistics.pending, 0)
      }
    }

    /// A record reads its cell's state through the runtime's entry points, or — where they cannot be found
    /// (an executable linked with the static Swift runtime) — through a weak reference; either way it sees
    /// the cell alive, hands it out while it lives, and sees its release.
    func testARecordSeesItsCellsReleaseWithAndWithoutTheRuntimesEntryPoints() {
      MainActor.assumeIsolated {
        XCTAssertNotNil(SwiftRuntime.available, "the runtime's entry points are found in a test process")
        for runtime in [SwiftRuntime.available, nil] {
          var cell: HardeningCell? = HardeningCell()
          let record = CellRegistry.Record(cell: cell!, item: TaskKey(1), configuration: 1, runtime: runtime)
          XCTAssertTrue(record.isAlive)
          XCTAssertTrue(record.cell === cell)
          let none = _getWeakRetainCount(Unreferenced())
          if runtime == nil {
            XCTAssertGreaterThan(_getWeakRetainCount(cell!), none, "the fallback is a weak reference")
          } else {
            XCTAssertEqual(_getWeakRetainCount(cell!), none, "no weak reference with the runtime's entry points")
          }
          cell = nil
          XCTAssertFalse(record.isAlive, "runtime: \(runtime == nil ? "none" : "found")")
          XCTAssertNil(record.cell, "runtime: \(runtime == nil ? "none" : "found")")
        }
      }
    }
  #endif
}

/// An object nothing refers to weakly.
private final class Unreferenced {}
