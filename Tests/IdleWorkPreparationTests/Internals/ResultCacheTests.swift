import Foundation
import XCTest

@testable import IdleWork
@testable import IdleWorkPreparation

/// A content key for a number.
private func key(_ content: Int) -> PreparedContent {
  PreparedContent(valueType: ObjectIdentifier(Int.self), content: AnyHashable(content))
}

/// What a prefetch of `call` wants at `place`.
private func want(call: UInt64, place: Int) -> ResultCache.Want {
  ResultCache.Want(firstCall: call, lastCall: call, place: place)
}

/// The contents a cache keeps, those a prefetch wants first (nearest first), then the rest most recently used first,
/// as plain numbers.
@MainActor private func order(_ cache: ResultCache) -> [Int] {
  cache.contentsByKeeping.map { $0.content.base as! Int }
}

/// `ResultCache` on its own: its exact order of use, and that each operation touches a constant number of
/// entries whatever the cache holds (counted, never timed).
final class ResultCacheTests: XCTestCase {
  /// Eviction takes the least recently used first; a lookup protects what it finds; a miss changes nothing.
  func testEvictsTheLeastRecentlyUsedFirstAndALookupProtects() {
    MainActor.assumeIsolated {
      let cache = ResultCache(limit: 4)
      for content in 0..<4 { cache.insert(content, bytes: 1, for: key(content)) }
      XCTAssertEqual(order(cache), [3, 2, 1, 0])
      XCTAssertEqual(cache.value(for: key(0)) as? Int, 0)  // 0 is now the most recently used
      XCTAssertEqual(cache.value(for: key(2)) as? Int, 2)
      XCTAssertNil(cache.value(for: key(9)))
      XCTAssertEqual(order(cache), [2, 0, 3, 1])
      cache.insert(4, bytes: 1, for: key(4))
      XCTAssertEqual(order(cache), [4, 2, 0, 3], "1, the least recently used, went")
      cache.insert(5, bytes: 2, for: key(5))
      XCTAssertEqual(order(cache), [5, 4, 2], "3 and then 0 went, oldest first, until 2 bytes fit")
      XCTAssertEqual(cache.bytes, 4)
      XCTAssertNil(cache.value(for: key(0)))
      XCTAssertEqual(cache.value(for: key(2)) as? Int, 2)
      XCTAssertEqual(cache.value(for: key(2)) as? Int, 2, "looking up the newest again keeps the order")
      XCTAssertEqual(order(cache), [2, 5, 4])
    }
  }

  /// A result a prefetch wants (a prefetch of content kept already) is kept over every used one without counting it
  /// used; no longer wanted, it is the next to go, and counted wasted when it goes unused. A miss changes nothing; a
  /// pinned result stays out of the order. Wanting links a constant number of entries.
  func testAWantedResultIsKeptOverUsedOnesWithoutBeingUsed() throws {
    try MainActor.assumeIsolated {
      let cache = ResultCache(limit: 3)
      cache.insert(0, bytes: 1, for: key(0), keeping: .unwanted)
      for content in 1..<3 { cache.insert(content, bytes: 1, for: key(content)) }
      let touched = cache.entriesTouched
      XCTAssertTrue(cache.want(key(0), call: 1, place: 1))
      XCTAssertLessThanOrEqual(cache.entriesTouched - touched, 2)
      XCTAssertFalse(cache.want(key(9), call: 1, place: 2), "nothing kept")
      XCTAssertEqual(order(cache), [0, 2, 1])
      XCTAssertEqual(cache.wantedCall(of: key(0)), 1)
      cache.insert(3, bytes: 1, for: key(3))
      XCTAssertEqual(order(cache), [0, 3, 2], "1 went, not the wanted 0")
      let pin = try XCTUnwrap(cache.pin(key(2)))
      XCTAssertTrue(cache.want(key(2), call: 1, place: 3), "a pinned result is kept")
      XCTAssertEqual(order(cache), [0, 3], "and stays out of the order while pinned")
      XCTAssertEqual(cache.prefetchRoom, 3 - 1 - 1, "less the wanted and the pinned")
      cache.unpin(pin)
      XCTAssertEqual(order(cache), [0, 2, 3], "wanted again once unpinned")
      for content in 4..<6 { cache.insert(content, bytes: 1, for: key(content)) }
      XCTAssertEqual(order(cache), [0, 2, 5], "the used ones went")
      cache.unwant(key(0))
      XCTAssertEqual(order(cache), [2, 5, 0], "no longer wanted: the next to go")
      cache.insert(6, bytes: 1, for: key(6))
      XCTAssertFalse(cache.contains(key(0)))
      XCTAssertEqual(cache.unusedPrefetchesDropped, 1, "wanted but never used: wasted when it goes")
    }
  }

