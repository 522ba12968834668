import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// A task that stays pending at the head of the queue for long — a parked cell's task whose cell stays alive
/// off screen, a prepared task whose preparation never ends — must not pin the task list's storage: what the
/// list stores (and what every pass scans) stays proportional to the pending tasks, not to every task added
/// since the pinned one.
final class TaskListCompactionTests: XCTestCase {
  /// Tasks added and run behind the pinned one in a queue. Enough that a list compacting only from its head
  /// holds ten times the bound; not more, because such a list makes every pass scan all of them (the test
  /// would then take minutes).
  static let cycles = 20_000
  /// What the list may store with one task pinned and one added at a time: a few thousand slots at most.
  static let storageBound = 2048

  /// The list alone, with one entry pinned at the head while 200,000 entries are appended and taken to run
  /// (no pass scans here, so many cycles are cheap with or without compaction).
  func testAPinnedEntryDoesNotPinTheListsStorage() {
    var list = TaskList<Int>(capacity: 30)
    _ = list.append(key: TaskKey("pinned"), payload: -1, canBeStale: true, state: { _ in .parked })
    for i in 0..<200_000 {
      let (seq, removed) = list.append(key: TaskKey(i), payload: i, state: { _ in .parked })
      XCTAssertTrue(removed.isEmpty)
      XCTAssertEqual(list.takeForRun(seq)?.payload, i)
    }
    XCTAssertEqual(list.count, 1)
    XCTAssertLessThanOrEqual(
      list.storageCount, Self.storageBound, "one pending entry holds \(list.storageCount) slots")
    XCTAssertEqual(list.first?.payload, -1)
    XCTAssertEqual(list.firstRunnable(state: { _ in .runnable }).entry?.payload, -1)
  }

  /// A parked cell task at the head while 20,000 tasks are added and run: the storage stays small, and the
  /// parked task keeps its place — shown again, it runs before a task added after it.
  func testAParkedTaskAtTheHeadDoesNotPinTheStorage() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let cell = FakeCell()
      var ran: [String] = []
      queue.addTask(for: cell, at: row(0)) { _ in ran.append("parked") }
      queue.cellDidEndDisplaying(cell, at: row(0))
      Self.runTasksBehindThePinnedOne(on: queue, driver)
      queue.addTask(key: "after") { ran.append("after") }
      queue.cellWillDisplay(cell, at: row(0))
      driver.drain()
      XCTAssertEqual(ran, ["parked", "after"], "the parked task kept its place at the head")
      XCTAssertEqual(queue.core.list.storageCount, 0)
      XCTAssertTrue(queue.statistics.isBalanced, queue.statistics.summary)
    }
  }

  /// The same with a later task whose work has not come: the storage stays small, and the work runs once it
  /// comes.
  func testAWaitingLaterTaskAtTheHeadDoesNotPinTheStorage() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let applied = LockedBox<[Int]>([])
      let task = queue.addLaterTask(key: "slow")
      Self.runTasksBehindThePinnedOne(on: queue, driver)
      task.fulfill { _ in applied.update { $0.append(42) } }
      driver.drain()
      XCTAssertEqual(applied.value, [42])
      XCTAssertTrue(queue.statistics.isBalanced, queue.statistics.summary)
    }
  }

  /// Adds and runs ``cycles`` tasks one pass at a time behind the one pending task at the head, then checks that
  /// they all ran, the pinned one is still pending, and the storage stayed small.
  @MainActor
  private static func runTasksBehindThePinnedOne(
    on queue: IdleQueue, _ driver: ManualPassDriver, file: StaticString = #filePath, line: UInt = #line
  ) {
    var executed = 0
    for i in 0..<cycles {
      queue.addTask(key: i) { executed += 1 }
      driver.runPass()
    }
    XCTAssertEqual(executed, cycles, file: file, line: line)
    XCTAssertEqual(queue.pendingTaskCount, 1, file: file, line: line)
    XCTAssertLessThanOrEqual(
      queue.core.list.storageCount, storageBound,
      "one pending task holds \(queue.core.list.storageCount) slots after \(cycles) tasks ran behind it",
      file: file, line: line)
  }
}
