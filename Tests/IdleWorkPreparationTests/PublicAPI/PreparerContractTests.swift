import Foundation
import IdleWork
import IdleWorkPreparation
import IdleWorkTesting
import TestHelpers
import XCTest

/// The contract of a queue's preparers, through the public API only: the queue's counts and the preparer's, their
/// identities, one preparation half shared by every preparer of a queue, and what the docs claim.
final class PreparerContractTests: XCTestCase {
  struct Broken: Error {}

  // MARK: Helpers

  /// Every public count of a preparer's statistics, to compare two preparers' views.
  @MainActor
  static func counts(_ p: Preparer) -> [Int] {
    let s = p.statistics
    return [
      s.failed, s.cacheHits, s.wastedPreparations, s.duplicatePreparations, s.prefetches, s.prefetchesKept,
      s.prefetchesCancelled, s.prefetchesEvicted, s.prefetchesFailed, s.prefetchesPending,
    ]
  }

  @MainActor
  static func queueCounts(_ q: IdleQueue) -> [Int] {
    let s = q.statistics
    return [s.added, s.executed, s.skippedAsStale, s.evicted, s.cancelled, s.pending]
  }

  // MARK: Two preparers of one queue

  /// Two preparers of one queue: the same `queue`, one set of counts, one cache, one set of prefetches.
  func testTwoPreparersOfOneQueueAreOneHalf() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver)
      let configuration = Preparer.Configuration(workers: 2, resultCacheLimit: 4096)
      let first = Preparer(queue: queue, configuration: configuration)
      let second = Preparer(queue: queue, configuration: configuration)
      XCTAssertTrue(first.queue === queue)
      XCTAssertTrue(second.queue === queue)
      let photo = Preparation(resultBytes: { _ in 10 }) { (name: String, _) in "photo \(name)" }
      // A prefetch by one, cancelled by the other: it ends as cancelled, in the one set of counts.
      first.prefetch(photo, from: ["a", "b"])
      second.cancelPrefetching(photo, from: ["b"])
      XCTAssertEqual(second.statistics.prefetchesCancelled, 1)
      XCTAssertEqual(second.statistics.prefetchesPending, 1)
      // A task of the second joins the first's prefetch under way.
      var shown: [String] = []
      second.addTask(key: "a", prepare: photo, from: "a") { shown.append($0) }
      XCTAssertEqual(driver.runPreparations(), 1, "one preparation for a, shared by the prefetch and the task")
      driver.drain()
      XCTAssertEqual(shown, ["photo a"])
      XCTAssertEqual(Self.counts(first), Self.counts(second))
      XCTAssertEqual(first.statistics.prefetchesKept, 1)
      XCTAssertEqual(Self.queueCounts(queue), [1, 1, 0, 0, 0, 0])
      assertBalanced(first)
      assertBalanced(second)
    }
  }

  /// The defaults given explicitly are the same configuration as the defaults left out: no trap.
  func testTheDefaultConfigurationSpelledOutIsTheSame() {
    MainActor.assumeIsolated {
      let queue = IdleQueue(driver: ManualPassDriver())
      let first = Preparer(queue: queue)
      let defaults = Preparer.Configuration()
      let second = Preparer(
        queue: queue, configuration: .init(workers: defaults.workers, resultCacheLimit: defaults.resultCacheLimit))
      XCTAssertTrue(first.queue === second.queue)
    }
  }

  /// A second preparer with another configuration stops the program naming both — whichever setting differs, whether
  /// or not the first preparer is still kept, and whether or not the queue has ended.
  func testAnotherConfigurationStopsTheProgramNamingBoth() throws {
    let isChild = MainActor.assumeIsolated {
      performedAsChild(variable: Self.mismatchVariable) { (input: Mismatch) in input.perform() }
    }
    if isChild { return }
    let failures = try childProcessesThatDidNotStop(
      Mismatch.allCases, childTest: Self.mismatchTest, variable: Self.mismatchVariable,
      fragments: \.fragments)
    XCTAssertEqual(failures, [])
  }

  static let mismatchVariable = "IDLEWORK_PREPARER_MISMATCH"
  static let mismatchTest =
    "IdleWorkPreparationTests.PreparerContractTests/testAnotherConfigurationStopsTheProgramNamingBoth"

  enum Mismatch: String, CaseIterable {
    case cacheLimitOnly
    case firstPreparerReleased
    case queueInvalidatedFirst
    case defaultsThenOther

    var fragments: [String] {
      switch self {
      case .cacheLimitOnly, .firstPreparerReleased, .queueInvalidatedFirst:
        return ["Preparer", "same configuration", "resultCacheLimit: 1024", "resultCacheLimit: 2048"]
      case .defaultsThenOther:
        return ["Preparer", "same configuration", "workers: 7,", "resultCacheLimit: 33554432"]
      }
    }

    @MainActor
    func perform() {
      let queue = IdleQueue(driver: ManualPassDriver())
      switch self {
      case .cacheLimitOnly:
        _ = Preparer(queue: queue, configuration: .init(workers: 1, resultCacheLimit: 1024))
        _ = Preparer(queue: queue, configuration: .init(workers: 1, resultCacheLimit: 2048))
      case .firstPreparerReleased:
        do { _ = Preparer(queue: queue, configuration: .init(workers: 1, resultCacheLimit: 1024)) }
        _ = Preparer(queue: queue, configuration: .init(workers: 1, resultCacheLimit: 2048))
      case .queueInvalidatedFirst:
        queue.invalidate()
        _ = Preparer(queue: queue, configuration: .init(workers: 1, resultCacheLimit: 1024))
        _ = Preparer(queue: queue, configuration: .init(workers: 1, resultCacheLimit: 2048))
      case .defaultsThenOther:
        _ = Preparer(queue: queue)
        _ = Preparer(queue: queue, configuration: .init(workers: 7, resultCacheLimit: 32 << 20))
      }
    }
  }

  /// The preparation half lives as long as its queue, whether or not a `Preparer` is kept: a preparer made after the
  /// first was released finds what it prefetched.
  func testTheHalfOutlivesItsPreparers() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver)
      let photo = Preparation { (name: String, _) in "photo \(name)" }
      do {
        let first = Preparer(queue: queue)
        first.prefetch(photo, from: ["a"])
      }
      XCTAssertEqual(driver.runPreparations(), 1)
      driver.drain()
      let later = Preparer(queue: queue)
      var shown: [String] = []
      later.addTask(key: "a", prepare: photo, from: "a") { shown.append($0) }
      XCTAssertEqual(shown, ["photo a"])
      XCTAssertEqual(
        [later.statistics.prefetches, later.statistics.prefetchesKept, later.statistics.cacheHits], [1, 1, 1])
      XCTAssertEqual(Self.queueCounts(queue), [0, 0, 0, 0, 0, 0])
    }
  }

  /// A row reloaded with the same input in the same `cellForRowAt` joins the preparation under way: the old task
  /// stale, the new one executed, nothing wasted or duplicated.
  func testAReloadWithTheSameInputJoins() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver)
      let preparer = Preparer(queue: queue)
      let log = TextLog()
      let photo = Preparation { (name: String, _) in
        log.append(name)
        return "photo \(name)"
      }
      let cell = PhotoCell()
      queue.bind(cell, to: 0)
      preparer.addTask(for: cell, at: 0, prepare: photo, from: "a") { cell, image in cell.shown.append(image) }
      queue.bind(cell, to: 0)
      preparer.addTask(for: cell, at: 0, prepare: photo, from: "a") { cell, image in cell.shown.append(image) }
      driver.runPreparations()
      driver.drain()
      XCTAssertEqual(log.entries, ["a"])
      XCTAssertEqual(cell.shown, ["photo a"])
      XCTAssertEqual(Self.queueCounts(queue), [2, 1, 1, 0, 0, 0])
      let p = preparer.statistics
      XCTAssertEqual([p.wastedPreparations, p.duplicatePreparations, p.failed], [0, 0, 0])
    }
  }

  /// Later tasks and prepared tasks on one queue: each counts once, the identity holds, `cancelAllTasks()` ends
  /// both and the pending prefetches.
  func testLaterTasksBesidePreparedTasks() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver, configuration: .init(budget: .tasks(10)))
      let preparer = Preparer(queue: queue)
      let photo = Preparation(resultBytes: { _ in 10 }) { (n: Int, _) in "photo \(n)" }
      var ran: [String] = []
      var abandoned = 0
      let later = queue.addLaterTask(key: "later", onAbandon: { abandoned += 1 })
      preparer.addTask(key: "prepared", prepare: photo, from: 1) { ran.append($0) }
      later.fulfill { ran.append("later") }
      driver.runPreparations()
      driver.drain()
      XCTAssertEqual(Set(ran), ["later", "photo 1"])
      _ = queue.addLaterTask(key: "later 2", onAbandon: { abandoned += 1 })
      preparer.addTask(key: "prepared 2", prepare: photo, from: 2) { ran.append($0) }
      preparer.prefetch(photo, from: [3])
      queue.cancelAllTasks()
      XCTAssertEqual(abandoned, 1)
      XCTAssertEqual(Self.queueCounts(queue), [4, 2, 0, 0, 2, 0])
      let p = preparer.statistics
      XCTAssertEqual([p.prefetches, p.prefetchesCancelled, p.prefetchesPending], [1, 1, 0])
      assertBalanced(preparer)
    }
  }

  /// An apply that ends the queue: the task that applied counts executed, the others cancelled, every prefetch ends.
  func testAnApplyThatEndsTheQueue() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver, configuration: .init(budget: .tasks(10)))
      let preparer = Preparer(queue: queue)
      let photo = Preparation(resultBytes: { _ in 10 }) { (n: Int, _) in "photo \(n)" }
      var applied: [Int] = []
      preparer.addTask(key: 1, prepare: photo, from: 1) { _ in
        applied.append(1)
        queue.invalidate()
      }
      for n in 2...4 { preparer.addTask(key: n, prepare: photo, from: n) { _ in applied.append(n) } }
      preparer.prefetch(photo, from: [5, 6])
      driver.runPreparations()
      driver.drain()
      XCTAssertEqual(applied, [1])
      XCTAssertEqual(Self.queueCounts(queue), [4, 1, 0, 0, 3, 0])
      XCTAssertEqual(preparer.statistics.prefetchesPending, 0)
      assertBalanced(preparer)
    }
  }

  /// An apply that configures its own cell again (a row reloaded for its new height) counts executed once, never
  /// stale, and its preparation is not wasted.
  func testAnApplyThatRebindsItsCell() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver)
      let preparer = Preparer(queue: queue)
      let photo = Preparation { (name: String, _) in "photo \(name)" }
      let cell = PhotoCell()
      queue.bind(cell, to: 0)
      preparer.addTask(for: cell, at: 0, prepare: photo, from: "a") { cell, image in
        cell.shown.append(image)
        queue.bind(cell, to: 0)
      }
      driver.runPreparations()
      driver.drain()
      XCTAssertEqual(cell.shown, ["photo a"])
      XCTAssertEqual(Self.queueCounts(queue), [1, 1, 0, 0, 0, 0])
      XCTAssertEqual(preparer.statistics.wastedPreparations, 0)
    }
  }

  /// Without a result cache (`resultCacheLimit: 0`): nothing is a cache hit, a task for a result that arrived but was
  /// not taken in joins it, nothing counts duplicated.
  func testWithoutACacheTasksJoinAndNothingHits() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver)
      let preparer = Preparer(queue: queue, configuration: .init(workers: 1, resultCacheLimit: 0))
      let log = TextLog()
      let photo = Preparation { (name: String, _) in
        log.append(name)
        return "photo \(name)"
      }
      var shown: [String] = []
      preparer.addTask(key: 1, prepare: photo, from: "a") { shown.append($0) }
      XCTAssertEqual(driver.runPreparations(), 1)
      preparer.addTask(key: 2, prepare: photo, from: "a") { shown.append($0) }
      XCTAssertEqual(driver.runPreparations(), 0, "joined")
      driver.drain()
      preparer.addTask(key: 3, prepare: photo, from: "a") { shown.append($0) }
      XCTAssertEqual(shown, ["photo a", "photo a"], "no cache: not applied at once")
      driver.runPreparations()
      driver.drain()
      XCTAssertEqual(log.entries, ["a", "a"])
      XCTAssertEqual(Self.queueCounts(queue), [3, 3, 0, 0, 0, 0])
      let p = preparer.statistics
      XCTAssertEqual([p.cacheHits, p.duplicatePreparations, p.wastedPreparations], [0, 0, 0])
    }
  }

  /// A sliced main-thread preparation that throws after two slices: its task leaves cancelled, counted failed.
  func testASlicedMainThreadPreparationThatThrows() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver, configuration: .init(budget: .tasks(1)))
      let preparer = Preparer(queue: queue)
      let sliced = Preparation.mainThread(slices: { (_: Int) in
        var left = 3
        return { _ throws -> String? in
          left -= 1
          if left == 0 { throw Broken() }
          return nil
        }
      })
      let cell = PhotoCell()
      queue.bind(cell, to: 0)
      preparer.addTask(for: cell, at: 0, prepare: sliced, from: 1) { cell, image in cell.shown.append(image) }
      preparer.addTask(key: "plain", prepare: sliced, from: 2) { _ in XCTFail("applied") }
      driver.drain()
      XCTAssertEqual(cell.shown, [])
      XCTAssertEqual(Self.queueCounts(queue), [2, 0, 0, 0, 2, 0])
      XCTAssertEqual(preparer.statistics.failed, 2)
    }
  }

  // MARK: An ended queue

  /// A preparer made for a queue that has ended: nothing is queued, applied, prepared or counted.
  func testAPreparerOfAnEndedQueueDoesNothing() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver)
      queue.invalidate()
      let preparer = Preparer(queue: queue)
      XCTAssertTrue(preparer.queue === queue)
      let photo = Preparation { (name: String, _) in "photo \(name)" }
      var applied = 0
      let cell = PhotoCell()
      queue.bind(cell, to: 0)
      let cellHandle = preparer.addTask(for: cell, at: 0, prepare: photo, from: "a") { _, _ in applied += 1 }
      let plainHandle = preparer.addTask(key: "b", prepare: photo, from: "b") { _ in applied += 1 }
      preparer.prefetch(photo, from: ["c", "d"])
      preparer.cancelPrefetching(photo, from: ["c"])
      XCTAssertFalse(cellHandle.isPending)
      XCTAssertFalse(plainHandle.isPending)
      XCTAssertEqual(driver.runPreparations(), 0)
      driver.drain()
      driver.sendMemoryWarning()
      XCTAssertEqual(applied, 0)
      XCTAssertEqual(Self.queueCounts(queue), [0, 0, 0, 0, 0, 0])
      XCTAssertEqual(Self.counts(preparer), [0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
      assertBalanced(preparer)
    }
  }

  /// A queue that ends with prepared tasks waiting (some prepared, not applied), prefetches pending and kept, and
  /// results kept: every task leaves cancelled, every prefetch ends, no failure is counted.
  func testTheQueueEndingEndsEverything() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver)
      let preparer = Preparer(queue: queue, configuration: .init(workers: 2, resultCacheLimit: 1 << 20))
      let photo = Preparation(resultBytes: { _ in 10 }) { (n: Int, _) in "photo \(n)" }
      preparer.prefetch(photo, from: [1, 2, 3])
      XCTAssertEqual(driver.runPreparations(maximum: 1), 1)
      driver.drain()  // 1 kept in the cache
      var applied = 0
      for n in 10..<14 { preparer.addTask(key: n, prepare: photo, from: n) { _ in applied += 1 } }
      XCTAssertEqual(driver.runPreparations(maximum: 2), 2)  // arrived, not taken in
      queue.invalidate()
      driver.drain()
      XCTAssertEqual(applied, 0)
      XCTAssertEqual(Self.queueCounts(queue), [4, 0, 0, 0, 4, 0])
      let p = preparer.statistics
      XCTAssertEqual([p.failed, p.cacheHits, p.prefetchesPending], [0, 0, 0])
      XCTAssertEqual(p.prefetches, 3)
      assertBalanced(preparer)
    }
  }

  // MARK: Cache hits and failures

  /// A cache hit applies inside `addTask`, is never queued (its handle is not pending, the queue's counts do not
  /// move) and is never applied again by a pass.
  func testACacheHitIsNeverQueued() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver, configuration: .init(budget: .tasks(10), maximumQueueLength: 2))
      let preparer = Preparer(queue: queue)
      let photo = Preparation { (name: String, _) in "photo \(name)" }
      preparer.prefetch(photo, from: ["a"])
      XCTAssertEqual(driver.runPreparations(), 1)
      driver.drain()
      // The queue is full of tasks: a cache hit still applies and evicts nothing.
      preparer.addTask(key: "x", prepare: photo, from: "x") { _ in }
      preparer.addTask(key: "y", prepare: photo, from: "y") { _ in }
      let before = Self.queueCounts(queue)
      let cell = PhotoCell()
      queue.bind(cell, to: 0)
      let cellHit = preparer.addTask(for: cell, at: 0, prepare: photo, from: "a") { cell, image in
        cell.shown.append(image)
      }
      var plain: [String] = []
      let plainHit = preparer.addTask(key: "a", prepare: photo, from: "a") { plain.append($0) }
      XCTAssertEqual(cell.shown, ["photo a"])
      XCTAssertEqual(plain, ["photo a"])
      XCTAssertFalse(cellHit.isPending)
      XCTAssertFalse(plainHit.isPending)
      XCTAssertFalse(cellHit.cancel(), "a cache hit has nothing to cancel")
      XCTAssertEqual(Self.queueCounts(queue), before, "a cache hit is never queued")
      XCTAssertEqual(queue.cancelTasks(forKey: "a"), 0)
      XCTAssertEqual(preparer.statistics.cacheHits, 2)
      driver.runPreparations()
      driver.drain()
      XCTAssertEqual(cell.shown, ["photo a"], "applied once")
      XCTAssertEqual(Self.queueCounts(queue), [2, 2, 0, 0, 0, 0])
      assertBalanced(preparer)
    }
  }

  /// A preparation that throws, shared by tasks of two cells and a plain task: each leaves the queue cancelled, once,
  /// and counts failed in the preparer's; a failing worker and main-thread preparation alike; a failing prefetch counts
  /// only as a failed prefetch.
  func testFailuresCountCancelledInTheQueueAndFailedInThePreparer() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver, configuration: .init(budget: .tasks(10)))
      let preparer = Preparer(queue: queue)
      let broken = Preparation { (_: String, _) throws -> String in throw Broken() }
      let brokenOnMain = Preparation.mainThread { (_: String) throws -> String in throw Broken() }
      var applied = 0
      let cells = [PhotoCell(), PhotoCell()]
      for (index, cell) in cells.enumerated() {
        queue.bind(cell, to: index)
        preparer.addTask(for: cell, at: index, prepare: broken, from: "a") { _, _ in applied += 1 }
      }
      preparer.addTask(key: "plain", prepare: broken, from: "a") { _ in applied += 1 }
      preparer.addTask(key: "main", prepare: brokenOnMain, from: "m") { _ in applied += 1 }
      preparer.prefetch(broken, from: ["p"])
      for _ in 0..<5 {
        driver.runPreparations()
        driver.drain()
      }
      XCTAssertEqual(applied, 0)
      XCTAssertEqual(Self.queueCounts(queue), [4, 0, 0, 0, 4, 0])
      let p = preparer.statistics
      XCTAssertEqual(
        [p.failed, p.prefetches, p.prefetchesFailed, p.wastedPreparations, p.cacheHits], [4, 1, 1, 0, 0],
        "failed, prefetches, prefetchesFailed, wasted, cacheHits")
      // A failure is not kept: asking again prepares again.
      preparer.addTask(key: "again", prepare: broken, from: "a") { _ in applied += 1 }
      XCTAssertEqual(queue.statistics.pending, 1)
      driver.runPreparations()
      driver.drain()
      XCTAssertEqual(preparer.statistics.failed, 5)
      XCTAssertEqual(Self.queueCounts(queue), [5, 0, 0, 0, 5, 0])
      assertBalanced(preparer)
    }
  }

  /// A task joining a prefetch that then throws: the prefetch ends kept (its preparation was taken over), the task
  /// cancelled and failed.
  func testATaskJoiningAFailingPrefetch() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver)
      let preparer = Preparer(queue: queue)
      let broken = Preparation { (_: String, _) throws -> String in throw Broken() }
      preparer.prefetch(broken, from: ["a"])
      preparer.addTask(key: "a", prepare: broken, from: "a") { _ in XCTFail("applied") }
      XCTAssertEqual(driver.runPreparations(), 1)
      driver.drain()
      XCTAssertEqual(Self.queueCounts(queue), [1, 0, 0, 0, 1, 0])
      let p = preparer.statistics
      XCTAssertEqual([p.failed, p.prefetches, p.prefetchesKept, p.prefetchesFailed], [1, 1, 1, 0])
      assertBalanced(preparer)
    }
  }

  // MARK: Prefetch counts

  /// `prefetches` counts prefetches that started or joined a preparation: an input kept, or asked for again while
  /// pending, adds none; past `maximumQueueLength` the last ranked are evicted, and prefetches never evict tasks.
  func testPrefetchCountsAsDocumented() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver, configuration: .init(budget: .tasks(10), maximumQueueLength: 3))
      let preparer = Preparer(queue: queue)
      let photo = Preparation(resultBytes: { _ in 10 }) { (n: Int, _) in "photo \(n)" }
      for n in 0..<3 { preparer.addTask(key: n, prepare: photo, from: 100 + n) { _ in } }
      preparer.prefetch(photo, from: [1, 2, 3, 4, 5])
      XCTAssertEqual(queue.statistics.evicted, 0, "a prefetch never evicts a task")
      var p = preparer.statistics
      XCTAssertEqual([p.prefetches, p.prefetchesEvicted, p.prefetchesPending], [5, 2, 3])
      preparer.prefetch(photo, from: [1, 2])  // pending: adds none
      XCTAssertEqual(preparer.statistics.prefetches, 5)
      preparer.cancelPrefetching(photo, from: [3])
      preparer.prefetch(photo, from: [100])  // joins a task's preparation: adds one
      XCTAssertEqual(preparer.statistics.prefetches, 6)
      for _ in 0..<5 {
        driver.runPreparations()
        driver.drain()
      }
      preparer.prefetch(photo, from: [1, 100])  // kept: adds none
      p = preparer.statistics
      XCTAssertEqual(
        [p.prefetches, p.prefetchesKept, p.prefetchesCancelled, p.prefetchesEvicted, p.prefetchesPending],
        [6, 3, 1, 2, 0], "prefetches, kept, cancelled, evicted, pending")
      XCTAssertEqual(Self.queueCounts(queue), [3, 3, 0, 0, 0, 0])
      assertBalanced(preparer)
    }
  }

  // MARK: Memory warnings

  /// A memory warning drops droppable tasks (cancelled), ends pending prefetches (cancelled), and every kept result
  /// goes ("all go on a memory warning") — also one that had finished, not yet taken in: no later `addTask` is a
  /// cache hit.
  func testAMemoryWarningDropsEveryKeptResult() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver, configuration: .init(budget: .tasks(10)))
      let preparer = Preparer(queue: queue)
      let photo = Preparation(resultBytes: { _ in 10 }) { (n: Int, _) in "photo \(n)" }
      preparer.prefetch(photo, from: [1])
      driver.runPreparations()
      driver.drain()  // 1 kept, taken in
      preparer.addTask(key: "d", prepare: photo, from: 10, droppable: true) { _ in }
      preparer.addTask(key: "k", prepare: photo, from: 11) { _ in }
      XCTAssertEqual(driver.runPreparations(), 2)
      preparer.prefetch(photo, from: [2, 3])  // takes in d's and k's results
      XCTAssertEqual(driver.runPreparations(maximum: 1), 1)  // 2 finished, not taken in; 3 pending
      driver.sendMemoryWarning()
      XCTAssertEqual(Self.queueCounts(queue), [2, 0, 0, 0, 1, 1], "d dropped, k pending")
      let p = preparer.statistics
      XCTAssertEqual(
        [p.prefetches, p.prefetchesKept, p.prefetchesCancelled, p.prefetchesPending], [3, 2, 1, 0],
        "prefetches, kept, cancelled, pending")
      var hits: [Int] = []
      for n in [1, 2, 3, 10] {
        preparer.addTask(key: "again \(n)", prepare: photo, from: n) { _ in hits.append(n) }
      }
      XCTAssertEqual(hits, [], "no result is kept after a memory warning")
      XCTAssertEqual(preparer.statistics.cacheHits, 0)
      assertBalanced(preparer)
    }
  }

  // MARK: A seeded fuzz of everything together

  /// Two preparers of one queue, worker and main-thread preparations (some throwing), cell and plain tasks, rebinding,
  /// prefetches, cancels, hidden cells, memory warnings and the queue's end. After every step: both identities hold;
  /// every `addTask` on a live queue was queued once or was a cache hit (`added + cacheHits`); every apply is an
  /// executed task or a cache hit; failures never exceed the queue's cancellations; both preparers see one set of
  /// counts.
  func testRandomMixesKeepBothIdentitiesAndTheCrossCounts() {
    for seed in 1...UInt64(ProcessInfo.processInfo.environment["SPLIT_SEEDS"].flatMap { Int($0) } ?? 200) {
      MainActor.assumeIsolated { Self.fuzz(seed: seed) }
    }
  }

  @MainActor
  static func fuzz(seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    let driver = ManualPassDriver()
    let queue = IdleQueue(
      driver: driver,
      configuration: .init(budget: .tasks(random.int(1...4)), maximumQueueLength: random.int(2...10)))
    let configuration = Preparer.Configuration(workers: random.int(1...3), resultCacheLimit: 10 * random.int(1...12))
    let first = Preparer(queue: queue, configuration: configuration)
    let second = Preparer(queue: queue, configuration: configuration)
    let worker = Preparation(resultBytes: { _ in 10 }) { (n: Int, _) throws -> String in
      if n % 5 == 4 { throw Broken() }
      return "w\(n)"
    }
    let main = Preparation.mainThread(resultBytes: { _ in 10 }) { (n: Int) throws -> String in
      if n % 5 == 4 { throw Broken() }
      return "m\(n)"
    }
    let cells = (0..<5).map { _ in PhotoCell() }
    var addCalls = 0
    var applies = 0
    var ended = false
    for step in 0..<150 {
      let preparer = random.chance(50) ? first : second
      let preparation = random.chance(70) ? worker : main
      let input = random.int(0...11)
      let cell = cells[random.int(0...(cells.count - 1))]
      switch random.int(0...13) {
      case 0, 1, 2:
        let item = random.int(0...20)
        if random.chance(50) { queue.bind(cell, to: item) }
        if !ended { addCalls += 1 }
        preparer.addTask(for: cell, at: item, prepare: preparation, from: input, droppable: random.chance(30)) {
          _, _ in applies += 1
        }
      case 3:
        if !ended { addCalls += 1 }
        preparer.addTask(key: random.int(0...3), prepare: preparation, from: input, droppable: random.chance(30)) {
          _ in applies += 1
        }
      case 4, 5:
        preparer.prefetch(
          preparation, from: (0..<random.int(1...5)).map { _ in random.int(0...11) }, first: random.chance(20))
      case 6:
        preparer.cancelPrefetching(preparation, from: (0..<random.int(1...4)).map { _ in random.int(0...11) })
      case 7:
        if random.chance(50) {
          queue.cellDidEndDisplaying(cell, at: random.int(0...20))
        } else {
          queue.cellWillDisplay(cell, at: random.int(0...20))
        }
      case 8:
        if random.chance(25) { queue.cancelAllTasks() } else { queue.cancelTasks(forKey: random.int(0...3)) }
      case 9:
        driver.sendMemoryWarning()
      case 10, 11:
        driver.runPreparations(maximum: random.int(1...4))
      case 12:
        driver.runPass()
      default:
        if random.chance(4) {
          queue.invalidate()
          ended = true
        } else {
          driver.drain(maximumPasses: 3)
        }
      }
      let q = queue.statistics
      let p = first.statistics
      var problems: [String] = []
      if q.added != q.executed + q.skippedAsStale + q.evicted + q.cancelled + q.pending {
        problems.append("queue identity: \(queueCounts(queue))")
      }
      if p.prefetches
        != p.prefetchesKept + p.prefetchesCancelled + p.prefetchesEvicted + p.prefetchesFailed + p.prefetchesPending
      {
        problems.append("prefetch identity: \(counts(first))")
      }
      if addCalls != q.added + p.cacheHits {
        problems.append("addTask calls \(addCalls) != added \(q.added) + cacheHits \(p.cacheHits)")
      }
      if applies != q.executed + p.cacheHits {
        problems.append("applies \(applies) != executed \(q.executed) + cacheHits \(p.cacheHits)")
      }
      if p.failed > q.cancelled { problems.append("failed \(p.failed) > cancelled \(q.cancelled)") }
      if counts(first) != counts(second) { problems.append("preparers differ: \(counts(first)) \(counts(second))") }
      if !problems.isEmpty {
        XCTFail("seed \(seed), step \(step): " + problems.joined(separator: "; "))
        return
      }
    }
    if !ended {
      for _ in 0..<30 {
        driver.runPreparations()
        driver.drain()
      }
      queue.invalidate()
    }
    XCTAssertEqual([queue.statistics.pending, first.statistics.prefetchesPending], [0, 0], "seed \(seed)")
    assertBalanced(first)
  }
}
