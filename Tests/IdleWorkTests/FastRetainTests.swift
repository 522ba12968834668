import Foundation
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// Issue 11, hot path: apps retain their queue around every `addTask` (reading it from a property), and a
/// weakly referenced object takes the slow path for every retain and release — measured in FeedDemo, that
/// alone doubled an addition. So nothing inside IdleWork refers to the queue object weakly: the scheduler
/// and the handles refer to its `QueueCore`.
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
        _getWeakRetainCount(queue.core), none, "the scheduler and the handles refer weakly to its core")
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

/// An object nothing refers to weakly.
private final class Unreferenced {}
