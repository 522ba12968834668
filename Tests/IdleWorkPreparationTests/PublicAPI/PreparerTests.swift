import Foundation
import IdleWork
import IdleWorkPreparation
import IdleWorkTesting
import TestHelpers
import XCTest

/// A queue's preparers: one preparation half per queue, shared by every `Preparer` made for it, and counts kept apart
/// from the queue's, where a prepared task counts once, as a task.
final class PreparerTests: XCTestCase {
  /// Two screens on one queue each make a `Preparer`: a result one prefetched shows at once in the other's row.
  func testPreparersOfOneQueueShareTheirCache() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver)
      let first = Preparer(queue: queue)
      let second = Preparer(queue: queue)
      let photo = Preparation { (name: String, _) in "photo \(name)" }
      first.prefetch(photo, from: ["a"])
      XCTAssertEqual(driver.runPreparations(), 1)
      driver.drain()
      let cell = PhotoCell()
      queue.bind(cell, to: 0)
      second.addTask(for: cell, at: 0, prepare: photo, from: "a") { cell, image in cell.shown.append(image) }
      XCTAssertEqual(cell.shown, ["photo a"], "applied at once, from the cache the first preparer filled")
      XCTAssertEqual(second.statistics.cacheHits, 1)
      XCTAssertEqual(first.statistics.prefetchesKept, 1, "one set of counts: the queue's")
      assertBalanced(first)
    }
  }

  /// A prepared task counts once in the queue's statistics, as a task; a cache hit is never queued and counts only in
  /// the preparer's; a task whose preparation threw leaves the queue cancelled and counts failed in the preparer's.
  func testAPreparedTaskCountsOnceInTheQueueAndWhatOnlyPreparationDoesInThePreparer() {
    MainActor.assumeIsolated {
      struct Broken: Error {}
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver, configuration: .init(budget: .tasks(10)))
      let preparer = Preparer(queue: queue)
      let photo = Preparation { (name: String, _) in "photo \(name)" }
      let broken = Preparation { (_: String, _) throws -> String in throw Broken() }
      var shown: [String] = []
      preparer.addTask(key: "a", prepare: photo, from: "a") { shown.append($0) }
      preparer.addTask(key: "b", prepare: broken, from: "b") { shown.append($0) }
      XCTAssertEqual(driver.runPreparations(), 2)
      driver.drain()
      preparer.addTask(key: "a again", prepare: photo, from: "a") { shown.append($0) }  // kept: applied at once
      XCTAssertEqual(shown, ["photo a", "photo a"])
      let q = queue.statistics
      XCTAssertEqual([q.added, q.executed, q.cancelled, q.pending], [2, 1, 1, 0])
      let p = preparer.statistics
      XCTAssertEqual([p.cacheHits, p.failed, p.prefetches], [1, 1, 0])
      assertBalanced(preparer)
    }
  }

  /// The defaults: a 32 MB cache, and workers as many as the active cores, within 1...6.
  func testTheDefaultConfiguration() {
    let configuration = Preparer.Configuration()
    XCTAssertEqual(configuration.resultCacheLimit, 32 << 20)
    XCTAssertEqual(configuration.workers, min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 6))
  }

  /// A prepared task added for a cell that is off screen (still showing its row) waits unstarted until the cell comes
  /// back: visible rows' preparations go first.
  func testATaskForACellOffScreenWaitsUnstartedUntilItComesBack() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver)
      let preparer = Preparer(queue: queue)
      let photo = Preparation { (name: String, _) in "photo \(name)" }
      let cell = PhotoCell()
      queue.bind(cell, to: 0)
      queue.cellDidEndDisplaying(cell, at: 0)
      preparer.addTask(for: cell, at: 0, prepare: photo, from: "a") { cell, image in cell.shown.append(image) }
      XCTAssertEqual(driver.runPreparations(), 0, "an off-screen cell's preparation started")
      queue.cellWillDisplay(cell, at: 0)
      XCTAssertEqual(driver.runPreparations(), 1)
      driver.drain()
      XCTAssertEqual(cell.shown, ["photo a"])
      assertBalanced(preparer)
    }
  }

  /// A result applied in the pass that took it in asks for no pass after it: the hand-over to the task's later task
  /// during the take-in does not wake the queue again.
  func testAResultTakenInAndAppliedAsksForNoFurtherPass() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver)
      let preparer = Preparer(queue: queue)
      var shown: [String] = []
      preparer.addTask(key: "a", prepare: Preparation { (name: String, _) in name }, from: "a") { shown.append($0) }
      driver.drain()
      XCTAssertEqual(driver.runPreparations(), 1)
      XCTAssertTrue(driver.isPassRequested, "the arrival wakes the queue")
      driver.runPass()
      XCTAssertEqual(shown, ["a"])
      XCTAssertFalse(driver.isPassRequested, "the hand-over inside the take-in asked for another pass")
    }
  }
}
