import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// Order, capacity, eviction, stale purge and accounting, stepped pass by pass on a manual driver.
final class QueueOrderAndCapacityTests: XCTestCase {
  func testTasksRunInFIFOOrderOnePerPassByDefault() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      var ran: [Int] = []
      for i in 0..<4 { queue.addTask(key: i) { ran.append(i) } }
      XCTAssertEqual(queue.pendingTaskCount, 4)
      driver.runPass()
      XCTAssertEqual(ran, [0])
      driver.runPass()
      XCTAssertEqual(ran, [0, 1])
      XCTAssertEqual(driver.drain(), 2)
      XCTAssertEqual(ran, [0, 1, 2, 3])
      XCTAssertEqual(queue.pendingTaskCount, 0)
      XCTAssertEqual(queue.statistics.executed, 4)
      XCTAssertEqual(queue.statistics.passes, 4)
      XCTAssertFalse(driver.isPassRequested, "an empty queue must not ask for another pass")
    }
  }

  func testPastCapacityTheOldestIsEvicted() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(maximumQueueLength: 3)
      var ran: [Int] = []
      for i in 0..<5 { queue.addTask(key: i) { ran.append(i) } }
      XCTAssertEqual(queue.pendingTaskCount, 3)
      XCTAssertEqual(queue.statistics.evicted, 2)
      driver.drain()
      XCTAssertEqual(ran, [2, 3, 4])
    }
  }

  func testStaleTasksArePurgedBeforeTheOldestIsEvicted() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(maximumQueueLength: 3)
      var ran: [String] = []
      let plain = "plain"
      queue.addTask(key: plain) { ran.append("oldest") }
      let cellA = FakeCell()
      queue.addTask(for: cellA, at: row(1)) { _ in ran.append("a1") }
      let cellB = FakeCell()
      queue.addTask(for: cellB, at: row(2)) { _ in ran.append("b2") }
      queue.bind(cellA, to: row(7))  // reused for another row: its task is stale now
      queue.addTask(key: plain) { ran.append("newest") }
      XCTAssertEqual(queue.statistics.skippedAsStale, 1, "the stale task goes first")
      XCTAssertEqual(queue.statistics.evicted, 0, "so nothing live is evicted")
      driver.drain()
      XCTAssertEqual(ran, ["oldest", "b2", "newest"])
    }
  }

  /// Past capacity the queue drops, in this order: every stale task, then parked ones (cells off screen),
  /// oldest first, then discardable ones, oldest first, and only then the oldest.
  func testOverflowDropsStaleThenParkedThenDiscardableThenOldest() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(maximumQueueLength: 4)
      var ran: [String] = []
      let parkedCell = FakeCell()
      let staleCell = FakeCell()
      let oldest = queue.addTask(key: "oldest") { ran.append("oldest") }
      let discardable = queue.addTask(key: "discardable", droppable: true) { ran.append("discardable") }
      let parked = queue.addTask(for: parkedCell, at: row(1)) { _ in ran.append("parked") }
      queue.cellDidEndDisplaying(parkedCell, at: row(1))
      let stale = queue.addTask(for: staleCell, at: row(2)) { _ in ran.append("stale") }
      queue.bind(staleCell, to: row(3))  // configured again: its task is stale

      queue.addTask(key: "new 1") { ran.append("new 1") }
      XCTAssertFalse(stale.isPending, "the stale task goes first")
      XCTAssertEqual(queue.statistics.skippedAsStale, 1)
      XCTAssertEqual(queue.statistics.evicted, 0)

      queue.addTask(key: "new 2") { ran.append("new 2") }
      XCTAssertFalse(parked.isPending, "then the parked one")
      XCTAssertEqual(queue.statistics.evicted, 1)

      queue.addTask(key: "new 3") { ran.append("new 3") }
      XCTAssertFalse(discardable.isPending, "then the discardable one")
      XCTAssertTrue(oldest.isPending, "a discardable task goes before the oldest")
      XCTAssertEqual(queue.statistics.evicted, 2)

      queue.addTask(key: "new 4") { ran.append("new 4") }
      XCTAssertFalse(oldest.isPending, "and only then the oldest")
      XCTAssertEqual(queue.statistics.evicted, 3)

      let prefetch = queue.addTask(key: "prefetch", droppable: true) { ran.append("prefetch") }
      XCTAssertFalse(prefetch.isPending, "a discardable task added to a full queue of others evicts itself")
      XCTAssertEqual(queue.statistics.evicted, 4)
      driver.drain()
      XCTAssertEqual(ran, ["new 1", "new 2", "new 3", "new 4"])
      XCTAssertTrue(queue.statistics.isBalanced, queue.statistics.summary)
    }
  }

  func testLoweringTheCapacityTrimsAtOnceStaleFirst() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(maximumQueueLength: 10)
      var ran: [Int] = []
      var cell: FakeCell? = FakeCell()
      for i in 0..<4 { queue.addTask(key: i) { ran.append(i) } }
      queue.addTask(for: cell!, at: row(9)) { _ in ran.append(9) }
      cell = nil  // freed: its task is stale
      queue.maximumQueueLength = 2
      XCTAssertEqual(queue.pendingTaskCount, 2)
      XCTAssertEqual(queue.statistics.skippedAsStale, 1)
      XCTAssertEqual(queue.statistics.evicted, 2)
      driver.drain()
      XCTAssertEqual(ran, [2, 3])
    }
  }

  func testZeroCapacityKeepsNothing() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(maximumQueueLength: 0)
      var ran = 0
      let handle = queue.addTask(key: 1) { ran += 1 }
      XCTAssertFalse(handle.isPending)
      XCTAssertEqual(queue.statistics.evicted, 1)
      driver.drain()
      XCTAssertEqual(ran, 0)
    }
  }

  func testTasksAreReleasedAsSoonAsTheyRunOrLeave() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(maximumQueueLength: 2)
      weak var ranProbe: Probe?
      weak var evictedProbe: Probe?
      weak var cancelledProbe: Probe?
      weak var staleProbe: Probe?
      do {
        let p1 = Probe()
        let p2 = Probe()
        let p3 = Probe()
        let p4 = Probe()
        ranProbe = p1
        evictedProbe = p2
        cancelledProbe = p3
        staleProbe = p4
        queue.addTask(key: "evicted") { _ = p2 }
        queue.addTask(key: "ran") { _ = p1 }
        queue.addTask(key: "cancel") { _ = p3 }  // evicts "evicted"
        let cell = FakeCell()
        queue.cancelTasks(forKey: "cancel")
        queue.addTask(for: cell, at: row(0)) { _ in _ = p4 }
        queue.bind(cell, to: row(1))
      }
      XCTAssertNil(evictedProbe, "an evicted task is released at once")
      XCTAssertNil(cancelledProbe, "a cancelled task is released at once")
      XCTAssertNotNil(ranProbe)
      driver.runPass()
      XCTAssertNil(ranProbe, "a task that ran is released at once")
      driver.runPass()
      XCTAssertNil(staleProbe, "a stale task is released when skipped")
      XCTAssertEqual(queue.statistics.skippedAsStale, 1)
    }
  }

  func testEveryTaskIsAccountedFor() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(maximumQueueLength: 4)
      let cell = FakeCell()
      for i in 0..<6 { queue.addTask(key: i % 2) {} }  // 2 evicted
      queue.addTask(for: cell, at: row(3)) { _ in }
      queue.bind(cell, to: row(4))
      queue.cancelTasks(forKey: 1)
      driver.runPass()
      var s = queue.statistics
      XCTAssertEqual(s.added, 7)
      XCTAssertEqual(s.evicted, 3, "two at the 5th and 6th additions, one more when the cell task arrived")
      XCTAssertEqual(s.cancelled, 2)
      XCTAssertEqual(s.executed, 1)
      XCTAssertEqual(s.pending, 1, "the cell task, stale now, waits for its turn")
      XCTAssertTrue(s.isBalanced, "\(s)")
      driver.runPass()
      s = queue.statistics
      XCTAssertEqual(s.skippedAsStale, 1)
      XCTAssertEqual(s.pending, 0)
      XCTAssertTrue(s.isBalanced, "\(s)")
      queue.addTask(key: 0) {}
      queue.invalidate()
      s = queue.statistics
      XCTAssertEqual(s.cancelled, 3)
      XCTAssertEqual(s.added, s.executed + s.skippedAsStale + s.evicted + s.cancelled + s.pending)
    }
  }

  func testCancelByKeyAndByHandle() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      var ran: [String] = []
      queue.addTask(key: "a") { ran.append("a1") }
      let handle = queue.addTask(key: "b") { ran.append("b") }
      queue.addTask(key: "a") { ran.append("a2") }
      queue.addTask(key: "c") { ran.append("c") }
      XCTAssertEqual(queue.cancelTasks(forKey: "a"), 2)
      XCTAssertTrue(handle.isPending)
      XCTAssertTrue(handle.cancel())
      XCTAssertFalse(handle.cancel(), "a handle cancels once")
      XCTAssertFalse(handle.isPending)
      driver.drain()
      XCTAssertEqual(ran, ["c"])
      XCTAssertEqual(queue.statistics.cancelled, 3)
    }
  }

  func testRemoveAllTasksAndInvalidate() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      var ran = 0
      for i in 0..<3 { queue.addTask(key: i) { ran += 1 } }
      queue.cancelAllTasks()
      XCTAssertEqual(queue.pendingTaskCount, 0)
      queue.addTask(key: 9) { ran += 1 }
      queue.invalidate()
      XCTAssertTrue(driver.isStopped, "invalidate removes the observer")
      let late = queue.addTask(key: 10) { ran += 1 }
      XCTAssertFalse(late.isPending, "an addTask after invalidate is a no-op")
      XCTAssertEqual(queue.pendingTaskCount, 0)
      driver.drain()
      XCTAssertEqual(ran, 0)
      XCTAssertEqual(queue.statistics.added, 4)
      XCTAssertEqual(queue.statistics.cancelled, 4)
    }
  }
}
