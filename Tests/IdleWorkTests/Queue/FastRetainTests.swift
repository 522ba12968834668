import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// The hot path: apps retain their queue around every `addTask` (reading it from a property), and a
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
  /// A handle holds its queue weakly: it finds the queue while it lives, keeps it from neither being freed, and
  /// reaches nothing once it is.
  func testHandlesHoldTheirQueueWeakly() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      var queue: IdleQueue? = IdleQueue(driver: driver)
      weak let core = queue!.core
      let before = _getRetainCount(queue!.core)
      let handles = (0..<10).map { key in queue!.addTask(key: key) {} }
      XCTAssertEqual(_getRetainCount(queue!.core), before, "handles hold no strong reference to the queue")
      XCTAssertTrue(handles[3].cancel())
      XCTAssertFalse(handles[3].isPending)
      XCTAssertTrue(handles[4].isPending)
      XCTAssertTrue(handles[4].queue === queue!.core)
      queue = nil
      XCTAssertNil(core, "a handle kept its queue alive")
      XCTAssertFalse(handles[4].isPending)
      XCTAssertFalse(handles[4].cancel())
    }
  }

  /// One liveness path on every platform: a record refers to its cell weakly (what iOS runs), sees the
  /// cell's release, and tells a new cell made at a freed cell's address from the freed one — the freed
  /// cell's tasks are stale, never run on the newcomer, and the newcomer starts its own configuration.
  func testANewCellAtAFreedCellsAddressIsNotTakenForIt() throws {
    // AddressSanitizer keeps freed memory from being reused (its quarantine): no cell can take another's address.
    try XCTSkipIf(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil, "no address reuse under ASan")
    var addressReused = true
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver)
      var ranOn: [ObjectIdentifier] = []
      var cell: HardeningCell? = HardeningCell()
      let address = ObjectIdentifier(cell!)
      let row = IndexPath(indexes: [0, 0])
      queue.bind(cell!, to: row)
      queue.addTask(for: cell!, at: row) { ranOn.append(ObjectIdentifier($0)) }
      XCTAssertGreaterThan(
        _getWeakRetainCount(cell!), _getWeakRetainCount(Unreferenced()), "the record refers to its cell weakly")
      cell = nil
      // The allocator hands a freed block of the same size back first; keep the misses alive so that each
      // try gets a new block.
      var misses: [HardeningCell] = []
      var newcomer = HardeningCell()
      while ObjectIdentifier(newcomer) != address, misses.count < 10_000 {
        misses.append(newcomer)
        newcomer = HardeningCell()
      }
      // The heap may not hand the address back (its state depends on every test before): nothing to check then.
      guard ObjectIdentifier(newcomer) == address else {
        addressReused = false
        return
      }
      queue.addTask(for: newcomer, at: row) { ranOn.append(ObjectIdentifier($0)) }
      driver.drain()
      XCTAssertEqual(ranOn, [address], "the newcomer's own task ran once, the freed cell's never")
      XCTAssertEqual(queue.statistics.skippedAsStale, 1, "the freed cell's task is stale")
      XCTAssertEqual(queue.statistics.executed, 1)
      withExtendedLifetime(misses) {}
    }
    try XCTSkipUnless(addressReused, "the allocator did not hand the freed cell's address back")
  }
}

/// An object nothing refers to weakly.
private final class Unreferenced {}
