import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkPreparation
@testable import IdleWorkTesting

/// A queue's result cache as its prepared tasks use it: within its byte limit, the least recently used out first;
/// a result whose task is still to apply it stays pinned — counted, never evicted — across a memory warning too.
final class PreparedResultCacheTests: XCTestCase {
  /// The cache keeps results within its byte limit, least recently used out first; a result larger than
  /// the limit is not kept; a memory warning empties it; a hit is counted executed.
  func testTheCacheKeepsTheMostRecentlyUsedWithinItsLimit() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      // 400 bytes less the room for the results on their way (a quarter of the limit here): three results kept.
      let queue = IdleQueue(driver: driver, configuration: .init(maximumQueueLength: 100))
      _ = Preparer(queue: queue, configuration: .init(resultCacheLimit: 400))
      let renders = Log()
      var applied: [Int] = []
      @MainActor func request(_ content: Int, bytes: Int = 100) {
        queue.addTask(key: content, content: content, resultBytes: { _ in bytes }) { _ in
          renders.append(content)
          return content
        } apply: {
          applied.append($0)
        }
      }
      for content in 0..<3 { request(content) }
      driver.runPreparations()
      driver.drain()
      request(0)  // a hit: 0 becomes the most recently used
      request(3)  // prepared; its arrival pushes out the least recently used, 1
      driver.runPreparations()
      driver.drain()
      XCTAssertEqual(renders.values, [0, 1, 2, 3])
      request(0)
      request(2)
      request(3)
      XCTAssertEqual(driver.runPreparations(), 0, "all three hits")
      request(1)
      XCTAssertEqual(driver.runPreparations(), 1, "1 was dropped")
      driver.drain()
      request(4, bytes: 401)
      driver.runPreparations()
      driver.drain()
      request(4, bytes: 401)
      XCTAssertEqual(driver.runPreparations(), 1, "a result over the limit is not kept")
      driver.drain()
      XCTAssertEqual(queue.core.preparation!.cache.bytes, 300)
      queue.dropDiscardableTasks()  // a memory warning
      XCTAssertEqual(queue.core.preparation!.cache.count, 0)
      request(0)
      XCTAssertEqual(driver.runPreparations(), 1, "emptied by the memory warning")
      driver.drain()
      XCTAssertEqual(applied, [0, 1, 2, 0, 3, 0, 2, 3, 1, 4, 4, 0])
      let s = queue.counts
      XCTAssertEqual(s.executed, 12)
      XCTAssertEqual(queue.counts.wastedPreparations, 0)
      assertPreparedBalanced(queue)
    }
  }

  /// A result whose task is still to apply it stays in the cache, counted against the limit, even when it is
  /// the least recently used: evicting it would free nothing (the task holds it) and let the results alive
  /// exceed the limit. A later task for that content is then a hit.
  func testAResultWaitingForItsApplyIsNotEvicted() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      // 400 bytes less the room for the results on their way (a quarter of the limit here): three results kept.
      let queue = IdleQueue(driver: driver, configuration: .init(maximumQueueLength: 100))
      _ = Preparer(queue: queue, configuration: .init(resultCacheLimit: 400))
      var applied: [Int] = []
      @MainActor func request(_ content: Int) {
        queue.addTask(key: "\(content)-\(applied.count)", content: content, resultBytes: { _ in 100 }) { _ in
          content
        } apply: {
          applied.append($0)
        }
      }
      request(9)
      driver.runPreparations()
      driver.drain()
      request(0)
      request(1)
      XCTAssertEqual(driver.runPreparations(), 2)
      driver.runPass()  // takes in 0 and 1 (cache: 9, 0, 1), applies 0 (one task a pass); 1 waits
      XCTAssertEqual(applied, [9, 0])
      request(0)  // hits: 0 and 9 become the most recently used, 1 the least
      request(9)
      request(2)
      XCTAssertEqual(driver.runPreparations(), 1)
      driver.runPass()  // takes in 2: one result must go — not 1, whose task still waits
      let cache = queue.core.preparation!.cache
      XCTAssertLessThanOrEqual(cache.bytes, 300)
      driver.drain()
      XCTAssertEqual(applied, [9, 0, 0, 9, 1, 2], "the two hits applied as they were added")
      request(1)
      XCTAssertEqual(driver.runPreparations(), 0, "1 stayed while its task waited: a hit")
      driver.drain()
      XCTAssertEqual(cache.pinnedBytes, 0, "applied: nothing pinned")
      XCTAssertTrue(queue.counts.isBalanced, queue.counts.summary)
    }
  }

  /// A render pinned its result, a memory warning emptied the cache, and a second render of the same
  /// content pinned its own result. The first render's settle must not release the second one's pin: its
  /// task still waits to apply the value, so the result must stay pinned (counted, not evictable).
  func testAnOldRendersUnpinAfterAMemoryWarningKeepsTheNewRendersPin() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver, configuration: .init(maximumQueueLength: 100))
      _ = Preparer(queue: queue, configuration: .init(resultCacheLimit: 300))
      var applied: [Int] = []
      var added = 0
      @MainActor func request(_ content: Int) {
        added += 1
        queue.addTask(key: "\(content)-\(added)", content: content, resultBytes: { _ in 100 }) { _ in
          content
        } apply: {
          applied.append($0)
        }
      }
      request(5)
      request(0)  // render A
      XCTAssertEqual(driver.runPreparations(), 2)
      driver.runPass()  // takes in 5 and 0 (both pinned), applies 5; A's task waits
      XCTAssertEqual(applied, [5])
      let cache = queue.core.preparation!.cache
      XCTAssertEqual(cache.pinnedBytes, 100, "A's result is pinned")
      queue.dropDiscardableTasks()  // a memory warning: the cache empties (A's task is not discardable)
      XCTAssertEqual(cache.count, 0)
      request(0)  // a miss: render B for the same content
      XCTAssertEqual(driver.runPreparations(), 1)
      driver.runPass()  // takes in B (pinned for its task), applies A's task: A settles and unpins
      XCTAssertEqual(applied, [5, 0])
      XCTAssertEqual(
        cache.pinnedBytes, 100, "B's task has not applied its result yet: it must stay pinned, not A's unpin release it"
      )
      driver.drain()
      XCTAssertEqual(applied, [5, 0, 0])
      XCTAssertEqual(cache.pinnedBytes, 0)
    }
  }
}
