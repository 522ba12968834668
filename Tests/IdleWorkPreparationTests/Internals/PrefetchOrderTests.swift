import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkPreparation
@testable import IdleWorkTesting

/// The order prefetches start in: the order they were asked for, over every call and queue; a prefetch that ended
/// (cancelled, taken over) leaves no place behind on its render; past the queue's length the oldest asked go.
final class PrefetchOrderTests: XCTestCase {
  typealias Cell = PrefetchTests.Cell

  /// A cancelled prefetch asked again is asked last: it goes to the back.
  func testCancelledThenAskedAgainGoesToTheBack() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = PrefetchTests.prefetchingQueue()
      queue.preparer.prefetch(photo, from: ["a", "b", "c"])
      queue.preparer.cancelPrefetching(photo, from: ["a"])
      queue.preparer.prefetch(photo, from: ["a"])
      XCTAssertEqual(PrefetchTests.prepareAll(driver), 3)
      XCTAssertEqual(log.entries, ["b", "c", "a"])
    }
  }

  /// A pending prefetch asked again in a later call, with a new one ahead of it, keeps its place.
  func testAskedAgainInALaterCallKeepsItsPlace() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = PrefetchTests.prefetchingQueue()
      queue.preparer.prefetch(photo, from: ["a", "b"])
      queue.preparer.prefetch(photo, from: ["c", "a"])
      XCTAssertEqual(PrefetchTests.prepareAll(driver), 3)
      XCTAssertEqual(log.entries, ["a", "b", "c"])
    }
  }

  /// Prefetches asked for `first` (a fling's landing rows) start before every prefetch asked for earlier, nearest
  /// first; one pending moves ahead when asked for again `first`.
  func testPrefetchesAskedForFirstStartAhead() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = PrefetchTests.prefetchingQueue()
      queue.preparer.prefetch(photo, from: ["a", "b", "c"])
      queue.preparer.prefetch(photo, from: ["x", "c"], first: true)
      queue.preparer.prefetch(photo, from: ["d"])
      XCTAssertEqual(PrefetchTests.prepareAll(driver), 5)
      XCTAssertEqual(log.entries, ["x", "c", "a", "b", "d"])
    }
  }

  /// A prefetch joining a visible row's preparation in flight (the `inFlight` branch) takes its place in
  /// the order asked once the cell goes off screen.
  func testPrefetchJoiningAVisibleRowsRenderThenCellOffScreen() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = PrefetchTests.prefetchingQueue()
      let cell = Cell()
      queue.bind(cell, to: 0)
      queue.preparer.addTask(for: cell, at: 0, prepare: photo, from: "x") { cell, image in cell.shown.append(image) }
      queue.preparer.prefetch(photo, from: ["p"])
      queue.preparer.prefetch(photo, from: ["x"])  // joins x's render in flight
      queue.cellDidEndDisplaying(cell, at: 0)  // x is now wanted by the prefetch only
      XCTAssertEqual(PrefetchTests.prepareAll(driver), 2)
      XCTAssertEqual(log.entries, ["p", "x"])
    }
  }

  /// Prefetches go before discardable tasks.
  func testPrefetchesBeforeDiscardableTasks() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = PrefetchTests.prefetchingQueue()
      let cell = Cell()
      queue.bind(cell, to: 0)
      queue.preparer.addTask(for: cell, at: 0, prepare: photo, from: "d", droppable: true) { c, i in c.shown.append(i) }
      queue.preparer.prefetch(photo, from: ["p", "q"])
      XCTAssertEqual(PrefetchTests.prepareAll(driver), 3)
      XCTAssertEqual(log.entries, ["p", "q", "d"])
    }
  }

  /// A prefetch that joined a discardable task's render and was cancelled: the task is discardable again, and
  /// goes after the prefetches asked later (the docs: "then prefetches ...; then discardable tasks").
  func testDiscardableTaskAfterItsJoinedPrefetchIsCancelled() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = PrefetchTests.prefetchingQueue()
      let cell = Cell()
      queue.bind(cell, to: 0)
      queue.preparer.addTask(for: cell, at: 0, prepare: photo, from: "d", droppable: true) { c, i in c.shown.append(i) }
      queue.preparer.prefetch(photo, from: ["d"])  // joins the discardable task's render
      queue.preparer.cancelPrefetching(photo, from: ["d"])
      queue.preparer.prefetch(photo, from: ["p", "q"])
      XCTAssertEqual(PrefetchTests.prepareAll(driver), 3)
      XCTAssertEqual(log.entries, ["p", "q", "d"])
    }
  }

  /// A discardable visible task that took a prefetch over is a discardable task: after the other prefetches.
  func testDiscardableTaskTakingAPrefetchOverGoesAfterPrefetches() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = PrefetchTests.prefetchingQueue()
      queue.preparer.prefetch(photo, from: ["a", "b", "c"])
      let cell = Cell()
      queue.bind(cell, to: 0)
      queue.preparer.addTask(for: cell, at: 0, prepare: photo, from: "a", droppable: true) { c, i in c.shown.append(i) }
      XCTAssertEqual(PrefetchTests.prepareAll(driver), 3)
      XCTAssertEqual(log.entries, ["b", "c", "a"])
    }
  }

  /// A prefetch taken over by a visible row whose cell then goes off screen, asked again later (joining the
  /// render in flight): "in the order they were asked for" puts it after the prefetches asked in between.
  func testTakenOverThenOffScreenThenAskedAgainIsInTheOrderAsked() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = PrefetchTests.prefetchingQueue()
      queue.preparer.prefetch(photo, from: ["a", "b", "c"])
      let cell = Cell()
      queue.bind(cell, to: 0)
      queue.preparer.addTask(for: cell, at: 0, prepare: photo, from: "a") { c, i in c.shown.append(i) }
      queue.cellDidEndDisplaying(cell, at: 0)  // a's render: wanted by nobody now
      queue.preparer.prefetch(photo, from: ["d"])
      queue.preparer.prefetch(photo, from: ["a"])  // asked again: the last asked
      XCTAssertEqual(PrefetchTests.prepareAll(driver), 4)
      XCTAssertEqual(log.entries, ["b", "c", "d", "a"])
    }
  }

  /// Two queues: one sequence over both (the distances, as the manual driver gives each queue its own pool).
  func testTwoQueuesShareOneOrder() {
    MainActor.assumeIsolated {
      let (first, _, _, photo) = PrefetchTests.prefetchingQueue()
      let (second, _, _, _) = PrefetchTests.prefetchingQueue()
      first.preparer.prefetch(photo, from: ["a"])
      second.preparer.prefetch(photo, from: ["b"])
      first.preparer.prefetch(photo, from: ["c"])
      @MainActor func distance(_ queue: IdleQueue, _ name: String) -> Int {
        queue.core.preparation!.prefetches[photo.key(name)]!.run.distance
      }
      let (a, b, c) = (distance(first, "a"), distance(second, "b"), distance(first, "c"))
      XCTAssertLessThan(a, b)
      XCTAssertLessThan(b, c)
    }
  }

  /// The same content twice in one `prefetch` batch (two rows about to appear show the same photo) takes the nearer
  /// distance, as a prefetch asked again does, not that of its later, farther occurrence.
  func testContentTwiceInOneBatchTakesTheNearerDistance() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = PrefetchTests.prefetchingQueue()
      _ = queue
      queue.preparer.prefetch(photo, from: ["a", "b", "a"])
      XCTAssertEqual(driver.runPreparations(maximum: 1), 1)
      XCTAssertEqual(log.entries, ["a"], "the nearest row's content went after a farther one")
    }
  }

  /// A key prefetched, cancelled and prefetched again (the user scrolling back and forth over the same rows) leaves
  /// one pending prefetch, every cycle accounted for.
  func testPrefetchAndCancelCyclesLeaveOnePendingPrefetch() {
    MainActor.assumeIsolated {
      let (queue, _, _, photo) = PrefetchTests.prefetchingQueue()
      for _ in 0..<1_000 {
        queue.preparer.prefetch(photo, from: ["a"])
        queue.preparer.cancelPrefetching(photo, from: ["a"])
      }
      queue.preparer.prefetch(photo, from: ["a"])
      let preparation = queue.core.preparation!
      XCTAssertEqual(preparation.prefetches.count, 1)
      let s = queue.counts
      XCTAssertEqual([s.added, s.cancelled, s.pending], [1_001, 1_000, 1])
    }
  }

  /// Past the queue's length the farthest go: a key prefetched, cancelled and prefetched again takes a new place, after
  /// the pending ones; the newest call's row is the farthest and goes.
  func testAPrefetchAskedAgainAfterItsCancelTakesANewPlace() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = PrefetchTests.prefetchingQueue(maximumQueueLength: 2)
      queue.preparer.prefetch(photo, from: ["a"])
      queue.preparer.cancelPrefetching(photo, from: ["a"])
      queue.preparer.prefetch(photo, from: ["b"])  // the oldest pending prefetch
      queue.preparer.prefetch(photo, from: ["a"])
      queue.preparer.prefetch(photo, from: ["c"])  // one too many: c, the farthest, goes
      XCTAssertEqual(driver.runPreparations(), 2)
      XCTAssertEqual(log.entries, ["b", "a"], "the farthest prefetch was evicted, and b starts first")
      XCTAssertTrue(queue.counts.isBalanced, queue.counts.summary)
    }
  }
}