  /// Wanted results are kept over every other: a used result that needs their room is not kept, unless tasks hold
  /// it (kept beside them, and the first to go once unpinned); a wanted result pushes out only farther ones,
  /// farthest first, or is not kept; using one makes it the most recently used; calls passed are the next to go.
  func testWantedResultsAreKeptOverOthersAndGoFarthestFirst() throws {
    try MainActor.assumeIsolated {
      let cache = ResultCache(limit: 3)
      for content in 0..<3 {
        cache.insert(content, bytes: 1, for: key(content), keeping: .wanted(want(call: 1, place: content)))
      }
      cache.insert(3, bytes: 1, for: key(3))
      XCTAssertEqual(order(cache), [0, 1, 2], "a used result pushes no wanted one out")
      cache.insert(3, bytes: 1, for: key(3), heldByTasks: true)
      let pin = try XCTUnwrap(cache.pin(key(3)))
      XCTAssertEqual(cache.bytes, 4, "held by tasks: kept beside, counted")
      cache.unpin(pin)
      XCTAssertEqual(order(cache), [0, 1, 2], "unpinned: the first to go")
      cache.insert(4, bytes: 1, for: key(4), keeping: .wanted(want(call: 2, place: 5)))
      XCTAssertEqual(order(cache), [0, 1, 2], "farther than every kept one: not kept")
      XCTAssertEqual(cache.unusedPrefetchesDropped, 1)
      cache.insert(5, bytes: 1, for: key(5), keeping: .wanted(want(call: 2, place: -1)))
      XCTAssertEqual(order(cache), [5, 0, 1], "2, the farthest, went")
      XCTAssertEqual(cache.value(for: key(1)) as? Int, 1)
      XCTAssertEqual(order(cache), [5, 0, 1], "used: no longer wanted, the most recently used")
      XCTAssertNil(cache.wantedCall(of: key(1)))
      cache.unwantCalls(before: 2)
      XCTAssertEqual(order(cache), [5, 1, 0], "call 1 passed: 0 is the next to go")
      XCTAssertEqual(cache.roomBeforeWanted.before, -1)
    }
  }

  /// A pinned result (tasks are still to apply it) is never evicted and stays counted; others go in its place;
  /// unpinned, it is the most recently used. A pin outlives its result harmlessly: released after the result was
  /// replaced or dropped, it releases nothing of a newer one. Pinning and unpinning touch a constant number of
  /// entries.
  func testAPinnedResultStaysCountedAndOthersGoInstead() throws {
    try MainActor.assumeIsolated {
      let cache = ResultCache(limit: 3)
      for content in 0..<3 { cache.insert(content, bytes: 1, for: key(content)) }
      let touched = cache.entriesTouched
      let pin = try XCTUnwrap(cache.pin(key(0)))  // the least recently used, but its tasks hold it
      XCTAssertEqual(cache.entriesTouched - touched, 1)
      XCTAssertNil(cache.pin(key(9)), "nothing kept, nothing pinned")
      XCTAssertEqual(cache.value(for: key(0)) as? Int, 0, "a pinned result answers lookups")
      cache.insert(3, bytes: 1, for: key(3))
      XCTAssertEqual(order(cache), [3, 2], "1 went, not the pinned 0")
      XCTAssertEqual(cache.bytes, 3, "the pinned result counts against the limit")
      XCTAssertEqual(cache.pinnedBytes, 1)
      let second = try XCTUnwrap(cache.pin(key(0)))
      cache.unpin(second)
      XCTAssertEqual(order(cache), [3, 2], "pinned twice: still pinned after one unpin")
      cache.unpin(pin)
      XCTAssertEqual(order(cache), [0, 3, 2], "unpinned: the most recently used")
      cache.unpin(pin)
      XCTAssertEqual(cache.pinnedBytes, 0, "a pin released twice releases nothing more")
      // Only pinned results left: a new one is kept beside them, over the limit, as they are alive anyway.
      let pins = try [0, 3, 2].map { try XCTUnwrap(cache.pin(key($0))) }
      cache.insert(4, bytes: 1, for: key(4))
      XCTAssertEqual(cache.bytes, 4)
      cache.insert(5, bytes: 1, for: key(5))
      XCTAssertEqual(order(cache), [5], "4, the one unpinned, went")
      // Replacing a pinned content: the new result is not pinned, and the old pin releases nothing of it.
      cache.insert(30, bytes: 1, for: key(3))
      XCTAssertEqual(order(cache), [3], "the old 3 left with its pin; 5 stays")
      XCTAssertEqual(cache.bytes, 3)
      let newThree = try XCTUnwrap(cache.pin(key(3)))
      cache.unpin(pins[1])
      XCTAssertEqual(cache.pinnedBytes, 3, "the old result's pin released the new one's")
      cache.unpin(newThree)
      XCTAssertEqual(cache.value(for: key(3)) as? Int, 30)
      // A memory warning drops pinned results too; their pins then release nothing of later ones.
      cache.removeAll()
      cache.insert(0, bytes: 1, for: key(0))
      let afterWarning = try XCTUnwrap(cache.pin(key(0)))
      cache.unpin(pins[0])
      XCTAssertEqual(cache.pinnedBytes, 1, "a pin from before the memory warning released a new result's")
      cache.unpin(afterWarning)
      XCTAssertEqual(cache.pinnedBytes, 0)
    }
  }

