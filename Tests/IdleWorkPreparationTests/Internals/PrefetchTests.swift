import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkPreparation
@testable import IdleWorkTesting

/// Prefetching, stepped by hand: rows ready before they appear, in the order the workers take them, shared with
/// the rows that ask for them, and cancelled as UIKit cancels them.
final class PrefetchTests: XCTestCase {
  final class Cell {
    var shown: [String] = []
  }

  /// A queue with a cache on a manual driver, and a preparation that logs what it prepares.
  @MainActor
  static func prefetchingQueue(
    maximumQueueLength: Int = 30
  ) -> (IdleQueue, ManualPassDriver, TextLog, Preparation<String, String>) {
    let driver = ManualPassDriver()
    let queue = IdleQueue(
      driver: driver, configuration: .init(maximumQueueLength: maximumQueueLength))
    _ = Preparer(queue: queue, configuration: .init(resultCacheLimit: 1 << 20))
    let log = TextLog()
    let photo = Preparation { (name: String, _) in
      log.append(name)
      return "image of \(name)"
    }
    return (queue, driver, log, photo)
  }

  /// Runs every preparation that can start, with a pass after each batch to take the results in (prefetches wait
  /// while as many results as the queue's workers wait for the main thread) and passes until none is requested
  /// (results applied leave the cache's room to prefetches); returns how many ran.
  @MainActor
  static func prepareAll(_ driver: ManualPassDriver) -> Int {
    var total = 0
    while case let count = driver.runPreparations(), count > 0 {
      total += count
      driver.runPass()
      driver.drain()
    }
    return total
  }

