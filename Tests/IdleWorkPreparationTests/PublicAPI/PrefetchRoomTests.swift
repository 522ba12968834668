import Foundation
import IdleWork
import IdleWorkPreparation
import IdleWorkTesting
import TestHelpers
import XCTest

/// The rows about to appear win the result cache and the queue: prefetched results are kept, and prefetches wait, in
/// the order their rows will appear — nearest first within a call, an older call's before a newer one's, rows whose
/// prefetch was cancelled or whose call was passed (a newer call's row was shown first) last.
final class PrefetchRoomTests: XCTestCase {
  /// A queue with 2 workers and a cache whose room (its limit less a quarter kept for results on their way) holds
  /// `room` results of 100 bytes; a preparation of such results that logs each row it makes.
  @MainActor
  static func scene(
    room: Int, length: Int = 100, budget: IdleQueue.Budget = .tasks(1)
  ) -> (Preparer, ManualPassDriver, TextLog, Preparation<Int, String>) {
    let driver = ManualPassDriver()
    let limit = (room * 100 + 1) * 4 / 3 + 1
    let preparer = Preparer(
      queue: IdleQueue(
        driver: driver,
        configuration: .init(budget: budget, maximumQueueLength: length)),
      configuration: .init(workers: 2, resultCacheLimit: limit))
    let log = TextLog()
    let photo = Preparation(resultBytes: { (_: String) in 100 }) { (row: Int, _) in
      log.append("\(row)")
      return "photo \(row)"
    }
    return (preparer, driver, log, photo)
  }

  /// Runs every preparation that can start, with passes after each batch to take the results in and apply them,
  /// until none can start.
  @MainActor
  static func prepareAll(_ driver: ManualPassDriver) {
    repeat { driver.drain() } while driver.runPreparations() > 0
  }

  /// Cells shown, kept on screen (a released cell's tasks are stale) until the test ends.
  @MainActor static var onScreen: [PhotoCell] = []

  override func tearDown() {
    // Freed before the process exits: a live object's weak-reference side table reads as a leak to LeakSanitizer.
    MainActor.assumeIsolated { Self.onScreen = [] }
    super.tearDown()
  }

  /// Shows `row` in a new cell; returns whether its result applied at once, inside `addTask` (from the cache).
  @MainActor
  static func show(_ row: Int, _ preparer: Preparer, _ photo: Preparation<Int, String>) -> Bool {
    let cell = PhotoCell()
    onScreen.append(cell)
    preparer.queue.bind(cell, to: row)
    preparer.addTask(for: cell, at: row, prepare: photo, from: row) { cell, photo in cell.shown.append(photo) }
    return cell.shown == ["photo \(row)"]
  }

  /// Rows made, in order, as numbers.
  static func made(_ log: TextLog) -> [Int] { log.entries.map { Int($0)! } }

  /// A prefetch of 12 rows into a cache with room for 8: the 8 nearest are made, the 4 farthest wait (pending) until
  /// rows shown free room; every row then shows in its first frame, each made once, nothing wasted.
  func testAPrefetchLargerThanTheCacheKeepsTheNearestRows() {
    MainActor.assumeIsolated {
      let (preparer, driver, log, photo) = Self.scene(room: 8)
      preparer.prefetch(photo, from: Array(1...12))
      Self.prepareAll(driver)
      XCTAssertEqual(Self.made(log), Array(1...8))
      XCTAssertEqual(preparer.statistics.prefetchesPending, 4, "the farthest wait for room")
      for row in 1...12 {
        XCTAssertTrue(Self.show(row, preparer, photo), "row \(row) shows in its first frame")
        Self.prepareAll(driver)
      }
      XCTAssertEqual(Self.made(log), Array(1...12), "each row made once")
      let s = preparer.statistics
      XCTAssertEqual([s.cacheHits, s.wastedPreparations, s.prefetchesPending], [12, 0, 0])
      assertBalanced(preparer)
    }
  }

