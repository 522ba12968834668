import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkPreparation
@testable import IdleWorkTesting

/// What happens to a prepared result between its preparation and its apply: which prefetches a full queue keeps,
/// a row reloaded while its result waits for a pass, how a result is sized, and how a prefetch that finished counts.
final class PreparedResultKeepingTests: XCTestCase {
  final class Cell {
    var shown: [String] = []
  }

  /// UIKit hands rows nearest first: past the queue's length, the farthest rows of a call go, not the nearest.
  func testAPrefetchBatchLongerThanTheQueueKeepsItsNearestRows() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = PrefetchTests.prefetchingQueue(maximumQueueLength: 4)
      queue.preparer.prefetch(photo, from: (1...8).map { "row \($0)" })
      XCTAssertEqual(PrefetchTests.prepareAll(driver), 4)
      XCTAssertEqual(log.entries.sorted(), ["row 1", "row 2", "row 3", "row 4"])
      let cell = Cell()
      queue.bind(cell, to: 1)
      queue.preparer.addTask(for: cell, at: 1, prepare: photo, from: "row 1") { cell, image in cell.shown.append(image)
      }
      XCTAssertEqual(cell.shown, ["image of row 1"], "the nearest row appears with its result")
      let s = queue.counts
      XCTAssertEqual([s.added, s.executed, s.evicted, s.pending], [9, 5, 4, 0])
      XCTAssertTrue(s.isBalanced, s.summary)
    }
  }

  /// Across calls the newest call's farthest prefetches go first: in a steady scroll an older call's rows appear
  /// first.
  func testPastTheQueuesLengthTheNewestCallsFarthestPrefetchesGoFirst() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = PrefetchTests.prefetchingQueue(maximumQueueLength: 3)
      queue.preparer.prefetch(photo, from: ["a1", "a2"])
      queue.preparer.prefetch(photo, from: ["b1", "b2"])  // one too many: b2, the farther of the newer call, goes
      queue.preparer.prefetch(photo, from: ["c1"])  // the newest and farthest: it goes
      XCTAssertEqual(PrefetchTests.prepareAll(driver), 3)
      XCTAssertEqual(log.entries, ["a1", "a2", "b1"])
      let s = queue.counts
      XCTAssertEqual([s.added, s.executed, s.evicted, s.pending], [5, 3, 2, 0])
    }
  }

  /// A prefetch asked for again joins the newer call, and keeps its place: a row of the newer call shown does not
  /// make it a row passed.
  func testAPrefetchAskedForAgainIsKeptWithItsNewerCall() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = PrefetchTests.prefetchingQueue(maximumQueueLength: 2)
      queue.preparer.prefetch(photo, from: ["a"])
      queue.preparer.prefetch(photo, from: ["b"])
      // a about to appear again; c one too many: the farthest, it goes
      queue.preparer.prefetch(photo, from: ["a", "c"])
      XCTAssertEqual(queue.counts.evicted, 1)
      let cell = Cell()
      queue.bind(cell, to: 0)
      queue.preparer.addTask(for: cell, at: 0, prepare: photo, from: "b") { cell, image in cell.shown.append(image) }
      // One too many again: b's call was shown, but a's newer call was not passed; e, the farthest, goes.
      queue.preparer.prefetch(photo, from: ["d", "e"])
      XCTAssertEqual(queue.counts.evicted, 2)
      XCTAssertEqual(PrefetchTests.prepareAll(driver), 3)
      XCTAssertEqual(log.entries, ["b", "a", "d"], "the visible row first, then a, then d")
    }
  }

  /// Without a cache, a row reloaded after its preparation finished — before a pass took the result in — applies
  /// that result at the next pass: it is not prepared a second time, and nothing is wasted.
  func testARowReloadedWhileItsResultWaitsForAPassAppliesThatResult() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver)  // no result cache
      let log = TextLog()
      let photo = Preparation { (name: String, _) in
        log.append(name)
        return "image of \(name)"
      }
      let cell = Cell()
      queue.bind(cell, to: 0)
      queue.preparer.addTask(for: cell, at: 0, prepare: photo, from: "a") { cell, image in cell.shown.append(image) }
      XCTAssertEqual(driver.runPreparations(), 1, "finished; no pass has taken it in")
      // `reconfigureRows`: the same row, the same content, configured again.
      queue.bind(cell, to: 0)
      queue.preparer.addTask(for: cell, at: 0, prepare: photo, from: "a") { cell, image in cell.shown.append(image) }
      XCTAssertEqual(driver.runPreparations(), 0, "the finished result is joined, not prepared again")
      driver.runPass()
      XCTAssertEqual(cell.shown, ["image of a"])
      XCTAssertEqual(log.entries, ["a"])
      let s = queue.counts
      XCTAssertEqual(
        [s.added, s.executed, s.skippedAsStale, queue.counts.wastedPreparations], [2, 1, 1, 0])
      XCTAssertTrue(s.isBalanced, s.summary)
    }
  }

  /// With a cache, the reloaded row applies that result at once from the cache, and it is not counted wasted.
  func testARowReloadedWhileItsResultWaitsForAPassAppliesItFromTheCacheUnwasted() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = PrefetchTests.prefetchingQueue()
      let cell = Cell()
      queue.bind(cell, to: 0)
      queue.preparer.addTask(for: cell, at: 0, prepare: photo, from: "a") { cell, image in cell.shown.append(image) }
      XCTAssertEqual(driver.runPreparations(), 1)
      queue.bind(cell, to: 0)
      queue.preparer.addTask(for: cell, at: 0, prepare: photo, from: "a") { cell, image in cell.shown.append(image) }
      XCTAssertEqual(cell.shown, ["image of a"], "applied inside the call, from the cache")
      driver.drain()
      XCTAssertEqual(log.entries, ["a"])
      let s = queue.counts
      XCTAssertEqual([s.executed, queue.counts.cacheHits, queue.counts.wastedPreparations], [1, 1, 0])
      XCTAssertTrue(s.isBalanced, s.summary)
    }
  }

  /// Tasks that join a preparation and leave take their way of sizing its result with them: a row reloaded
  /// a thousand times while its result is prepared leaves the render the sizing of the task waiting and at most
  /// one more (the last is never dropped), not one per reload.
  func testTasksThatLeaveAPreparationTakeTheirSizingWithThem() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver, configuration: .init())
      _ = Preparer(queue: queue, configuration: .init(resultCacheLimit: 1 << 20))
      let sized = LockedBox(0)
      let photo = Preparation(resultBytes: { (_: String) in
        sized.update { $0 += 1 }
        return 10
      }) { (name: String, _) in "image of \(name)" }
      let cell = Cell()
      for _ in 0..<1_000 {
        queue.bind(cell, to: 0)
        queue.preparer.addTask(for: cell, at: 0, prepare: photo, from: "a") { cell, image in cell.shown.append(image) }
      }
      let render = queue.core.preparation!.inFlight.values.first!
      XCTAssertLessThanOrEqual(render.sizingsLocked.count, 2, "a sizing per reload")
      XCTAssertEqual(driver.runPreparations(), 1)
      driver.drain()
      XCTAssertEqual(cell.shown, ["image of a"])
      XCTAssertLessThanOrEqual(sized.value, 4, "at most two sizings, on the worker and on the main thread")
    }
  }

  /// A prefetch whose result was kept counts executed, whether it was cancelled before or after a pass took the
  /// result in: the statistics do not depend on when a pass ran.
  func testAPrefetchCancelledAfterItFinishedCountsExecutedWhenEverAPassRan() {
    MainActor.assumeIsolated {
      for passBeforeTheCancel in [false, true] {
        let (queue, driver, _, photo) = PrefetchTests.prefetchingQueue()
        queue.preparer.prefetch(photo, from: ["a"])
        XCTAssertEqual(driver.runPreparations(), 1)
        if passBeforeTheCancel { driver.runPass() }
        queue.preparer.cancelPrefetching(photo, from: ["a"])
        driver.drain()
        var s = queue.counts
        XCTAssertEqual(
          [s.added, s.executed, s.cancelled, s.pending], [1, 1, 0, 0], "pass first: \(passBeforeTheCancel)")
        let cell = Cell()
        queue.bind(cell, to: 0)
        queue.preparer.addTask(for: cell, at: 0, prepare: photo, from: "a") { cell, image in cell.shown.append(image) }
        XCTAssertEqual(cell.shown, ["image of a"], "the kept result applies at once")
        s = queue.counts
        XCTAssertEqual([queue.counts.cacheHits, queue.counts.wastedPreparations], [1, 0])
        XCTAssertTrue(s.isBalanced, s.summary)
      }
    }
  }

  /// Waiting prefetches go on once the queue takes the finished results in — at a pass, or in a `prefetch` call,
  /// which takes in what finished before it looks in the cache — and not before; as many as the cache's room holds
  /// (three of 256 KiB in 1 MiB less a quarter).
  func testWaitingPrefetchesGoOnOnceAPrefetchCallTakesTheFinishedResultsIn() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver, configuration: .init())
      _ = Preparer(queue: queue, configuration: .init(workers: 2, resultCacheLimit: 1 << 20))
      let log = TextLog()
      let photo = Preparation(resultBytes: { (_: String) in 1 << 18 }) { (name: String, _) in
        log.append(name)
        return "image of \(name)"
      }
      let workers = 2
      queue.preparer.prefetch(photo, from: (0..<(workers + 2)).map { "p\($0)" })
      XCTAssertEqual(driver.runPreparations(), workers, "as many as the workers, then they wait")
      XCTAssertEqual(driver.runPreparations(), 0, "still waiting: nothing took their results in")
      XCTAssertEqual(queue.core.preparation!.cache.count, 0)
      queue.preparer.prefetch(photo, from: ["p0"])  // kept already once taken in: not prepared again
      XCTAssertEqual(queue.core.preparation!.cache.count, workers, "the call took the finished results in")
      XCTAssertEqual(driver.runPreparations(), 1, "taken in: one more starts with no pass between")
      XCTAssertEqual(log.entries.count, workers + 1)
    }
  }
}
