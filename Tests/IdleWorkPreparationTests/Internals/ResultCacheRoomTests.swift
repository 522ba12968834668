import Foundation
import XCTest

@testable import IdleWork
@testable import IdleWorkPreparation
@testable import IdleWorkTesting

/// A picture as `prepare` returns it: a reference.
private final class Picture: Sendable {}

/// A content key for a number.
private func key(_ content: Int) -> PreparedContent {
  PreparedContent(valueType: ObjectIdentifier(Int.self), content: AnyHashable(content))
}

/// The room the result cache keeps for the results on their way: a result larger than the room is not kept and
/// pushes nothing out (so it is never evicted by its own unpin), a result over the whole limit counts among those
/// seen, and the room's arithmetic saturates — pinned results of a huge limit overflow nothing.
final class ResultCacheRoomTests: XCTestCase {
  /// A value larger than the room (reckoned with it among the results seen) is not kept and pushes nothing out:
  /// the bytes kept stay within the room.
  func testAValueLargerThanTheRoomIsNotKeptAndEmptiesNothing() {
    MainActor.assumeIsolated {
      let cache = ResultCache(limit: 100, reservedResults: 2)
      for content in 0..<3 { cache.insert(content, bytes: 10, for: key(content)) }
      cache.insert(9, bytes: 90, for: key(9))
      XCTAssertEqual(cache.room, 75, "two of 90 bytes on their way: a quarter of the limit")
      XCTAssertLessThanOrEqual(cache.bytes, cache.room)
      XCTAssertEqual(order(cache), [2, 1, 0], "nothing pushed out for a value that cannot fit")
      XCTAssertNil(cache.pin(key(9)), "not kept, so not pinned, so never evicted by its own unpin")
    }
  }