  /// In a steady scroll an older call's rows appear before a newer call's: with the cache full of wanted rows, a
  /// newer call waits, and a row nothing prefetched (a header, a reloaded row) is kept beside them only while its
  /// task holds it — it pushes none out.
  func testAnOlderCallsRowsAreKeptOverANewerCalls() {
    MainActor.assumeIsolated {
      let (preparer, driver, log, photo) = Self.scene(room: 6)
      preparer.prefetch(photo, from: [1, 2, 3])
      preparer.prefetch(photo, from: [4, 5, 6])
      preparer.prefetch(photo, from: [7])
      Self.prepareAll(driver)
      XCTAssertEqual(Self.made(log), [1, 2, 3, 4, 5, 6], "the newest call waits")
      XCTAssertFalse(Self.show(100, preparer, photo), "a row nothing prefetched")
      Self.prepareAll(driver)
      XCTAssertEqual(Self.onScreen.last?.shown, ["photo 100"])
      for row in 1...7 {
        XCTAssertTrue(Self.show(row, preparer, photo), "row \(row) kept")
        Self.prepareAll(driver)
      }
      XCTAssertEqual(Self.made(log), [1, 2, 3, 4, 5, 6, 100, 7], "each row made once")
      assertBalanced(preparer)
    }
  }

  /// One row shown that nothing prefetched, in a steady scroll whose prefetches fill the cache: no chain of misses
  /// follows — every prefetched row shows in its first frame, each made once.
  func testOneMissDoesNotStartAChainOfMisses() {
    for missFirst in [false, true] {
      MainActor.assumeIsolated {
        let (preparer, driver, log, photo) = Self.scene(room: 4)
        preparer.prefetch(photo, from: Array(1...8))
        Self.prepareAll(driver)
        if missFirst {
          XCTAssertFalse(Self.show(0, preparer, photo))
          Self.prepareAll(driver)
        }
        var blank: [Int] = []
        for row in 1...40 {
          if !Self.show(row, preparer, photo) { blank.append(row) }
          preparer.prefetch(photo, from: [row + 8])
          Self.prepareAll(driver)
        }
        XCTAssertEqual(blank, [], "rows blank in their first frame (a row nothing prefetched first: \(missFirst))")
        XCTAssertEqual(Self.made(log).count, Set(Self.made(log)).count, "a row made twice")
        assertBalanced(preparer)
      }
    }
  }

  /// The same input asked for again by a newer call (two rows showing one avatar): showing it is no sign that the
  /// older call's rows were passed — the next row stays kept.
  func testAnInputAskedAgainByANewerCallDoesNotPassTheOlderCall() {
    for reask in [false, true] {
      MainActor.assumeIsolated {
        let (preparer, driver, log, photo) = Self.scene(room: 4)
        preparer.prefetch(photo, from: [1, 2])
        preparer.prefetch(photo, from: reask ? [3, 1] : [3])
        Self.prepareAll(driver)
        XCTAssertEqual(Self.made(log), [1, 2, 3])
        XCTAssertTrue(Self.show(1, preparer, photo))
        preparer.prefetch(photo, from: [5, 6])
        Self.prepareAll(driver)
        XCTAssertTrue(
          Self.show(2, preparer, photo), "row 2, the next, shows in its first frame (asked again: \(reask))")
        XCTAssertEqual(Self.made(log).filter { $0 == 2 }.count, 1)
        assertBalanced(preparer)
      }
    }
  }

  /// The landing rows of a fling (`first: true`) rank before every row asked for so far: with the cache full of
  /// farther rows they are made at once, pushing the farthest out, and show in their first frame.
  func testLandingRowsDoNotWaitBehindFartherRows() {
    MainActor.assumeIsolated {
      let (preparer, driver, log, photo) = Self.scene(room: 4)
      preparer.prefetch(photo, from: [1, 2, 3, 4])
      Self.prepareAll(driver)
      preparer.prefetch(photo, from: [10, 11], first: true)
      Self.prepareAll(driver)
      XCTAssertEqual(Self.made(log), [1, 2, 3, 4, 10, 11])
      XCTAssertTrue(Self.show(10, preparer, photo))
      XCTAssertTrue(Self.show(11, preparer, photo))
      assertBalanced(preparer)
    }
  }

