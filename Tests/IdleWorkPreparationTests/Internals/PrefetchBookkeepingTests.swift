import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkPreparation
@testable import IdleWorkTesting

/// How prefetches are kept and counted: cancelled with every task, an input given twice in one call, the order's
/// memory, and a finished prefetch's fate whether or not a pass took its outcome in first.
final class PrefetchBookkeepingTests: XCTestCase {
  final class Cell {
    var shown: [String] = []
  }

  struct Boom: Error {}

  /// `cancelAllTasks()` cancels pending prefetches too: nothing is prepared after it, and nothing stays pending.
  func testCancellingEveryTaskCancelsPendingPrefetches() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = PrefetchTests.prefetchingQueue()
      queue.preparer.prefetch(photo, from: ["a", "b"])
      queue.cancelAllTasks()
      XCTAssertEqual(driver.runPreparations(), 0)
      XCTAssertEqual(log.entries, [])
      let s = queue.counts
      XCTAssertEqual([s.added, s.cancelled, s.pending], [2, 2, 0])
      XCTAssertTrue(s.isBalanced, s.summary)
    }
  }

  /// An input given twice in one call (two rows showing one photo) takes one place: it neither uses up the room of
  /// a row behind it nor evicts itself.
  func testAnInputGivenTwiceInOneCallTakesOnePlace() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = PrefetchTests.prefetchingQueue(maximumQueueLength: 2)
      queue.preparer.prefetch(photo, from: ["a", "b", "a"])
      XCTAssertEqual(PrefetchTests.prepareAll(driver), 2)
      XCTAssertEqual(log.entries.sorted(), ["a", "b"])
      let other = PrefetchTests.prefetchingQueue(maximumQueueLength: 2)
      other.0.preparer.prefetch(other.3, from: ["a", "a", "b"])
      XCTAssertEqual(PrefetchTests.prepareAll(other.1), 2)
      XCTAssertEqual(other.2.entries.sorted(), ["a", "b"])
      XCTAssertEqual(other.0.preparer.statistics.prefetchesEvicted, 0)
    }
  }

  /// Prefetch calls that keep the queue over its length keep it at its length, every prefetch accounted for.
  func testPrefetchesStayWithinTheQueuesLengthUnderEvictions() {
    MainActor.assumeIsolated {
      let (queue, _, _, photo) = PrefetchTests.prefetchingQueue(maximumQueueLength: 4)
      for i in 0..<10_000 { queue.preparer.prefetch(photo, from: ["\(i)a", "\(i)b"]) }
      let preparation = queue.core.preparation!
      XCTAssertEqual(preparation.prefetches.count, 4)
      XCTAssertEqual(queue.counts.evicted, 20_000 - 4)
      XCTAssertTrue(queue.counts.isBalanced, queue.counts.summary)
    }
  }

  /// A prefetch whose preparation threw counts failed, whether it was cancelled before or after a pass took the
  /// failure in.
  func testAFailedPrefetchCountsFailedWheneverItIsCancelled() {
    MainActor.assumeIsolated {
      for passBeforeTheCancel in [false, true] {
        let driver = ManualPassDriver()
        let queue = IdleQueue(driver: driver, configuration: .init())
        _ = Preparer(queue: queue, configuration: .init(resultCacheLimit: 1 << 20))
        let failing = Preparation { (_: String, _) throws -> String in throw Boom() }
        queue.preparer.prefetch(failing, from: ["a"])
        XCTAssertEqual(driver.runPreparations(), 1)
        if passBeforeTheCancel { driver.runPass() }
        queue.preparer.cancelPrefetching(failing, from: ["a"])
        driver.drain()
        let s = queue.counts
        XCTAssertEqual(
          [s.added, s.executed, s.cancelled, queue.counts.failed, s.pending], [1, 0, 0, 1, 0],
          "pass first: \(passBeforeTheCancel)"
        )
      }
    }
  }

  /// Without a cache, a row reloaded while a failed preparation waits for its pass does not join the failure: it
  /// prepares again.
  func testARowReloadedAfterAFailureWaitingForItsPassPreparesAgain() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver)  // no result cache
      let attempts = LockedBox(0)
      let flaky = Preparation { (name: String, _) throws -> String in
        let attempt = attempts.value + 1
        attempts.value = attempt
        if attempt == 1 { throw Boom() }
        return "image of \(name)"
      }
      let cell = Cell()
      queue.bind(cell, to: 0)
      queue.preparer.addTask(for: cell, at: 0, prepare: flaky, from: "a") { cell, image in cell.shown.append(image) }
      XCTAssertEqual(driver.runPreparations(), 1, "failed; no pass took the failure in")
      queue.bind(cell, to: 0)
      queue.preparer.addTask(for: cell, at: 0, prepare: flaky, from: "a") { cell, image in cell.shown.append(image) }
      XCTAssertEqual(driver.runPreparations(), 1, "prepared again, not joined to the failure")
      driver.drain()
      XCTAssertEqual(cell.shown, ["image of a"])
      XCTAssertTrue(queue.counts.isBalanced, queue.counts.summary)
    }
  }
}