  /// Inserting a kept content again replaces its value and its bytes, and makes it the most recently used.
  func testReplacingAContentUpdatesItsValueBytesAndUse() {
    MainActor.assumeIsolated {
      let cache = ResultCache(limit: 10)
      cache.insert("a", bytes: 3, for: key(0))
      cache.insert("b", bytes: 3, for: key(1))
      cache.insert("c", bytes: 3, for: key(2))
      cache.insert("a2", bytes: 4, for: key(0))
      XCTAssertEqual(cache.bytes, 10)
      XCTAssertEqual(cache.count, 3)
      XCTAssertEqual(order(cache), [0, 2, 1])
      XCTAssertEqual(cache.value(for: key(0)) as? String, "a2")
      cache.insert("b2", bytes: 6, for: key(1))
      XCTAssertEqual(order(cache), [1, 0], "its old 3 bytes left first, then 2 (the oldest) for the new 6")
      XCTAssertEqual(cache.bytes, 10)
      cache.insert("a3", bytes: 1, for: key(0))
      XCTAssertEqual(cache.bytes, 7)
      XCTAssertEqual(order(cache), [0, 1])
    }
  }

  /// A value larger than the whole limit is not kept and evicts nothing else; an older value for its content
  /// goes (the cache never answers with an older result than the last one that arrived). Negative sizes count
  /// 0; a limit of 0 keeps nothing.
  func testAnOversizedValueIsNotKeptAndEvictsNothingElse() {
    MainActor.assumeIsolated {
      let cache = ResultCache(limit: 10)
      cache.insert("a", bytes: 4, for: key(0))
      cache.insert("b", bytes: 4, for: key(1))
      cache.insert("huge", bytes: 11, for: key(2))
      XCTAssertEqual(order(cache), [1, 0])
      XCTAssertEqual(cache.bytes, 8)
      cache.insert("huge", bytes: 11, for: key(0))
      XCTAssertEqual(order(cache), [1])
      XCTAssertEqual(cache.bytes, 4)
      cache.insert("whole", bytes: 10, for: key(3))
      XCTAssertEqual(order(cache), [3], "exactly the limit fits")
      cache.insert("free", bytes: -5, for: key(4))
      XCTAssertEqual(order(cache), [4, 3])
      XCTAssertEqual(cache.bytes, 10)

      let none = ResultCache(limit: 0)
      none.insert("a", bytes: 0, for: key(0))
      XCTAssertEqual(none.count, 0)
      XCTAssertNil(none.value(for: key(0)))
    }
  }