  /// One result larger than the cache's room (a detail header) does not stop later prefetches for good: once the
  /// cache has room, they are made.
  func testOneLargeResultDoesNotStopPrefetchingForever() {
    MainActor.assumeIsolated {
      let (preparer, driver, log, thumbnail) = Self.scene(room: 7)
      let header = Preparation(resultBytes: { (_: String) in 800 }) { (id: Int, _) in "header \(id)" }
      preparer.prefetch(thumbnail, from: [1, 2])
      Self.prepareAll(driver)
      var shown: String?
      preparer.addTask(key: "header", prepare: header, from: 0) { shown = $0 }
      Self.prepareAll(driver)
      XCTAssertEqual(shown, "header 0")
      XCTAssertTrue(Self.show(1, preparer, thumbnail))
      XCTAssertTrue(Self.show(2, preparer, thumbnail))
      preparer.prefetch(thumbnail, from: [3, 4])
      Self.prepareAll(driver)
      XCTAssertEqual(Self.made(log), [1, 2, 3, 4], "the cache has room: rows 3 and 4 are made")
      XCTAssertEqual(preparer.statistics.prefetchesPending, 0)
      assertBalanced(preparer)
    }
  }

  /// A result larger than the cache's room — one of the same preparation (a panorama among photos), or of another
  /// (a header opening a detail screen) — does not hold back the prefetches that follow it: the cache is empty of
  /// what it must keep, so they start, on a worker or on the main thread.
  func testAResultLargerThanTheRoomDoesNotHoldBackTheNextPrefetches() {
    for (samePreparation, mainThread) in [(true, false), (false, false), (true, true)] {
      MainActor.assumeIsolated {
        let (preparer, driver, log, _) = Self.scene(room: 7, budget: .tasks(100))
        let sizes: @Sendable (String) -> Int = { $0 == "photo 0" ? 800 : 100 }
        let photo =
          mainThread
          ? Preparation.mainThread(resultBytes: sizes) { (row: Int) in
            log.append("\(row)")
            return "photo \(row)"
          }
          : Preparation(resultBytes: sizes) { (row: Int, _) in
            log.append("\(row)")
            return "photo \(row)"
          }
        let header = Preparation(resultBytes: sizes) { (row: Int, _) in "photo \(row)" }
        XCTAssertFalse(Self.show(0, preparer, samePreparation ? photo : header), "the large one, shown")
        Self.prepareAll(driver)
        preparer.prefetch(photo, from: [1, 2, 3])
        Self.prepareAll(driver)
        let label = "same preparation: \(samePreparation), main thread: \(mainThread)"
        XCTAssertEqual(Self.made(log).filter { $0 > 0 }, [1, 2, 3], label)
        XCTAssertEqual(preparer.statistics.prefetchesPending, 0, label)
        XCTAssertTrue(Self.show(1, preparer, photo), label)
        assertBalanced(preparer)
      }
    }
  }

  /// Two rows nothing prefetched (a header and a reloaded row) held by their tasks beside a cache full of wanted
  /// rows: once applied they go, and push no wanted row out.
  func testResultsHeldByTasksPushNoWantedRowOut() {
    MainActor.assumeIsolated {
      let (preparer, driver, log, photo) = Self.scene(room: 6)
      preparer.prefetch(photo, from: Array(1...6))
      Self.prepareAll(driver)
      XCTAssertFalse(Self.show(100, preparer, photo))
      XCTAssertFalse(Self.show(101, preparer, photo))
      Self.prepareAll(driver)
      XCTAssertEqual(Self.onScreen.suffix(2).map(\.shown), [["photo 100"], ["photo 101"]])
      for row in 1...6 {
        XCTAssertTrue(Self.show(row, preparer, photo), "row \(row) kept")
        Self.prepareAll(driver)
      }
      XCTAssertEqual(Self.made(log).sorted(), Array(1...6) + [100, 101], "each row made once")
      XCTAssertEqual(preparer.statistics.wastedPreparations, 0)
      assertBalanced(preparer)
    }
  }