  /// Before the cache's room is known, as many prefetches as the queue's workers run, then they wait for a pass to
  /// take their results in; then only as many as the cache's room holds beside the results prefetches still want
  /// (here three of 256 KiB in a 1 MiB cache less a quarter): they never push out a row about to appear.
  func testPrefetchesWaitForThePassToTakeTheirResultsIn() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let workers = 2
      let queue = IdleQueue(driver: driver, configuration: .init())
      _ = Preparer(queue: queue, configuration: .init(workers: workers, resultCacheLimit: 1 << 20))
      let log = TextLog()
      let photo = Preparation(resultBytes: { (_: String) in 1 << 18 }) { (name: String, _) in
        log.append(name)
        return "image of \(name)"
      }
      queue.preparer.prefetch(photo, from: (0..<(workers + 2)).map { "p\($0)" })
      XCTAssertEqual(driver.runPreparations(), workers, "as many as the workers, then they wait")
      XCTAssertEqual(driver.runPreparations(), 0, "still waiting: no pass took their results in")
      driver.runPass()
      XCTAssertEqual(driver.runPreparations(), 1, "taken in: room for one more")
      driver.runPass()
      XCTAssertEqual(driver.runPreparations(), 0, "the fourth waits for room")
      XCTAssertEqual(queue.counts.pending, 1)
      let cell = Cell()
      queue.bind(cell, to: 0)
      queue.preparer.addTask(for: cell, at: 0, prepare: photo, from: "visible") { cell, image in
        cell.shown.append(image)
      }
      driver.runPreparations()
      XCTAssertTrue(log.entries.contains("visible"), "a visible row's preparation does not wait")
      driver.drain()
      XCTAssertEqual(cell.shown, ["image of visible"])
      XCTAssertTrue(queue.counts.isBalanced, queue.counts.summary)
    }
  }

  /// While the cache has room for the results on their way, prefetches do not wait for a pass to take them in:
  /// a busy main thread at a fling's start (FeedDemo's `busy`) does not hold back the rows about to appear. At
  /// most four results per worker wait even so: sizes measured small may bound nothing.
  func testPrefetchesGoOnWhileTheCacheHasRoomForTheirResults() {
    MainActor.assumeIsolated {
      let (queue, driver, _, photo) = Self.prefetchingQueue()
      let workers = Preparer.Configuration().workers
      queue.preparer.prefetch(photo, from: (0..<workers).map { "p\($0)" })
      XCTAssertEqual(driver.runPreparations(), workers)
      driver.runPass()  // the first results reach the cache: its room and their size are known
      queue.preparer.prefetch(photo, from: (10..<(10 + 6 * workers)).map { "p\($0)" })
      XCTAssertEqual(
        driver.runPreparations(), 4 * workers, "small results, a cache with room: they go on, up to 4 per worker")
      driver.runPass()
      XCTAssertEqual(driver.runPreparations(), 2 * workers, "taken in: the rest start")
      driver.drain()
      XCTAssertTrue(queue.counts.isBalanced, queue.counts.summary)
    }
  }

  /// The results waiting for a pass count at the size their workers measured, not at the largest size the cache
  /// has seen: after small results, large ones with no pass between stop the prefetches once they fill the
  /// cache's room (here 200 KiB results in the ~1 MiB left: five), not at the cap of four per worker.
  func testResultsWaitingCountAtTheSizeTheirWorkersMeasured() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let workers = 2  // below the five that fit: the first `workers` results may always wait
      let queue = IdleQueue(driver: driver, configuration: .init())
      _ = Preparer(queue: queue, configuration: .init(workers: workers, resultCacheLimit: 1 << 20))
      let log = TextLog()
      let small = Preparation(resultBytes: { (_: String) in 1 << 10 }) { (name: String, _) in "icon of \(name)" }
      let large = Preparation(resultBytes: { (_: String) in 200 << 10 }) { (name: String, _) in
        log.append(name)
        return "photo of \(name)"
      }
      queue.preparer.prefetch(small, from: (0..<workers).map { "s\($0)" })
      XCTAssertEqual(driver.runPreparations(), workers)
      driver.runPass()  // 1 KiB results cached: the room is known, the largest result 1 KiB
      queue.preparer.prefetch(large, from: (0..<(6 * workers)).map { "p\($0)" })
      let free = (1 << 20) - workers << 10
      XCTAssertEqual(
        driver.runPreparations(), free / (200 << 10), "counted 1 KiB each, eight would wait (the cap: 4 per worker)")
      driver.runPass()
      XCTAssertEqual(Self.prepareAll(driver), 0, "the rest wait for room")
      XCTAssertEqual(log.entries.count, free / (200 << 10))
      XCTAssertEqual(queue.counts.pending, 6 * workers - free / (200 << 10))
      XCTAssertTrue(queue.counts.isBalanced, queue.counts.summary)
    }
  }

  /// A result waiting for a pass counts at the size the cache will give it: the largest of every task joined, not
  /// only of the one that started the preparation (here tasks sizing it 1 KiB, joined by tasks sizing it 200 KiB).
  func testAResultWaitingCountsTheLargestSizeOfTheTasksJoined() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver, configuration: .init())
      _ = Preparer(queue: queue, configuration: .init(workers: 2, resultCacheLimit: 1 << 20))
      let large = 200 << 10
      @MainActor func add(_ key: String, _ content: String, bytes: Int) {
        queue.addTask(
          key: key, content: content, droppable: true, resultBytes: { (_: String) in bytes },
          prepare: { _ in content }, apply: { _ in })
      }
      add("seed", "seed", bytes: large)
      XCTAssertEqual(driver.runPreparations(), 1)
      driver.runPass()  // a 200 KiB result cached: no later result is larger than every one before it
      for index in 0..<2 {
        add("small \(index)", "a\(index)", bytes: 1 << 10)
        add("large \(index)", "a\(index)", bytes: large)  // joins: the cache will count 200 KiB
      }
      for index in 0..<6 { add("q\(index)", "q\(index)", bytes: large) }
      let room = (1 << 20) - (1 << 20) / 4  // the limit less a quarter kept for results on their way
      XCTAssertEqual(driver.runPreparations(), room / large, "every result waiting is 200 KiB: three fit")
      driver.runPass()
      driver.drain()  // applied: their room is free again
      _ = Self.prepareAll(driver)
      driver.drain()
      XCTAssertEqual(queue.counts.pending, 0)
      XCTAssertTrue(queue.counts.isBalanced, queue.counts.summary)
    }
  }

  /// A queue without a result cache has nothing to count a result against: its workers do not call `resultBytes`.
  func testWithoutACacheResultsAreNotMeasured() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver, configuration: .init())
      _ = Preparer(queue: queue, configuration: .init(workers: 2, resultCacheLimit: 0))
      let calls = LockedBox(0)
      for index in 0..<5 {
        queue.addTask(
          key: index, content: index,
          resultBytes: { (_: Int) in
            calls.update { $0 += 1 }
            return 1
          }, prepare: { _ in index }, apply: { _ in })
      }
      XCTAssertEqual(driver.runPreparations(), 5)
      driver.drain()
      XCTAssertEqual(calls.value, 0, "resultBytes called with no cache to count for")
      XCTAssertEqual(queue.counts.executed, 5)
      XCTAssertTrue(queue.counts.isBalanced, queue.counts.summary)
    }
  }

  /// While a pass takes results in, they are in neither the arrivals nor the cache: until they are cached, the
  /// cache's room counts as none, and prefetches wait (a worker that picks then must not count the room of the last
  /// pass, which those results are about to fill); once they are cached, the prefetches start.
  func testWhileResultsAreTakenInTheCachesRoomIsNotCounted() {
    MainActor.assumeIsolated {
      let (queue, driver, _, photo) = Self.prefetchingQueue()
      let workers = Preparer.Configuration().workers
      let startedMidTakeIn = LockedBox<Int?>(nil)
      let inPass = LockedBox(false)
      // Measuring a result is the app's code, run on the main thread while the pass takes the results in (and on the
      // worker that made it, here the main thread too, in `runPreparations`): in the pass, it lets workers pick.
      let probe = Preparation(resultBytes: { (_: String) in
        MainActor.assumeIsolated {
          if inPass.value, startedMidTakeIn.value == nil {
            startedMidTakeIn.value = 0
            queue.preparer.prefetch(photo, from: (20..<(20 + 3 * workers)).map { "p\($0)" })
            startedMidTakeIn.value = driver.runPreparations()
          }
        }
        return 16
      }) { (name: String, _) in "image of \(name)" }
      queue.preparer.prefetch(photo, from: (0..<workers).map { "q\($0)" })
      driver.runPreparations()
      driver.runPass()  // the cache's room is known: plenty
      queue.preparer.prefetch(probe, from: (10..<(10 + workers)).map { "p\($0)" })
      driver.runPreparations()
      inPass.value = true
      driver.runPass()  // takes p10… in; measuring the first lets p20… start
      inPass.value = false
      XCTAssertEqual(startedMidTakeIn.value, 0, "mid take-in, prefetches counted the room of the last pass")
      XCTAssertEqual(driver.runPreparations(), 3 * workers, "the results cached: the room is known again")
      driver.drain()
      XCTAssertTrue(queue.counts.isBalanced, queue.counts.summary)
    }
  }

  /// A row whose content was prefetched shows it inside its `cellForRowAt`: applied at once, counted a cache
  /// hit; the prefetch counts as added and executed.
  func testAPrefetchedRowShowsInItsFirstFrame() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = Self.prefetchingQueue()
      queue.preparer.prefetch(photo, from: ["a", "b"])
      XCTAssertEqual(driver.runPreparations(), 2)
      driver.runPass()  // takes the results in
      let cell = Cell()
      queue.bind(cell, to: 0)
      queue.preparer.addTask(for: cell, at: 0, prepare: photo, from: "a") { cell, image in cell.shown.append(image) }
      XCTAssertEqual(cell.shown, ["image of a"], "not applied inside the call")
      XCTAssertEqual(log.entries, ["a", "b"], "prepared again")
      let s = queue.counts
      XCTAssertEqual([s.added, s.executed, queue.counts.cacheHits, s.pending], [3, 3, 1, 0])
      XCTAssertTrue(s.isBalanced, s.summary)
    }
  }

  /// A row asking for content a prefetch is preparing joins it: one preparation, started before the other
  /// prefetches now that a visible row waits for it, applied in a pass.
  func testARowJoinsAPrefetchUnderWayWhichBecomesVisibleWork() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = Self.prefetchingQueue()
      queue.preparer.prefetch(photo, from: ["a", "b", "c"])
      let cell = Cell()
      queue.bind(cell, to: 2)
      queue.preparer.addTask(for: cell, at: 2, prepare: photo, from: "c") { cell, image in cell.shown.append(image) }
      XCTAssertEqual(cell.shown, [])
      XCTAssertEqual(driver.runPreparations(maximum: 1), 1)
      XCTAssertEqual(log.entries, ["c"], "the visible row's preparation did not go first")
      driver.runPass()
      XCTAssertEqual(cell.shown, ["image of c"])
      XCTAssertEqual(driver.runPreparations(), 2)
      XCTAssertEqual(log.entries, ["c", "a", "b"], "prepared twice, or out of order")
      driver.drain()
      let s = queue.counts
      XCTAssertEqual(
        [s.added, s.executed, queue.counts.cacheHits, s.pending, queue.counts.wastedPreparations], [4, 4, 0, 0, 0])
      XCTAssertTrue(s.isBalanced, s.summary)
    }
  }

  /// A result that finished for a task but was not taken in yet is not prepared again by a prefetch for the same
  /// content: the prefetch uses it, as a task added for that content does.
  func testAPrefetchDoesNotPrepareAgainAResultThatFinishedForATask() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = PrefetchTests.prefetchingQueue()
      var applied: [String] = []
      queue.preparer.addTask(key: "row", prepare: photo, from: "a") { applied.append($0) }
      XCTAssertEqual(driver.runPreparations(), 1)  // finished, not taken in
      queue.preparer.prefetch(photo, from: ["a"])
      XCTAssertEqual(driver.runPreparations(), 0, "the prefetch prepared it again")
      driver.drain()
      XCTAssertEqual(applied, ["image of a"])
      XCTAssertEqual(log.entries, ["a"])
    }
  }

  /// A prefetch that joins a render held joinable after its cell was configured again keeps it joinable: the pass
  /// that releases held renders keeps one a prefetch still wants, so the row that then asks for the content joins
  /// it (one preparation) and takes the prefetch over.
  func testAPrefetchOfAHeldRenderStaysJoinableForTheRowThatAsksForIt() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = PrefetchTests.prefetchingQueue()
      let reused = Cell()
      queue.bind(reused, to: 0)
      queue.preparer.addTask(for: reused, at: 0, prepare: photo, from: "a") { cell, image in cell.shown.append(image) }
      queue.bind(reused, to: 7)  // the cell is reused for another row: its render for "a" is held
      queue.preparer.prefetch(photo, from: ["a"])  // row 0 is about to appear again (the user turns back)
      driver.runPass()  // releases the held render: the prefetch still wants it
      let cell = Cell()
      queue.bind(cell, to: 0)
      queue.preparer.addTask(for: cell, at: 0, prepare: photo, from: "a") { cell, image in cell.shown.append(image) }
      driver.runPreparations()
      driver.drain()
      XCTAssertEqual(cell.shown, ["image of a"])
      XCTAssertEqual(log.entries, ["a"], "prepared twice: the row did not join the prefetch's preparation")
      let s = queue.counts
      XCTAssertTrue(s.isBalanced, s.summary)
    }
  }

  /// Visible rows' preparations go first; prefetches after them, the nearest first: in the order they were asked
  /// for over every call, as UIKit hands them — a screen of rows, then each row as it comes into the window,
  /// farther than every row before it. A prefetch asked again while pending keeps its place. (Numbering each
  /// call's contents from 0 would put every later, farther row ahead of the earlier call's nearer ones.)
  func testVisibleRowsFirstThenPrefetchesInTheOrderAsked() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = Self.prefetchingQueue()
      queue.preparer.prefetch(photo, from: ["p0", "p1", "p2", "p3"])  // the screen ahead
      queue.preparer.prefetch(photo, from: ["p4"])  // the list moved a row: the next row came into the window
      queue.preparer.prefetch(photo, from: ["p3"])  // asked again while pending: it keeps its place
      let cell = Cell()
      queue.bind(cell, to: 9)
      queue.preparer.addTask(for: cell, at: 9, prepare: photo, from: "visible") { cell, image in
        cell.shown.append(image)
      }
      XCTAssertEqual(Self.prepareAll(driver), 6)
      XCTAssertEqual(log.entries, ["visible", "p0", "p1", "p2", "p3", "p4"])
    }
  }

  /// A cancelled prefetch drops its preparation if it has not started — unless a row now waits for it, and then
  /// it goes on as that row's. (One that runs is told: `PrefetchWorkerTests`.)
  func testCancellingAPrefetch() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = Self.prefetchingQueue()
      queue.preparer.prefetch(photo, from: ["a", "b", "c"])
      queue.preparer.cancelPrefetching(photo, from: ["a"])
      let cell = Cell()
      queue.bind(cell, to: 2)
      queue.preparer.addTask(for: cell, at: 2, prepare: photo, from: "c") { cell, image in cell.shown.append(image) }
      queue.preparer.cancelPrefetching(photo, from: ["c"])  // the row waits for it: it goes on
      XCTAssertEqual(driver.runPreparations(), 2)
      XCTAssertEqual(log.entries, ["c", "b"], "a cancelled prefetch ran, or a row's work was cancelled")
      driver.drain()
      XCTAssertEqual(cell.shown, ["image of c"])

      let s = queue.counts
      // Prefetches: a cancelled, b kept, c taken over by the row; the row's task applied.
      XCTAssertEqual([s.added, s.executed, s.cancelled, queue.counts.failed, s.pending], [4, 3, 1, 0, 0])
      XCTAssertTrue(s.isBalanced, s.summary)
    }
  }

  /// A prefetch never evicts a visible row's task, however many come: they are not tasks; past the queue's
  /// length the farthest prefetches of the call go (UIKit hands rows nearest first).
  func testPrefetchesNeverEvictVisibleRowsWork() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = Self.prefetchingQueue(maximumQueueLength: 2)
      let cells = [Cell(), Cell()]
      for (row, cell) in cells.enumerated() {
        queue.bind(cell, to: row)
        queue.preparer.addTask(for: cell, at: row, prepare: photo, from: "row \(row)") { cell, image in
          cell.shown.append(image)
        }
      }
      queue.preparer.prefetch(photo, from: (0..<10).map { "p\($0)" })
      XCTAssertEqual(Self.prepareAll(driver), 4)
      driver.drain()
      XCTAssertEqual(cells.map(\.shown), [["image of row 0"], ["image of row 1"]], "a visible row was evicted")
      XCTAssertEqual(Array(log.entries.prefix(2)), ["row 1", "row 0"], "visible rows first, the latest shown first")
      XCTAssertEqual(Array(log.entries.dropFirst(2)), ["p0", "p1"], "the nearest prefetches are kept")
      let s = queue.counts
      XCTAssertEqual([s.added, s.executed, s.evicted, s.pending], [12, 4, 8, 0])
      XCTAssertTrue(s.isBalanced, s.summary)
    }
  }

  /// Rows a prefetch still wants are kept over rows scrolled past, and a farther prefetch waits for room rather than
  /// push one out: each row is made once and shows in its first frame.
  func testPrefetchingKeptContentKeepsItOverRowsScrolledPast() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      // Room for three 100-byte results: the limit less a quarter kept free for results on their way.
      let queue = IdleQueue(driver: driver, configuration: .init())
      _ = Preparer(queue: queue, configuration: .init(resultCacheLimit: 400))
      let log = TextLog()
      let photo = Preparation(resultBytes: { (_: String) in 100 }) { (name: String, _) in
        log.append(name)
        return "image of \(name)"
      }
      queue.preparer.prefetch(photo, from: ["a", "b", "c"])
      XCTAssertEqual(Self.prepareAll(driver), 3)
      queue.preparer.prefetch(photo, from: ["a", "b", "c"])  // still about to appear, a the nearest
      queue.preparer.prefetch(photo, from: ["d"])
      XCTAssertEqual(Self.prepareAll(driver), 0, "a, b and c kept; d waits for room")
      let cell = Cell()
      for (row, name) in ["a", "b", "c", "d"].enumerated() {
        queue.bind(cell, to: row)
        queue.preparer.addTask(for: cell, at: row, prepare: photo, from: name) { cell, image in cell.shown.append(image)
        }
        XCTAssertEqual(cell.shown.last, "image of \(name)", "shown in its first frame")
        _ = Self.prepareAll(driver)  // a row shown frees room: d is made after a
      }
      XCTAssertEqual(log.entries, ["a", "b", "c", "d"])
      XCTAssertEqual(queue.counts.cacheHits, 4)
      XCTAssertTrue(queue.counts.isBalanced, queue.counts.summary)
    }
  }

  /// A prefetched result that leaves the cache unused (here: a memory warning) counts as wasted; one used does
  /// not.
  func testAPrefetchedResultDroppedUnusedIsWasted() {
    MainActor.assumeIsolated {
      let (queue, driver, _, photo) = Self.prefetchingQueue()
      queue.preparer.prefetch(photo, from: ["a", "b", "c"])
      XCTAssertEqual(Self.prepareAll(driver), 3)
      XCTAssertEqual(queue.counts.wastedPreparations, 0, "counted wasted while it waits in the cache")
      let cell = Cell()
      queue.bind(cell, to: 0)
      queue.preparer.addTask(for: cell, at: 0, prepare: photo, from: "a") { cell, image in cell.shown.append(image) }
      queue.dropDiscardableTasks()
      XCTAssertEqual(queue.counts.wastedPreparations, 2, "b and c were prepared for nothing")
    }
  }

  /// "Results that finished stay in the cache" after `cancelPrefetching`, and "a prefetched result that leaves the
  /// cache unused counts in wastedPreparations": a prefetch cancelled after its preparation finished (not yet taken
  /// in) is not counted wasted when its result arrives, nor when a row then uses it.
  func testAPrefetchCancelledAfterItFinishedIsNotWastedWhenARowUsesIt() {
    MainActor.assumeIsolated {
      let (queue, driver, log, photo) = PrefetchTests.prefetchingQueue()
      queue.preparer.prefetch(photo, from: ["a"])
      XCTAssertEqual(driver.runPreparations(), 1)
      queue.preparer.cancelPrefetching(photo, from: ["a"])  // UIKit cancels: the user turned back, then forth again
      driver.runPass()  // takes the result in: it stays in the cache
      let cell = Cell()
      queue.bind(cell, to: 0)
      queue.preparer.addTask(for: cell, at: 0, prepare: photo, from: "a") { cell, image in cell.shown.append(image) }
      XCTAssertEqual(cell.shown, ["image of a"], "not applied from the cache")
      XCTAssertEqual(log.entries, ["a"])
      let s = queue.counts
      XCTAssertEqual(queue.counts.cacheHits, 1)
      XCTAssertEqual(queue.counts.wastedPreparations, 0, "a prefetched result a row applied counts as wasted")
      XCTAssertTrue(s.isBalanced, s.summary)
    }
  }
}
