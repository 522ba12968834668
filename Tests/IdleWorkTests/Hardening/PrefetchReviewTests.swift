import Foundation
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// Review of prefetching and asynchronous preparation (issue 25): each test shows one finding, and fails
/// without its fix.
final class PrefetchReviewTests: XCTestCase {
  typealias Cell = PrefetchTests.Cell
  typealias Gate = PrefetchWorkerTests.Gate

  // MARK: Order

  /// The same content twice in one `prefetch` batch (two rows about to appear show the same photo) takes the
  /// nearer distance, as the doc comment says ("a prefetch asked again takes the nearer distance"):
  /// `QueueCore.prefetch` sets the distance of the later, farther occurrence instead.
  func testContentTwiceInOneBatchTakesTheNearerDistance() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = PrefetchTests.prefetchingQueue()
      _ = queue
      queue.prefetch(["a", "b", "a"], with: photo)
      XCTAssertEqual(driver.runPreparations(maximum: 1), 1)
      XCTAssertEqual(log.entries, ["a"], "the nearest row's content went after a farther one")
    }
  }

  // MARK: Bookkeeping

  /// A key prefetched, cancelled and prefetched again (the user scrolling back and forth over the same rows)
  /// is appended to `prefetchOrder` each time, and compaction keeps every copy of a pending key: the order
  /// grows with every cycle, without bound (and each `prefetch` then filters all of it).
  func testPrefetchOrderStaysBoundedThroughPrefetchAndCancelCycles() {
    MainActor.assumeIsolated {
      let (queue, _, _, photo) = PrefetchTests.prefetchingQueue()
      for _ in 0..<1_000 {
        queue.prefetch(["a"], with: photo)
        queue.cancelPrefetching(["a"], with: photo)
      }
      queue.prefetch(["a"], with: photo)
      let preparation = queue.core.preparation!
      let kept = preparation.prefetchOrder.count - preparation.prefetchOrderHead
      XCTAssertEqual(preparation.prefetches.count, 1)
      XCTAssertLessThanOrEqual(kept, 128, "prefetchOrder holds \(kept) keys for 1 pending prefetch")
    }
  }

  /// Past the queue's length "the oldest go": a key prefetched, cancelled and prefetched again is the newest,
  /// but its stale first entry at the head of `prefetchOrder` makes the eviction take it instead of the
  /// oldest pending one.
  func testAPrefetchAskedAgainAfterItsCancelIsNotEvictedAsTheOldest() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = PrefetchTests.prefetchingQueue(maximumQueueLength: 2)
      queue.prefetch(["a"], with: photo)
      queue.cancelPrefetching(["a"], with: photo)
      queue.prefetch(["b"], with: photo)  // the oldest pending prefetch
      queue.prefetch(["a"], with: photo)
      queue.prefetch(["c"], with: photo)  // one too many: b should go
      XCTAssertEqual(driver.runPreparations(), 2)
      XCTAssertEqual(log.entries.sorted(), ["a", "c"], "the newest prefetch was evicted, not the oldest")
      XCTAssertTrue(queue.statistics.isBalanced, queue.statistics.summary)
    }
  }

  // MARK: Sharing

  /// A result that finished for a task but was not taken in yet is not prepared again by a prefetch for the
  /// same content (`addPreparedTask` takes such results in first; `prefetch` does not, finds the render no
  /// longer joinable, and starts a second preparation).
  func testAPrefetchDoesNotPrepareAgainAResultThatFinishedForATask() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = PrefetchTests.prefetchingQueue()
      var applied: [String] = []
      queue.addTask(key: "row", preparing: "a", with: photo) { applied.append($0) }
      XCTAssertEqual(driver.runPreparations(), 1)  // finished, not taken in
      queue.prefetch(["a"], with: photo)
      XCTAssertEqual(driver.runPreparations(), 0, "the prefetch prepared it again")
      driver.drain()
      XCTAssertEqual(applied, ["image of a"])
      XCTAssertEqual(log.entries, ["a"])
    }
  }

  /// A prefetch that joins a render held joinable after its cell was configured again keeps it joinable:
  /// `releaseHeldRenders` takes it out of `inFlight` when no *task* waits for it, although the prefetch does,
  /// so the row that then asks for the content starts a second preparation, and the prefetch is never taken
  /// over.
  func testAPrefetchOfAHeldRenderStaysJoinableForTheRowThatAsksForIt() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = PrefetchTests.prefetchingQueue()
      let reused = Cell()
      queue.bind(reused, to: 0)
      queue.addTask(for: reused, at: 0, preparing: "a", with: photo) { cell, image in cell.shown.append(image) }
      queue.bind(reused, to: 7)  // the cell is reused for another row: its render for "a" is held
      queue.prefetch(["a"], with: photo)  // row 0 is about to appear again (the user turns back)
      driver.runPass()  // releases the held render: the prefetch still wants it
      let cell = Cell()
      queue.bind(cell, to: 0)
      queue.addTask(for: cell, at: 0, preparing: "a", with: photo) { cell, image in cell.shown.append(image) }
      driver.runPreparations()
      driver.drain()
      XCTAssertEqual(cell.shown, ["image of a"])
      XCTAssertEqual(log.entries, ["a"], "prepared twice: the row did not join the prefetch's preparation")
      let s = queue.statistics
      XCTAssertTrue(s.isBalanced, s.summary)
    }
  }

  // MARK: Accounting

  /// "Results that finished stay in the cache" after `cancelPrefetching`, and "a prefetched result that leaves the
  /// cache unused counts in wastedPreparations": a prefetch cancelled after its preparation finished (not yet
  /// taken in) is counted wasted when it arrives, although its result is in the cache, and stays counted when
  /// a row then uses it.
  func testAPrefetchCancelledAfterItFinishedIsNotWastedWhenARowUsesIt() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = PrefetchTests.prefetchingQueue()
      queue.prefetch(["a"], with: photo)
      XCTAssertEqual(driver.runPreparations(), 1)
      queue.cancelPrefetching(["a"], with: photo)  // UIKit cancels: the user turned back, then forth again
      driver.runPass()  // takes the result in: it stays in the cache
      let cell = Cell()
      queue.bind(cell, to: 0)
      queue.addTask(for: cell, at: 0, preparing: "a", with: photo) { cell, image in cell.shown.append(image) }
      XCTAssertEqual(cell.shown, ["image of a"], "not applied from the cache")
      XCTAssertEqual(log.entries, ["a"])
      let s = queue.statistics
      XCTAssertEqual(s.cacheHits, 1)
      XCTAssertEqual(s.wastedPreparations, 0, "a prefetched result a row applied counts as wasted")
      XCTAssertTrue(s.isBalanced, s.summary)
    }
  }

  // MARK: Pacing (real workers)

  /// "They leave one free, so that the next visible row starts at once": the share is the pool's (its limit is
  /// the largest `workers` of the queues using it) while a queue's bound is its own — a queue whose `workers`
  /// is below the pool's has every one of its workers taken by prefetches during a scroll, and its next
  /// visible row waits behind them.
  func testPrefetchesLeaveAWorkerFreeForAQueueWhoseBoundIsBelowThePools() {
    MainActor.assumeIsolated {
      // Another screen's queue with more workers: the pool may have 3 threads.
      let other = IdleQueue(configuration: .init(workers: 3, resultCacheLimit: 1 << 20))
      defer { other.invalidate() }
      _ = other.core.preparationMade()
      let queue = IdleQueue(configuration: .init(workers: 2, resultCacheLimit: 1 << 20))
      defer { queue.invalidate() }
      let (gates, started, line) = PrefetchWorkerTests.showARowWhilePrefetchesHoldTheWorkers(on: queue)
      defer { Task { for gate in gates.values { await gate.open() } } }
      // The next visible row, still during the scroll: it must find one of the queue's workers free.
      line.pool.noteTracking(framesAreTight: true)
      let next = PrefetchWorkerTests.showRow(1, on: queue)
      spin(until: { next.shown == ["row 1"] }, timeout: 3)
      XCTAssertEqual(
        next.shown, ["row 1"],
        "prefetches took every worker of the queue during a scroll (started: \(started.entries.sorted()))")
    }
  }

  /// "Prefetches use every worker while nothing visible needs one": once the scroll that paced them is over
  /// (no tracking pass for 0.1 s), a prefetch held back by the pacing starts on the idle worker. Nothing wakes
  /// that worker when the pacing lapses, so the prefetch waits until a running one finishes (a download: any
  /// time) — or the idle worker ends after `idleTimeout` without looking again.
  func testPrefetchesUseEveryWorkerAgainOnceTheScrollIsOver() {
    MainActor.assumeIsolated {
      let queue = IdleQueue(configuration: .init(workers: 2, resultCacheLimit: 1 << 20))
      defer { queue.invalidate() }
      let (gates, started, _) = PrefetchWorkerTests.showARowWhilePrefetchesHoldTheWorkers(on: queue)
      defer { Task { for gate in gates.values { await gate.open() } } }
      // The scroll ends: no more tracking passes. p1 (a slow download) still runs; p2 should start on the free
      // worker once the pacing lapses.
      spin(until: { started.entries.count == 3 }, timeout: 3)
      XCTAssertEqual(
        started.entries.sorted(), ["p0", "p1", "p2"], "a prefetch stayed held back after the scroll ended")
    }
  }
}