  /// A row shown from a result that finished but was not taken in yet passes the older calls as one taken in does:
  /// the newer call's rows find room.
  func testARowShownFromAResultNotYetTakenInPassesOlderCalls() {
    for takenInFirst in [true, false] {
      MainActor.assumeIsolated {
        let (preparer, driver, log, photo) = Self.scene(room: 6)
        preparer.prefetch(photo, from: [1, 2, 3])
        Self.prepareAll(driver)
        preparer.prefetch(photo, from: [4, 5, 6])
        XCTAssertEqual(driver.runPreparations(), 3, "made; no pass took them in yet")
        if takenInFirst { driver.drain() }
        XCTAssertTrue(Self.show(5, preparer, photo))
        preparer.prefetch(photo, from: [7, 8, 9])
        Self.prepareAll(driver)
        XCTAssertEqual(Set(Self.made(log)), Set(1...9), "taken in first: \(takenInFirst)")
        XCTAssertEqual(preparer.statistics.prefetchesPending, 0)
        assertBalanced(preparer)
      }
    }
  }

  /// A main-thread prefetch under way and worker prefetches share the cache's room: none starts without room for its
  /// result, so none is made twice.
  func testMainThreadAndWorkerPrefetchesShareTheCachesRoom() {
    MainActor.assumeIsolated {
      let (preparer, driver, log, photo) = Self.scene(room: 4)
      let card = Preparation.mainThread(
        resultBytes: { (_: String) in 100 },
        slices: { (row: Int) in
          var step = 0
          return { _ in
            step += 1
            log.append("card \(row).\(step)")
            return step == 2 ? "photo \(row)" : nil
          }
        })
      XCTAssertFalse(Self.show(0, preparer, photo))
      Self.prepareAll(driver)
      preparer.prefetch(card, from: [1])
      driver.runPass()
      XCTAssertEqual(log.entries, ["0", "card 1.1"], "the card under way")
      preparer.prefetch(photo, from: [2, 3, 4, 5])
      Self.prepareAll(driver)
      XCTAssertTrue(Self.show(1, preparer, card), "row 1")
      for row in 2...5 {
        XCTAssertTrue(Self.show(row, preparer, photo), "row \(row) shows in its first frame")
        Self.prepareAll(driver)
      }
      XCTAssertEqual(log.entries.count, 7, "each row made once: \(log.entries)")
      XCTAssertEqual(preparer.statistics.wastedPreparations, 0)
      assertBalanced(preparer)
    }
  }

  /// Main-thread prefetches waiting for room do not ask for pass after pass: the run loop may sleep.
  func testMainThreadPrefetchesWaitingForRoomLetTheRunLoopSleep() {
    MainActor.assumeIsolated {
      let (preparer, driver, log, photo) = Self.scene(room: 8, budget: .tasks(100))
      let card = Preparation.mainThread(resultBytes: { (_: String) in 100 }) { (row: Int) in
        log.append("\(row)")
        return "photo \(row)"
      }
      XCTAssertFalse(Self.show(0, preparer, photo))
      Self.prepareAll(driver)
      preparer.prefetch(card, from: Array(1...12))
      XCTAssertLessThan(driver.drain(maximumPasses: 100), 100, "passes requested while nothing could run")
      XCTAssertEqual(Self.made(log), Array(0...8))
      XCTAssertEqual(preparer.statistics.prefetchesPending, 4, "the 4 farthest wait for room")
      XCTAssertFalse(driver.isPassRequested)
      XCTAssertTrue(Self.show(1, preparer, card), "a row shown frees room")
      driver.drain()
      XCTAssertEqual(Self.made(log), Array(0...9))
      assertBalanced(preparer)
    }
  }

  /// Rows whose prefetch was cancelled (the user turned back) are the first to go, though they were made last.
  func testRowsWhosePrefetchWasCancelledGoFirst() {
    MainActor.assumeIsolated {
      let (preparer, driver, log, photo) = Self.scene(room: 8)
      preparer.prefetch(photo, from: Array(1...8))
      Self.prepareAll(driver)
      preparer.cancelPrefetching(photo, from: [7, 8])
      preparer.prefetch(photo, from: [9, 10])
      Self.prepareAll(driver)
      XCTAssertEqual(Self.made(log), Array(1...10))
      for row in [1, 2, 3, 4, 5, 6, 9, 10] { XCTAssertTrue(Self.show(row, preparer, photo), "row \(row) kept") }
      XCTAssertFalse(Self.show(7, preparer, photo), "a cancelled row made room")
      assertBalanced(preparer)
    }
  }

