import Foundation
import IdleWork
import IdleWorkTesting
import XCTest

/// The rows about to appear win the result cache and the queue: prefetched results are kept, and prefetches wait, in
/// the order their rows will appear — nearest first within a call, an older call's before a newer one's, rows whose
/// prefetch was cancelled or whose call was passed (a newer call's row was shown first) last.
final class PrefetchRoomTests: XCTestCase {
  /// A queue with 2 workers and a cache whose room (its limit less a quarter kept for results on their way) holds
  /// `room` results of 100 bytes; a preparation of such results that logs each row it makes.
  @MainActor
  static func scene(room: Int, length: Int = 100) -> (IdleQueue, ManualPassDriver, Log, Preparation<Int, String>) {
    let driver = ManualPassDriver()
    let limit = (room * 100 + 1) * 4 / 3 + 1
    let queue = IdleQueue(
      driver: driver, configuration: .init(maximumQueueLength: length, workers: 2, resultCacheLimit: limit))
    let log = Log()
    let photo = Preparation(resultBytes: { (_: String) in 100 }) { (row: Int, _) in
      log.append("\(row)")
      return "photo \(row)"
    }
    return (queue, driver, log, photo)
  }

  /// Runs every preparation that can start, with a pass after each batch to take the results in.
  @MainActor
  static func prepareAll(_ driver: ManualPassDriver) {
    while driver.runPreparations() > 0 { driver.runPass() }
    driver.drain()
  }

  /// Shows `row` in a new cell; returns whether its result applied at once, inside `addTask` (from the cache).
  @MainActor
  static func show(_ row: Int, _ queue: IdleQueue, _ photo: Preparation<Int, String>) -> Bool {
    let cell = PhotoCell()
    queue.bind(cell, to: row)
    queue.addTask(for: cell, at: row, prepare: photo, from: row) { cell, photo in cell.shown.append(photo) }
    return cell.shown == ["photo \(row)"]
  }

  /// Rows made, in order, as numbers.
  static func made(_ log: Log) -> [Int] { log.entries.map { Int($0)! } }

  /// A prefetch of 12 rows into a cache with room for 8: the 8 nearest are made, the 4 farthest wait (pending) until
  /// rows shown free room; every row then shows in its first frame, each made once, nothing wasted.
  func testAPrefetchLargerThanTheCacheKeepsTheNearestRows() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = Self.scene(room: 8)
      queue.prefetch(photo, from: Array(1...12))
      Self.prepareAll(driver)
      XCTAssertEqual(Self.made(log), Array(1...8))
      XCTAssertEqual(queue.statistics.pending, 4, "the farthest wait for room")
      for row in 1...12 {
        XCTAssertTrue(Self.show(row, queue, photo), "row \(row) shows in its first frame")
        Self.prepareAll(driver)
      }
      XCTAssertEqual(Self.made(log), Array(1...12), "each row made once")
      let s = queue.statistics
      XCTAssertEqual([s.cacheHits, s.wastedPreparations, s.pending], [12, 0, 0])
      assertBalanced(queue)
    }
  }

  /// In a steady scroll an older call's rows appear before a newer call's: a visible row's result that needs room
  /// evicts the newest call's farthest row, not the oldest call's nearest.
  func testAnOlderCallsRowsAreKeptOverANewerCalls() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = Self.scene(room: 6)
      queue.prefetch(photo, from: [1, 2, 3])
      queue.prefetch(photo, from: [4, 5, 6])
      Self.prepareAll(driver)
      XCTAssertEqual(Self.made(log), [1, 2, 3, 4, 5, 6])
      XCTAssertFalse(Self.show(100, queue, photo), "a row nothing prefetched")
      Self.prepareAll(driver)
      for row in 1...5 { XCTAssertTrue(Self.show(row, queue, photo), "row \(row) kept") }
      XCTAssertFalse(Self.show(6, queue, photo), "the farthest row of the newest call made room")
      assertBalanced(queue)
    }
  }

  /// Rows whose prefetch was cancelled (the user turned back) are the first to go, though they were made last.
  func testRowsWhosePrefetchWasCancelledGoFirst() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = Self.scene(room: 8)
      queue.prefetch(photo, from: Array(1...8))
      Self.prepareAll(driver)
      queue.cancelPrefetching(photo, from: [7, 8])
      queue.prefetch(photo, from: [9, 10])
      Self.prepareAll(driver)
      XCTAssertEqual(Self.made(log), Array(1...10))
      for row in [1, 2, 3, 4, 5, 6, 9, 10] { XCTAssertTrue(Self.show(row, queue, photo), "row \(row) kept") }
      XCTAssertFalse(Self.show(7, queue, photo), "a cancelled row made room")
      assertBalanced(queue)
    }
  }

  /// In a fling that outruns the workers, a row of a newer call shown first means the older calls' rows were passed:
  /// they go first, and the newer call's rows waiting for room start.
  func testRowsOfCallsPassedGoFirst() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = Self.scene(room: 6)
      queue.prefetch(photo, from: [1, 2, 3])
      queue.prefetch(photo, from: [4, 5, 6])
      queue.prefetch(photo, from: [7, 8, 9])
      Self.prepareAll(driver)
      XCTAssertEqual(Self.made(log), [1, 2, 3, 4, 5, 6], "the newest call waits for room")
      XCTAssertFalse(Self.show(8, queue, photo), "a row of the newest call is shown first")
      Self.prepareAll(driver)
      XCTAssertEqual(Set(Self.made(log).suffix(3)), [7, 8, 9])
      XCTAssertTrue(Self.show(7, queue, photo))
      XCTAssertTrue(Self.show(9, queue, photo))
      XCTAssertEqual(Self.made(log).count, 9, "each row made once")
      XCTAssertEqual(queue.statistics.pending, 0)
      assertBalanced(queue)
    }
  }

  /// Prefetches past the queue's length: the newest call's farthest rows go (evicted), the older call's stay.
  func testPastTheQueuesLengthTheNewestCallsFarthestRowsGo() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = Self.scene(room: 20, length: 4)
      queue.prefetch(photo, from: [1, 2, 3])
      queue.prefetch(photo, from: [4, 5, 6])
      XCTAssertEqual(queue.statistics.evicted, 2)
      Self.prepareAll(driver)
      XCTAssertEqual(Self.made(log), [1, 2, 3, 4])
      assertBalanced(queue)
    }
  }

  /// Past the queue's length, prefetches of calls passed go before the newer rows.
  func testPastTheQueuesLengthRowsOfCallsPassedGoFirst() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = Self.scene(room: 20, length: 5)
      queue.prefetch(photo, from: [1, 2, 3])
      queue.prefetch(photo, from: [4, 5, 6])
      XCTAssertEqual(queue.statistics.evicted, 1, "6, the newest call's farthest")
      XCTAssertFalse(Self.show(5, queue, photo), "a row of the newer call shown: the first call was passed")
      queue.prefetch(photo, from: [7, 8])
      XCTAssertEqual(queue.statistics.evicted, 2, "one of the passed call's")
      Self.prepareAll(driver)
      XCTAssertEqual(Set(Self.made(log)), [1, 2, 4, 5, 7, 8])
      XCTAssertEqual(Array(Self.made(log).prefix(3)), [5, 4, 7], "the visible row, then the rows not passed")
      assertBalanced(queue)
    }
  }
}