  /// The cache keeps room for the results on their way (finished on a worker, not yet taken in): as many as it
  /// was made for, each the size of the largest it has seen, and in all at most a quarter of its limit — so the
  /// results kept and those arriving stay within the limit. Without the room, a full cache held the whole limit
  /// and FeedDemo's `photos` peaked 3–5 results over it.
  func testKeepsRoomForTheResultsOnTheirWay() {
    MainActor.assumeIsolated {
      let cache = ResultCache(limit: 100, reservedResults: 2)
      XCTAssertEqual(cache.room, 100, "no result seen yet: nothing to reckon the room by")
      for content in 0..<10 { cache.insert(content, bytes: 10, for: key(content)) }
      XCTAssertEqual(cache.room, 80, "two results of 10 bytes on their way")
      XCTAssertEqual(cache.bytes, 80)
      XCTAssertEqual(order(cache), [9, 8, 7, 6, 5, 4, 3, 2], "0 and 1 went to make the room")

      cache.insert(10, bytes: 20, for: key(10))
      XCTAssertEqual(cache.room, 75, "two of 20 bytes would be 40: the room is at most a quarter of the limit")
      XCTAssertEqual(cache.bytes, 70)
      XCTAssertEqual(order(cache), [10, 9, 8, 7, 6, 5])

      // Pinned results take the cache past its room; unpinned, the least recently used go until it is within it.
      let pinned = ResultCache(limit: 40, reservedResults: 1)
      for content in 0..<3 { pinned.insert(content, bytes: 10, for: key(content)) }
      XCTAssertEqual(pinned.room, 30)
      let pins = (0..<3).map { pinned.pin(key($0))! }
      pinned.insert(3, bytes: 10, for: key(3))
      XCTAssertEqual(pinned.bytes, 40, "nothing evictable: kept beside the pinned ones")
      pinned.unpin(pins[0])
      XCTAssertEqual(pinned.bytes, 30, "3, used before 0's tasks applied it, went")
      XCTAssertEqual(order(pinned), [0])
    }
  }

  /// A memory warning empties the cache; it fills again from nothing, reusing no stale link.
  func testRemoveAllEmptiesAndTheCacheWorksAfterwards() {
    MainActor.assumeIsolated {
      let cache = ResultCache(limit: 3)
      for content in 0..<3 { cache.insert(content, bytes: 1, for: key(content)) }
      cache.removeAll()
      XCTAssertEqual(cache.count, 0)
      XCTAssertEqual(cache.bytes, 0)
      XCTAssertEqual(order(cache), [])
      XCTAssertNil(cache.value(for: key(1)))
      for content in 5..<9 { cache.insert(content, bytes: 1, for: key(content)) }
      XCTAssertEqual(order(cache), [8, 7, 6])
    }
  }

  /// The cost of an insertion into a full cache does not grow with what the cache holds: into 20,000 kept
  /// results, an arrival evicts exactly one — the least recently used — and links or unlinks two entries.
  /// (Sorting by last use on every arrival visited all 20,000.) A lookup touches two, a miss none.
  func testAnInsertionIntoAFullCacheOf20000TouchesAConstantNumberOfEntries() {
    MainActor.assumeIsolated {
      let kept = 20_000
      let cache = ResultCache(limit: kept)
      for content in 0..<kept { cache.insert(content, bytes: 1, for: key(content)) }
      XCTAssertEqual(cache.count, kept)

      let before = cache.entriesTouched
      cache.insert(kept, bytes: 1, for: key(kept))
      XCTAssertEqual(cache.entriesTouched - before, 2, "one unlinked (evicted), one linked (inserted)")
      XCTAssertEqual(cache.count, kept, "exactly one evicted")
      XCTAssertNil(cache.value(for: key(0)), "the least recently used")
      XCTAssertNotNil(cache.value(for: key(1)))

      let beforeLookup = cache.entriesTouched
      XCTAssertEqual(cache.value(for: key(kept / 2)) as? Int, kept / 2)
      XCTAssertEqual(cache.entriesTouched - beforeLookup, 2, "unlinked, then linked at the front")
      XCTAssertNil(cache.value(for: key(-1)))
      XCTAssertEqual(cache.entriesTouched - beforeLookup, 2, "a miss touches nothing")

      let beforeBig = cache.entriesTouched
      cache.insert(-2, bytes: 3, for: key(-2))
      XCTAssertEqual(cache.entriesTouched - beforeBig, 4, "three evicted, one linked")
      XCTAssertEqual(cache.count, kept - 2)
      XCTAssertEqual(cache.bytes, kept)
      XCTAssertEqual(Array(order(cache).suffix(2)), [6, 5], "2, 3 and 4 were the oldest")
    }
  }
}