  /// In a fling that outruns the workers, a row of a newer call shown first means the older calls' rows were passed:
  /// they go first, and the newer call's rows waiting for room start.
  func testRowsOfCallsPassedGoFirst() {
    MainActor.assumeIsolated {
      let (preparer, driver, log, photo) = Self.scene(room: 6)
      preparer.prefetch(photo, from: [1, 2, 3])
      preparer.prefetch(photo, from: [4, 5, 6])
      preparer.prefetch(photo, from: [7, 8, 9])
      Self.prepareAll(driver)
      XCTAssertEqual(Self.made(log), [1, 2, 3, 4, 5, 6], "the newest call waits for room")
      XCTAssertFalse(Self.show(8, preparer, photo), "a row of the newest call is shown first")
      Self.prepareAll(driver)
      XCTAssertEqual(Set(Self.made(log).suffix(3)), [7, 8, 9])
      XCTAssertTrue(Self.show(7, preparer, photo))
      XCTAssertTrue(Self.show(9, preparer, photo))
      XCTAssertEqual(Self.made(log).count, 9, "each row made once")
      XCTAssertEqual(preparer.statistics.prefetchesPending, 0)
      assertBalanced(preparer)
    }
  }

  /// Prefetches past the queue's length: the newest call's farthest rows go (evicted), the older call's stay.
  func testPastTheQueuesLengthTheNewestCallsFarthestRowsGo() {
    MainActor.assumeIsolated {
      let (preparer, driver, log, photo) = Self.scene(room: 20, length: 4)
      preparer.prefetch(photo, from: [1, 2, 3])
      preparer.prefetch(photo, from: [4, 5, 6])
      XCTAssertEqual(preparer.statistics.prefetchesEvicted, 2)
      Self.prepareAll(driver)
      XCTAssertEqual(Self.made(log), [1, 2, 3, 4])
      assertBalanced(preparer)
    }
  }

  /// Past the queue's length, prefetches of calls passed go before the newer rows.
  func testPastTheQueuesLengthRowsOfCallsPassedGoFirst() {
    MainActor.assumeIsolated {
      let (preparer, driver, log, photo) = Self.scene(room: 20, length: 5)
      preparer.prefetch(photo, from: [1, 2, 3])
      preparer.prefetch(photo, from: [4, 5, 6])
      XCTAssertEqual(preparer.statistics.prefetchesEvicted, 1, "6, the newest call's farthest")
      XCTAssertFalse(Self.show(5, preparer, photo), "a row of the newer call shown: the first call was passed")
      preparer.prefetch(photo, from: [7, 8])
      XCTAssertEqual(preparer.statistics.prefetchesEvicted, 2, "one of the passed call's")
      Self.prepareAll(driver)
      XCTAssertEqual(Set(Self.made(log)), [1, 2, 4, 5, 7, 8])
      XCTAssertEqual(Array(Self.made(log).prefix(3)), [5, 4, 7], "the visible row, then the rows not passed")
      assertBalanced(preparer)
    }
  }

  /// A memory warning drops the prefetches still waiting (counted cancelled) and the results kept: a row shown
  /// after it is made again, once.
  func testAMemoryWarningDropsWaitingPrefetchesAndKeptResults() {
    MainActor.assumeIsolated {
      let (preparer, driver, log, photo) = Self.scene(room: 8)
      preparer.prefetch(photo, from: 1...4)
      XCTAssertEqual(driver.runPreparations(maximum: 2), 2)  // rows 1 and 2 made; 3 and 4 wait
      driver.drain()
      let before = preparer.statistics
      driver.sendMemoryWarning()
      XCTAssertEqual(
        preparer.statistics.prefetchesCancelled - before.prefetchesCancelled, 2,
        "the waiting prefetches were not dropped")
      XCTAssertFalse(Self.show(1, preparer, photo), "row 1 showed a result kept through the memory warning")
      Self.prepareAll(driver)
      XCTAssertEqual(Self.made(log), [1, 2, 1])
      XCTAssertEqual(preparer.statistics.prefetchesPending, 0)
      preparer.queue.invalidate()
    }
  }
}