  /// Through a queue: 1 worker, a 400-byte limit (room 300), three 100-byte results kept; a 350-byte result
  /// arrives for a task and is applied. The three stay, and the 350-byte result, not kept, is prepared again
  /// when asked for again.
  func testAQueueResultLargerThanTheRoomLeavesTheCacheAsItWas() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(
        driver: driver, configuration: .init(maximumQueueLength: 100))
      _ = Preparer(queue: queue, configuration: .init(workers: 1, resultCacheLimit: 400))
      var applied = 0
      @MainActor func request(_ content: Int, bytes: Int) {
        queue.addTask(key: content, content: content, resultBytes: { _ in bytes }) { _ in
          Picture()
        } apply: { _ in
          applied += 1
        }
      }
      for content in 0..<3 { request(content, bytes: 100) }
      driver.runPreparations()
      driver.drain()
      let cache = queue.core.preparation!.cache
      XCTAssertEqual(cache.count, 3)
      request(4, bytes: 350)
      driver.runPreparations()
      driver.drain()
      XCTAssertEqual(applied, 4)
      XCTAssertEqual(cache.count, 3, "the 350-byte result pushed nothing out")
      for content in 0..<3 { request(content, bytes: 100) }
      XCTAssertEqual(driver.runPreparations(), 0, "the three are hits")
      request(4, bytes: 350)
      XCTAssertEqual(driver.runPreparations(), 1, "not kept: prepared again")
      driver.drain()
      XCTAssertEqual(applied, 8)
      XCTAssertTrue(queue.counts.isBalanced, queue.counts.summary)
    }
  }

  /// A result over the whole limit is among the results seen: the room is reckoned with it.
  func testTheLargestResultSeenIncludesOneOverTheLimit() {
    MainActor.assumeIsolated {
      let cache = ResultCache(limit: 100, reservedResults: 2)
      cache.insert(0, bytes: 10, for: key(0))
      cache.insert(1, bytes: 200, for: key(1))
      XCTAssertEqual(cache.largestResult, 200)
      XCTAssertEqual(cache.room, 75)
      XCTAssertEqual(order(cache), [0])
    }
  }

  /// The room's arithmetic saturates: `reservedResults` of `Int.max` (workers of `Int.max`) and results of
  /// `Int.max` bytes reserve a quarter of the limit, no more, and never trap.
  func testTheRoomSaturatesAtAQuarterOfTheLimit() {
    MainActor.assumeIsolated {
      let cache = ResultCache(limit: 1_000, reservedResults: .max)
      cache.insert(0, bytes: 1, for: key(0))
      XCTAssertEqual(cache.room, 750)
      let huge = ResultCache(limit: .max, reservedResults: .max)
      huge.insert(0, bytes: .max, for: key(0))
      XCTAssertEqual(huge.room, Int.max - Int.max / 4)
      XCTAssertEqual(huge.count, 0, "Int.max bytes: over the room")
      huge.insert(1, bytes: .max / 2, for: key(1))
      XCTAssertEqual(huge.count, 1)
    }
  }

  /// Pinned results of a huge limit that alone exceed the room: a result whose bytes would overflow the count
  /// beside them is not kept, and nothing traps.
  func testPinnedResultsOfAHugeLimitDoNotOverflowTheCount() {
    MainActor.assumeIsolated {
      let cache = ResultCache(limit: .max, reservedResults: 2)
      let large = Int.max / 10 * 7
      cache.insert(0, bytes: large, for: key(0))
      XCTAssertNotNil(cache.pin(key(0)))
      cache.insert(1, bytes: large, for: key(1), keeping: .unwanted)
      XCTAssertEqual(cache.count, 1)
      XCTAssertEqual(cache.bytes, large)
      XCTAssertEqual(cache.unusedPrefetchesDropped, 1, "a prefetched result not kept is counted wasted")
    }
  }

  /// Through a queue with `resultCacheLimit: .max`: an `Int.max`-byte result and a 1-byte one arrive in one take-in
  /// (the first pinned for its task): nothing traps, every task is accounted for.
  func testAQueueWithHugeResultBytesDoesNotTrap() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver, configuration: .init())
      _ = Preparer(queue: queue, configuration: .init(workers: 2, resultCacheLimit: .max))
      for (content, bytes) in [(0, Int.max), (1, 1)] {
        queue.addTask(key: content, content: content, resultBytes: { _ in bytes }) { _ in
          Picture()
        } apply: { _ in
        }
      }
      XCTAssertEqual(driver.runPreparations(), 2)
      driver.drain()
      XCTAssertEqual(queue.counts.executed, 2)
      XCTAssertTrue(queue.counts.isBalanced, queue.counts.summary)
    }
  }

  /// A prefetch larger than the room left beside unused prefetches is not started: it pushes out none of them, and
  /// waits (pending); a task for it takes it over, and its result, larger than the whole room, is not kept. A stale
  /// pin taken before a memory warning releases nothing of the result kept since in its slot.
  func testAPrefetchLargerThanTheRoomIsWastedAlone() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(
        driver: driver, configuration: .init(maximumQueueLength: 100))
      _ = Preparer(queue: queue, configuration: .init(workers: 1, resultCacheLimit: 400))
      let preparation = Preparation<Int, Int>(resultBytes: { $0 }) { content, _ in content < 10 ? 100 : 350 }
      queue.preparer.prefetch(preparation, from: [0, 1, 2])
      while driver.runPreparations() > 0 { driver.drain() }
      let cache = queue.core.preparation!.cache
      XCTAssertEqual(cache.count, 3)
      queue.preparer.prefetch(preparation, from: [10])
      XCTAssertEqual(driver.runPreparations(), 0, "no room: it waits")
      XCTAssertEqual(cache.count, 3, "the three unused prefetches stay")
      XCTAssertEqual(queue.counts.pending, 1)
      var applied: [Int] = []
      queue.preparer.addTask(key: "t", prepare: preparation, from: 10) { applied.append($0) }
      XCTAssertEqual(driver.runPreparations(), 1, "a task's preparation does not wait")
      driver.drain()
      XCTAssertEqual(applied, [350])
      XCTAssertEqual(cache.count, 3, "larger than the room: not kept")
      XCTAssertEqual(queue.counts.wastedPreparations, 0, queue.counts.summary)
      XCTAssertEqual(queue.counts.cacheHits, 0)
      XCTAssertTrue(queue.counts.isBalanced, queue.counts.summary)

      let stale = ResultCache(limit: 100, reservedResults: 2)
      stale.insert(0, bytes: 10, for: key(0))
      let old = stale.pin(key(0))!
      stale.removeAll()
      stale.insert(1, bytes: 10, for: key(1))
      _ = stale.pin(key(1))!
      stale.unpin(old)
      XCTAssertEqual(stale.pinnedBytes, 10)
    }
  }
}

/// The contents a cache keeps, those a prefetch wants first (nearest first), then the rest most recently used first,
/// as plain numbers.
@MainActor private func order(_ cache: ResultCache) -> [Int] {
  cache.contentsByKeeping.map { $0.content.base as! Int }
}
