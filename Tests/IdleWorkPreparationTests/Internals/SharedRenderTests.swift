import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkPreparation
@testable import IdleWorkTesting

/// Tasks that share one render by content: only tasks of the same result type share, and each sharer keeps its own
/// fate — cancelled, configured again, evicted, failed or applied — while the render runs once.
final class SharedRenderTests: XCTestCase {
  typealias Cell = PreparedTaskTests.Cell

  /// Content keys are per result type: tasks with equal content but different values neither share a
  /// render nor a cached result (each gets its own type, rather than a failed cast).
  func testEqualContentOfDifferentValueTypesIsNotShared() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver, configuration: .init())
      _ = Preparer(queue: queue, configuration: .init(resultCacheLimit: 1 << 20))
      var numbers: [Int] = []
      var strings: [String] = []
      queue.addTask(key: 0, content: "photo 7") { _ in
        7
      } apply: {
        numbers.append($0)
      }
      queue.addTask(key: 1, content: "photo 7") { _ in
        "seven"
      } apply: {
        strings.append($0)
      }
      XCTAssertEqual(driver.runPreparations(), 2)
      driver.drain()
      queue.addTask(key: 2, content: "photo 7") { _ in
        "not cached"
      } apply: {
        strings.append($0)
      }
      queue.addTask(key: 3, content: "photo 7") { _ in
        -1
      } apply: {
        numbers.append($0)
      }
      XCTAssertEqual(numbers, [7, 7])
      XCTAssertEqual(strings, ["seven", "seven"])
      assertPreparedBalanced(queue)
    }
  }

  /// Sharers by content each keep their own fate: one cancelled, one configured again, one evicted, one
  /// applied; the shared render runs once, is not wasted, and is not cancelled while one sharer waits.
  func testSharersKeepTheirOwnFates() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(maximumQueueLength: 4)
      let cells = (0..<4).map { _ in Cell() }
      let renders = Counter()
      let cancelledSeen = Log()
      var handles: [IdleTaskHandle] = []
      for (row, cell) in cells.enumerated() {
        queue.bind(cell, to: row)
        handles.append(
          queue.addTask(for: cell, at: row, content: "avatar") { isCancelled in
            renders.increment()
            cancelledSeen.append(isCancelled() ? 1 : 0)
            return "avatar"
          } apply: { cell, value in
            cell.shown.append(value)
          })
      }
      XCTAssertTrue(handles[0].cancel())
      queue.bind(cells[1], to: 11)
      queue.addTask(key: "overflow") {}  // full
      queue.addTask(key: "overflow") {}  // over capacity: row 1's stale task goes first
      queue.addTask(key: "overflow") {}  // then the oldest, row 2's, is evicted
      assertPreparedBalanced(queue)
      XCTAssertEqual(driver.runPreparations(), 1)
      driver.drain()
      XCTAssertEqual(renders.value, 1)
      XCTAssertEqual(cancelledSeen.values, [0], "one sharer still waited")
      XCTAssertEqual(cells.map(\.shown), [[], [], [], ["avatar"]])
      let s = queue.counts
      XCTAssertEqual(s.cancelled, 1)
      XCTAssertEqual(s.skippedAsStale, 1)
      XCTAssertEqual(s.evicted, 1)
      XCTAssertEqual(s.executed, 4)
      XCTAssertEqual(queue.counts.wastedPreparations, 0)
      assertPreparedBalanced(queue)
    }
  }

  /// A shared render that throws fails every task still waiting for it, once each.
  func testAFailedSharedRenderFailsEachWaitingTaskOnce() {
    MainActor.assumeIsolated {
      struct Broken: Error {}
      let (queue, driver) = manualQueue()
      let cells = (0..<3).map { _ in Cell() }
      for (row, cell) in cells.enumerated() {
        queue.bind(cell, to: row)
        queue.addTask(for: cell, at: row, content: "broken") { _ -> String in
          throw Broken()
        } apply: { _, _ in
          XCTFail("failed")
        }
      }
      queue.cellDidEndDisplaying(cells[1], at: 1)  // parked: fails too
      queue.bind(cells[2], to: 12)  // stale: leaves as stale, not failed
      XCTAssertEqual(driver.runPreparations(), 1)
      driver.drain()
      driver.runPass()
      let s = queue.counts
      XCTAssertEqual(queue.counts.failed, 2)
      XCTAssertEqual(s.skippedAsStale, 1)
      XCTAssertEqual(queue.counts.wastedPreparations, 0)
      XCTAssertEqual(s.pending, 0)
      assertPreparedBalanced(queue)
    }
  }
}
