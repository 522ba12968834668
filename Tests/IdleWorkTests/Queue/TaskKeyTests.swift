import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// The hot path: keys are stored unboxed for `Int`, `IndexPath` and `String`, boxed otherwise, and
/// hashed only when a cancellation by key scans them. Cancelling by key must still match by type and value.
final class TaskKeyTests: XCTestCase {
  private struct Custom: Hashable {
    let id: Int
  }

  func testKeysMatchByTypeAndValueWhateverTheirStorage() {
    XCTAssertTrue(TaskKey(7).matches(TaskKey(7)))
    XCTAssertFalse(TaskKey(7).matches(TaskKey(8)))
    XCTAssertTrue(TaskKey("a").matches(TaskKey("a")))
    XCTAssertTrue(TaskKey(row(3)).matches(TaskKey(row(3))))
    XCTAssertFalse(TaskKey(row(3)).matches(TaskKey(row(4))))
    XCTAssertTrue(TaskKey(Custom(id: 1)).matches(TaskKey(Custom(id: 1))))
    XCTAssertFalse(TaskKey(Custom(id: 1)).matches(TaskKey(Custom(id: 2))))
    XCTAssertFalse(TaskKey(7).matches(TaskKey(Custom(id: 7))), "another type never matches")
    XCTAssertFalse(TaskKey(Int64(7)).matches(TaskKey(7)), "Int64 is not Int")
    XCTAssertEqual(TaskKey(7).hash, 7.hashValue)
    XCTAssertEqual(TaskKey(row(3)).hash, row(3).hashValue)
  }

  /// A cell's stored item is compared with each call's item without building a key for it: the comparison must
  /// agree with comparing keys, for every storage.
  func testAStoredKeyMatchesAnItemAsItMatchesTheItemsKey() {
    let items: [any Hashable] = [7, Int64(7), "a", "b", row(3), row(4), Custom(id: 1), Custom(id: 2)]
    for stored in items {
      for item in items {
        func compare<Item: Hashable>(_ item: Item) -> Bool { TaskKey(stored).matches(item) }
        XCTAssertEqual(compare(item), TaskKey(stored).matches(TaskKey(item)), "\(stored) and \(item)")
      }
    }
    XCTAssertTrue(TaskKey(Custom(id: 1)).matches(Custom(id: 1)))
    XCTAssertFalse(TaskKey(Custom(id: 1)).matches(1))
  }

  func testCancellingByKeyFindsEveryKindOfKeyAfterTheListWasCompacted() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(budget: .tasks(100), maximumQueueLength: 10_000)
      for i in 0..<200 { queue.addTask(key: i) {} }
      XCTAssertEqual(queue.cancelTasks(forKey: 5), 1, "hashes the 200 keys once")
      for i in 0..<150 { queue.cancelTasks(forKey: i) }  // the head moves: the storage is compacted
      queue.addTask(key: "s") {}
      queue.addTask(key: Custom(id: 9)) {}
      queue.addTask(for: FakeCell(), at: row(2)) { _ in }
      XCTAssertEqual(queue.cancelTasks(forKey: 180), 1)
      XCTAssertEqual(queue.cancelTasks(forKey: "s"), 1)
      XCTAssertEqual(queue.cancelTasks(forKey: Custom(id: 9)), 1)
      XCTAssertEqual(queue.cancelTasks(forKey: row(2)), 1)
      XCTAssertEqual(queue.cancelTasks(forKey: Custom(id: 9)), 0)
      XCTAssertEqual(queue.pendingTaskCount, 49)
      driver.drain()
      XCTAssertEqual(queue.statistics.executed, 49)
    }
  }

  /// A cell task's optional key is an `AnyHashable`: it is the value it wraps, so that `cancelTasks(forKey:)` with
  /// the plain value finds it; `nil` uses the item.
  func testACellTasksAnyHashableKeyIsTheValueItWraps() {
    MainActor.assumeIsolated {
      let (queue, _) = manualQueue()
      let cell = FakeCell()
      queue.addTask(for: cell, at: row(1), key: "list A") { _ in }
      queue.addTask(for: cell, at: row(1), key: AnyHashable(7)) { _ in }
      queue.addTask(for: cell, at: row(1), key: nil) { _ in }
      XCTAssertEqual(queue.cancelTasks(forKey: "list A"), 1)
      XCTAssertEqual(queue.cancelTasks(forKey: 7), 1)
      XCTAssertEqual(queue.cancelTasks(forKey: row(1)), 1, "nil: the item is the key")
      XCTAssertTrue(TaskKey(AnyHashable(row(3))).matches(row(3)))
      XCTAssertFalse(TaskKey(AnyHashable(Int64(7))).matches(TaskKey(7)), "Int64 is still not Int")
    }
  }
}
