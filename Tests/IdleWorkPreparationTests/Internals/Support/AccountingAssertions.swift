import XCTest

@testable import IdleWork
@testable import IdleWorkPreparation

/// The accounting identity and the prepared counters' bounds, checked after a mutation.
@MainActor
func assertPreparedBalanced(_ queue: IdleQueue, file: StaticString = #filePath, line: UInt = #line) {
  let s = queue.counts
  XCTAssertTrue(s.isBalanced, s.summary, file: file, line: line)
}

/// The queue's counts and preparation's as one table, as the queue counted them when prefetches and cache hits were
/// its own: a prefetch counts as a task (kept: executed), a cache hit as a task executed at once, and a prepared task
/// whose preparation threw as failed rather than cancelled.
struct PreparedCounts {
  var added = 0
  var executed = 0
  var skippedAsStale = 0
  var evicted = 0
  var cancelled = 0
  var failed = 0
  var pending = 0
  var cacheHits = 0
  var wastedPreparations = 0
  var duplicatePreparations = 0
  var longestPassDuration: Double = 0

  var isBalanced: Bool { added == executed + skippedAsStale + evicted + cancelled + failed + pending }

  var summary: String {
    "added \(added), executed \(executed), stale \(skippedAsStale), evicted \(evicted), cancelled \(cancelled), "
      + "failed \(failed), pending \(pending)"
  }
}

extension IdleQueue {
  /// See ``PreparedCounts``.
  @MainActor var counts: PreparedCounts {
    let q = statistics
    let p = core.preparation?.statistics ?? Preparer.Statistics()
    return PreparedCounts(
      added: q.added + p.prefetches + p.cacheHits, executed: q.executed + p.prefetchesKept + p.cacheHits,
      skippedAsStale: q.skippedAsStale, evicted: q.evicted + p.prefetchesEvicted,
      cancelled: q.cancelled - p.failed + p.prefetchesCancelled, failed: p.failed + p.prefetchesFailed,
      pending: q.pending + p.prefetchesPending, cacheHits: p.cacheHits, wastedPreparations: p.wastedPreparations,
      duplicatePreparations: p.duplicatePreparations,
      longestPassDuration: q.longestPassDuration)
  }
}
