import Foundation
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// Review of issue 17's prepared tasks, stepped by hand: every mutation keeps the accounting identity, no
/// result reaches a cell configured again or released, wasted renders are counted once, and what a task
/// captures is freed once it has left.
final class PreparedReviewTests: XCTestCase {
  final class Cell {
    var shown: [String] = []
  }

  /// Detects when an object that a `prepare` (any thread) captures is freed.
  final class SendableProbe: Sendable {}

  // MARK: Leaks

  /// A render dropped before it started (its task cancelled, its cell configured again) or running when the
  /// queue ends frees its `prepare` and `apply` and what they capture: render and requests held each other.
  func testARenderThatNeverArrivesFreesWhatItsTasksCapture() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      weak var cancelledCapture: SendableProbe?
      weak var reboundCapture: SendableProbe?
      weak var endedCapture: SendableProbe?
      let cell = Cell()
      do {
        let probe = SendableProbe()
        cancelledCapture = probe
        let handle = queue.addTask(key: "cancelled") { _ in
          withExtendedLifetime(probe) { 1 }
        } apply: { _ in
          withExtendedLifetime(probe) {}
        }
        XCTAssertTrue(handle.cancel())
      }
      do {
        let probe = SendableProbe()
        reboundCapture = probe
        queue.bind(cell, to: 0)
        queue.addTask(for: cell, at: 0) { _ in
          withExtendedLifetime(probe) { "row 0" }
        } apply: { cell, value in
          withExtendedLifetime(probe) { cell.shown.append(value) }
        }
        queue.bind(cell, to: 1)  // the render is dropped unstarted; the stale task leaves at the next pass
      }
      XCTAssertEqual(driver.runPreparations(), 0, "both renders were dropped before they started")
      driver.runPass()
      assertPreparedBalanced(queue)
      XCTAssertNil(cancelledCapture, "a cancelled task's closures outlive it")
      XCTAssertNil(reboundCapture, "a rebound cell's task's closures outlive it")
      do {
        let probe = SendableProbe()
        endedCapture = probe
        queue.addTask(key: "running at the end") { _ in
          // Runs by hand on the main thread: the queue ends while this render runs.
          MainActor.assumeIsolated { queue.invalidate() }
          return 1
        } apply: { _ in
          withExtendedLifetime(probe) {}
        }
      }
      XCTAssertEqual(driver.runPreparations(), 1)
      assertPreparedBalanced(queue)
      XCTAssertEqual(queue.statistics.cancelled, 2)
      XCTAssertNil(endedCapture, "a task of an ended queue keeps its apply alive")
      XCTAssertEqual(cell.shown, [])
    }
  }

  /// A result for a released cell is never applied: dropped at the next pass before its render starts, or
  /// counted stale after its render when it arrives.
  func testAReleasedCellsResultIsNeverApplied() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      var applied = 0
      var early: Cell? = Cell()
      var late: Cell? = Cell()
      for (row, cell) in [early!, late!].enumerated() {
        queue.bind(cell, to: row)
        queue.addTask(for: cell, at: row) { _ in
          row
        } apply: { _, _ in
          applied += 1
        }
      }
      XCTAssertEqual(driver.runPreparations(maximum: 1), 1, "the first render")
      early = nil  // released after its render
      late = nil  // released before its render started
      driver.runPass()
      XCTAssertEqual(driver.runPreparations(), 0, "the released cell's render was dropped at the pass")
      driver.drain()
      XCTAssertEqual(applied, 0)
      let s = queue.statistics
      XCTAssertEqual(s.skippedAsStale, 2)
      XCTAssertEqual(s.staleAfterPrepare, 1)
      XCTAssertEqual(s.wastedPreparations, 1)
      assertPreparedBalanced(queue)
    }
  }

  // MARK: Wasted renders

  /// An apply that configures its own cell again (a reload of the row it filled) applied the result:
  /// it is not counted wasted.
  func testAnApplyThatConfiguresItsCellAgainIsNotAWastedRender() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let cell = Cell()
      queue.bind(cell, to: 0)
      queue.addTask(for: cell, at: 0) { _ in
        "row 0"
      } apply: { cell, value in
        cell.shown.append(value)
        queue.bind(cell, to: 0)  // e.g. `reloadRows` for the new height reconfigures the cell at once
      }
      driver.runPreparations()
      driver.drain()
      XCTAssertEqual(cell.shown, ["row 0"])
      let s = queue.statistics
      XCTAssertEqual(s.executed, 1)
      XCTAssertEqual(s.wastedPreparations, 0, "the render was applied")
      assertPreparedBalanced(queue)
    }
  }

  /// Wasted renders are counted once each, whichever way their last task leaves.
  func testWastedRendersAreCountedOnceEach() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(maximumQueueLength: 100)
      let cells = (0..<4).map { _ in Cell() }
      for (row, cell) in cells.enumerated() {
        queue.bind(cell, to: row)
        queue.addTask(for: cell, at: row, content: row % 2) { _ in
          "content \(row % 2)"
        } apply: { cell, value in
          cell.shown.append(value)
        }
      }
      let cancelled = queue.addTask(key: "plain") { _ in
        0
      } apply: { _ in
        XCTFail("cancelled")
      }
      XCTAssertEqual(driver.runPreparations(), 3, "rows 0 and 2 share, rows 1 and 3 share, the plain one")
      // Every task leaves without applying, each a different way, before or after the results are taken in.
      queue.bind(cells[0], to: 10)
      queue.cellDidEndDisplaying(cells[1], at: 1)
      queue.cellDidEndDisplaying(cells[3], at: 3)
      XCTAssertTrue(cancelled.cancel())
      assertPreparedBalanced(queue)
      // Takes the results in (as every call that takes in other threads' work does), running nothing: row 0
      // is stale after its render, rows 1 and 3 are parked, row 2 waits for a pass.
      XCTAssertEqual(queue.cancelTasks(forKey: "nothing"), 0)
      assertPreparedBalanced(queue)
      queue.bind(cells[2], to: 12)
      queue.cancelTasks(forKey: 1)
      queue.bind(cells[3], to: 13)
      driver.drain()
      driver.runPass()
      assertPreparedBalanced(queue)
      XCTAssertEqual(cells.map(\.shown), [[], [], [], []])
      let s = queue.statistics
      XCTAssertEqual(s.wastedPreparations, 3)
      XCTAssertEqual(s.executed, 0)
      XCTAssertEqual(s.cancelled, 2)
      XCTAssertEqual(s.skippedAsStale, 3)
      XCTAssertEqual(s.staleAfterPrepare, 3)
      XCTAssertEqual(s.pending, 0)
    }
  }

  // MARK: Content

  /// Content keys are per result type: tasks with equal content but different values neither share a
  /// render nor a cached result (each gets its own type, rather than a failed cast).
  func testEqualContentOfDifferentValueTypesIsNotShared() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver, configuration: .init(resultCacheLimit: 1 << 20))
      var numbers: [Int] = []
      var strings: [String] = []
      queue.addTask(key: 0, content: "photo 7") { _ in
        7
      } apply: {
        numbers.append($0)
      }
      queue.addTask(key: 1, content: "photo 7") { _ in
        "seven"
      } apply: {
        strings.append($0)
      }
      XCTAssertEqual(driver.runPreparations(), 2)
      driver.drain()
      queue.addTask(key: 2, content: "photo 7") { _ in
        "not cached"
      } apply: {
        strings.append($0)
      }
      queue.addTask(key: 3, content: "photo 7") { _ in
        -1
      } apply: {
        numbers.append($0)
      }
      XCTAssertEqual(numbers, [7, 7])
      XCTAssertEqual(strings, ["seven", "seven"])
      assertPreparedBalanced(queue)
    }
  }

  // MARK: Capacity, cancels, sharing

  /// Capacity 0 evicts a prepared task at once and drops its render unstarted; a full queue evicts the
  /// oldest waiting task, whose render a running worker is then told is cancelled.
  func testEvictionDropsOrCancelsTheRender() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(maximumQueueLength: 0)
      let handle = queue.addTask(key: 0) { _ in
        0
      } apply: { _ in
        XCTFail("evicted")
      }
      XCTAssertFalse(handle.isPending)
      XCTAssertEqual(driver.runPreparations(), 0, "the evicted task's render never starts")
      XCTAssertEqual(queue.statistics.evicted, 1)
      assertPreparedBalanced(queue)

      queue.maximumQueueLength = 1
      let seen = Log()
      queue.addTask(key: 1) { isCancelled in
        // Running: a newer task overflows the queue and evicts this one.
        MainActor.assumeIsolated {
          _ = queue.addTask(key: 2) { _ in
            2
          } apply: {
            seen.append($0)
          }
        }
        seen.append(isCancelled() ? -1 : 1)
        return 1
      } apply: { _ in
        XCTFail("evicted")
      }
      XCTAssertEqual(driver.runPreparations(), 2)
      driver.drain()
      XCTAssertEqual(seen.values, [-1, 2], "isCancelled turned true on eviction; the newer task applied")
      let s = queue.statistics
      XCTAssertEqual(s.evicted, 2)
      XCTAssertEqual(s.executed, 1)
      XCTAssertEqual(s.wastedPreparations, 1)
      assertPreparedBalanced(queue)
    }
  }

  /// `cancelTasks(forKey:)` and a handle's `cancel()` drop renders not started and tell running ones.
  func testCancelsDropWaitingRendersAndTellRunningOnes() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let ran = Log()
      queue.addTask(key: "a") { _ in
        ran.append(0)
      } apply: { _ in
        XCTFail("cancelled")
      }
      queue.addTask(key: "a") { _ in
        ran.append(1)
      } apply: { _ in
        XCTFail("cancelled")
      }
      let handle = queue.addTask(key: "b") { _ in
        ran.append(2)
      } apply: { _ in
        XCTFail("cancelled")
      }
      XCTAssertEqual(queue.cancelTasks(forKey: "a"), 2)
      XCTAssertTrue(handle.cancel())
      XCTAssertFalse(handle.cancel(), "once")
      XCTAssertEqual(driver.runPreparations(), 0)
      XCTAssertEqual(ran.values, [])
      let seen = Log()
      queue.addTask(key: "c") { isCancelled in
        seen.append(isCancelled() ? 1 : 0)
        MainActor.assumeIsolated { _ = queue.cancelTasks(forKey: "c") }
        seen.append(isCancelled() ? 1 : 0)
        throw CancellationError()  // stops on isCancelled: not a wasted render
      } apply: { (_: Int) in
        XCTFail("cancelled")
      }
      XCTAssertEqual(driver.runPreparations(), 1)
      driver.drain()
      XCTAssertEqual(seen.values, [0, 1])
      let s = queue.statistics
      XCTAssertEqual(s.cancelled, 4)
      XCTAssertEqual(s.failed, 0, "a task cancelled before its render threw is cancelled, not failed")
      XCTAssertEqual(s.wastedPreparations, 0)
      assertPreparedBalanced(queue)
    }
  }

  /// Sharers by content each keep their own fate: one cancelled, one configured again, one evicted, one
  /// applied; the shared render runs once, is not wasted, and is not cancelled while one sharer waits.
  func testSharersKeepTheirOwnFates() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(maximumQueueLength: 4)
      let cells = (0..<4).map { _ in Cell() }
      let renders = Counter()
      let cancelledSeen = Log()
      var handles: [IdleTaskHandle] = []
      for (row, cell) in cells.enumerated() {
        queue.bind(cell, to: row)
        handles.append(
          queue.addTask(for: cell, at: row, content: "avatar") { isCancelled in
            renders.increment()
            cancelledSeen.append(isCancelled() ? 1 : 0)
            return "avatar"
          } apply: { cell, value in
            cell.shown.append(value)
          })
      }
      XCTAssertTrue(handles[0].cancel())
      queue.bind(cells[1], to: 11)
      queue.addTask(key: "overflow") {}  // full
      queue.addTask(key: "overflow") {}  // over capacity: row 1's stale task goes first
      queue.addTask(key: "overflow") {}  // then the oldest, row 2's, is evicted
      assertPreparedBalanced(queue)
      XCTAssertEqual(driver.runPreparations(), 1)
      driver.drain()
      XCTAssertEqual(renders.value, 1)
      XCTAssertEqual(cancelledSeen.values, [0], "one sharer still waited")
      XCTAssertEqual(cells.map(\.shown), [[], [], [], ["avatar"]])
      let s = queue.statistics
      XCTAssertEqual(s.cancelled, 1)
      XCTAssertEqual(s.skippedAsStale, 1)
      XCTAssertEqual(s.evicted, 1)
      XCTAssertEqual(s.executed, 4)
      XCTAssertEqual(s.wastedPreparations, 0)
      assertPreparedBalanced(queue)
    }
  }

  /// A shared render that throws fails every task still waiting for it, once each.
  func testAFailedSharedRenderFailsEachWaitingTaskOnce() {
    MainActor.assumeIsolated {
      struct Broken: Error {}
      let (queue, driver) = manualQueue()
      let cells = (0..<3).map { _ in Cell() }
      for (row, cell) in cells.enumerated() {
        queue.bind(cell, to: row)
        queue.addTask(for: cell, at: row, content: "broken") { _ -> String in
          throw Broken()
        } apply: { _, _ in
          XCTFail("failed")
        }
      }
      queue.cellDidEndDisplaying(cells[1], at: 1)  // parked: fails too
      queue.bind(cells[2], to: 12)  // stale: leaves as stale, not failed
      XCTAssertEqual(driver.runPreparations(), 1)
      driver.drain()
      driver.runPass()
      let s = queue.statistics
      XCTAssertEqual(s.failed, 2)
      XCTAssertEqual(s.skippedAsStale, 1)
      XCTAssertEqual(s.staleAfterPrepare, 0)
      XCTAssertEqual(s.wastedPreparations, 0)
      XCTAssertEqual(s.pending, 0)
      assertPreparedBalanced(queue)
    }
  }

  // MARK: Cache

  /// A render pinned its result, a memory warning emptied the cache, and a second render of the same
  /// content pinned its own result. The first render's settle must not release the second one's pin: its
  /// task still waits to apply the value, so the result must stay pinned (counted, not evictable).
  func testAnOldRendersUnpinAfterAMemoryWarningKeepsTheNewRendersPin() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver, configuration: .init(maximumQueueLength: 100, resultCacheLimit: 300))
      var applied: [Int] = []
      var added = 0
      @MainActor func request(_ content: Int) {
        added += 1
        queue.addTask(key: "\(content)-\(added)", content: content, resultBytes: { _ in 100 }) { _ in
          content
        } apply: {
          applied.append($0)
        }
      }
      request(5)
      request(0)  // render A
      XCTAssertEqual(driver.runPreparations(), 2)
      driver.runPass()  // takes in 5 and 0 (both pinned), applies 5; A's task waits
      XCTAssertEqual(applied, [5])
      let cache = queue.core.preparation!.cache
      XCTAssertEqual(cache.pinnedBytes, 100, "A's result is pinned")
      queue.dropDiscardableTasks()  // a memory warning: the cache empties (A's task is not discardable)
      XCTAssertEqual(cache.count, 0)
      request(0)  // a miss: render B for the same content
      XCTAssertEqual(driver.runPreparations(), 1)
      driver.runPass()  // takes in B (pinned for its task), applies A's task: A settles and unpins
      XCTAssertEqual(applied, [5, 0])
      XCTAssertEqual(
        cache.pinnedBytes, 100, "B's task has not applied its result yet: it must stay pinned, not A's unpin release it"
      )
      driver.drain()
      XCTAssertEqual(applied, [5, 0, 0])
      XCTAssertEqual(cache.pinnedBytes, 0)
    }
  }

  /// A result whose task is still to apply it stays in the cache, counted against the limit, even when it is
  /// the least recently used: evicting it would free nothing (the task holds it) and let the results alive
  /// exceed the limit. A later task for that content is then a hit.
  func testAResultWaitingForItsApplyIsNotEvicted() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      // 400 bytes less the room for the results on their way (a quarter of the limit here): three results kept.
      let queue = IdleQueue(driver: driver, configuration: .init(maximumQueueLength: 100, resultCacheLimit: 400))
      var applied: [Int] = []
      @MainActor func request(_ content: Int) {
        queue.addTask(key: "\(content)-\(applied.count)", content: content, resultBytes: { _ in 100 }) { _ in
          content
        } apply: {
          applied.append($0)
        }
      }
      request(9)
      driver.runPreparations()
      driver.drain()
      request(0)
      request(1)
      XCTAssertEqual(driver.runPreparations(), 2)
      driver.runPass()  // takes in 0 and 1 (cache: 9, 0, 1), applies 0 (one task a pass); 1 waits
      XCTAssertEqual(applied, [9, 0])
      request(0)  // hits: 0 and 9 become the most recently used, 1 the least
      request(9)
      request(2)
      XCTAssertEqual(driver.runPreparations(), 1)
      driver.runPass()  // takes in 2: one result must go — not 1, whose task still waits
      let cache = queue.core.preparation!.cache
      XCTAssertLessThanOrEqual(cache.bytes, 300)
      driver.drain()
      XCTAssertEqual(applied, [9, 0, 0, 9, 1, 2], "the two hits applied as they were added")
      request(1)
      XCTAssertEqual(driver.runPreparations(), 0, "1 stayed while its task waited: a hit")
      driver.drain()
      XCTAssertEqual(cache.pinnedBytes, 0, "applied: nothing pinned")
      XCTAssertTrue(queue.statistics.isBalanced, queue.statistics.summary)
    }
  }

  /// The cache keeps results within its byte limit, least recently used out first; a result larger than
  /// the limit is not kept; a memory warning empties it; a hit is counted executed.
  func testTheCacheKeepsTheMostRecentlyUsedWithinItsLimit() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      // 400 bytes less the room for the results on their way (a quarter of the limit here): three results kept.
      let queue = IdleQueue(driver: driver, configuration: .init(maximumQueueLength: 100, resultCacheLimit: 400))
      let renders = Log()
      var applied: [Int] = []
      @MainActor func request(_ content: Int, bytes: Int = 100) {
        queue.addTask(key: content, content: content, resultBytes: { _ in bytes }) { _ in
          renders.append(content)
          return content
        } apply: {
          applied.append($0)
        }
      }
      for content in 0..<3 { request(content) }
      driver.runPreparations()
      driver.drain()
      request(0)  // a hit: 0 becomes the most recently used
      request(3)  // prepared; its arrival pushes out the least recently used, 1
      driver.runPreparations()
      driver.drain()
      XCTAssertEqual(renders.values, [0, 1, 2, 3])
      request(0)
      request(2)
      request(3)
      XCTAssertEqual(driver.runPreparations(), 0, "all three hits")
      request(1)
      XCTAssertEqual(driver.runPreparations(), 1, "1 was dropped")
      driver.drain()
      request(4, bytes: 401)
      driver.runPreparations()
      driver.drain()
      request(4, bytes: 401)
      XCTAssertEqual(driver.runPreparations(), 1, "a result over the limit is not kept")
      driver.drain()
      XCTAssertEqual(queue.core.preparation!.cache.bytes, 300)
      queue.dropDiscardableTasks()  // a memory warning
      XCTAssertEqual(queue.core.preparation!.cache.count, 0)
      request(0)
      XCTAssertEqual(driver.runPreparations(), 1, "emptied by the memory warning")
      driver.drain()
      XCTAssertEqual(applied, [0, 1, 2, 0, 3, 0, 2, 3, 1, 4, 4, 0])
      let s = queue.statistics
      XCTAssertEqual(s.executed, 12)
      XCTAssertEqual(s.wastedPreparations, 0)
      assertPreparedBalanced(queue)
    }
  }

  // MARK: Display

  /// A cell leaving the screen holds its render back (a running one goes on); a cell shown again starts it;
  /// on-screen renders go before prefetches, prefetches before off-screen ones.
  func testDisplayDecidesWhichRendersStart() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let order = Log()
      let cells = (0..<3).map { _ in Cell() }
      for (row, cell) in cells.enumerated() {
        queue.bind(cell, to: row)
        queue.addTask(for: cell, at: row, discardable: row == 1) { _ in
          order.append(row)
          return "row \(row)"
        } apply: { cell, value in
          cell.shown.append(value)
        }
      }
      queue.cellDidEndDisplaying(cells[0], at: 0)
      queue.cellDidEndDisplaying(cells[2], at: 2)
      queue.cellWillDisplay(cells[2], at: 2)
      XCTAssertEqual(driver.runPreparations(), 2)
      XCTAssertEqual(order.values, [2, 1], "on screen first, then the prefetch; the off-screen one waits")
      driver.drain()
      XCTAssertEqual(cells.map(\.shown), [[], ["row 1"], ["row 2"]])
      XCTAssertEqual(queue.pendingTaskCount, 1, "the off-screen cell's task is parked")
      queue.cellWillDisplay(cells[0], at: 0)
      XCTAssertEqual(driver.runPreparations(), 1)
      driver.drain()
      XCTAssertEqual(cells[0].shown, ["row 0"])
      assertPreparedBalanced(queue)
    }
  }

  // MARK: Reentrancy

  /// An apply that adds tasks, cancels others and invalidates the queue: accounted exactly, nothing runs
  /// after the invalidation, and the results that arrive later are dropped.
  func testAnApplyThatAddsCancelsAndInvalidates() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(budget: .tasks(10), maximumQueueLength: 100)
      var log: [String] = []
      queue.addTask(key: "first") { _ in
        "first"
      } apply: { value in
        log.append(value)
        queue.addTask(key: "added") { _ in
          "added"
        } apply: { value in
          log.append(value)
          queue.invalidate()
        }
        queue.addTask(key: "cut") { _ in
          "cut"
        } apply: {
          log.append($0)
        }
        XCTAssertEqual(queue.cancelTasks(forKey: "victim"), 1)
      }
      queue.addTask(key: "victim") { _ in
        "victim"
      } apply: {
        log.append($0)
      }
      XCTAssertEqual(driver.runPreparations(), 2)
      driver.drain()
      XCTAssertEqual(log, ["first"], "the victim was cancelled by the earlier apply, in the same pass")
      XCTAssertEqual(driver.runPreparations(maximum: 1), 1)
      driver.drain()
      XCTAssertEqual(log, ["first", "added"])
      XCTAssertEqual(driver.runPreparations(), 0, "the queue ended")
      driver.drain()
      XCTAssertEqual(log, ["first", "added"])
      let s = queue.statistics
      XCTAssertEqual(s.added, 4)
      XCTAssertEqual(s.executed, 2)
      XCTAssertEqual(s.cancelled, 2)
      XCTAssertEqual(s.wastedPreparations, 1, "the victim's render")
      assertPreparedBalanced(queue)
    }
  }

  // MARK: Frame deadline

  /// A `.scrollingFeed` queue on a manual driver whose frame clock is a ``LinkLikeSource``, after one pass that
  /// ran a task at a tick: the clock knows its frame.
  @MainActor
  static func queueOnALinkThatKnowsItsFrame() -> (IdleQueue, ManualPassDriver, LinkLikeSource) {
    let driver = ManualPassDriver()
    let source = LinkLikeSource(driver)
    var configuration = IdleQueue.Configuration.scrollingFeed()
    configuration.scrolling = .fitToFrames(source: { source })
    let queue = IdleQueue(driver: driver, configuration: configuration)
    queue.addTask(key: "learn the frame") {}
    source.tick()
    driver.runPass()
    return (queue, driver, source)
  }

  /// A frame clock that knows a frame as a display link does: only while running, and after a start only
  /// once it has ticked (a paused link neither ticks nor has a target time).
  @MainActor
  final class LinkLikeSource: FrameClockSource {
    let driver: ManualPassDriver
    /// When the next frame must be committed, on the driver's clock.
    var deadline: TimeInterval = 1.0 / 60
    private(set) var isRunning = false
    /// Times a running link was stopped.
    private(set) var stops = 0
    private var hasTicked = false
    init(_ driver: ManualPassDriver) { self.driver = driver }
    /// A vsync: a running link's callback comes.
    func tick() { hasTicked = isRunning }
    func start() { isRunning = true }
    func stop() {
      if isRunning { stops += 1 }
      isRunning = false
      hasTicked = false
    }
    func timeUntilDeadline() -> TimeInterval? { isRunning && hasTicked ? deadline - driver.now : nil }
    var frameDuration: TimeInterval? { nil }
    var startsTicking: Bool { true }
  }

  /// While results are being prepared for cells on screen the frame clock keeps running, so that an apply
  /// is admitted against the frame when its result arrives: it waits for the next frame rather than
  /// running past the deadline (idle), and runs in the first tracking pass after its arrival (scroll).
  func testAnArrivedApplyIsAdmittedAgainstTheFrame() {
    MainActor.assumeIsolated {
      let (queue, driver, source) = PreparedReviewTests.queueOnALinkThatKnowsItsFrame()
      var applied: [Int] = []
      queue.addTask(key: 0, estimatedCost: 0.006) { _ in
        0
      } apply: {
        applied.append($0)
      }
      driver.runPass()  // only a task waiting for its result: nothing runs
      XCTAssertTrue(source.isRunning, "a result on its way for a task on screen keeps the clock running")
      XCTAssertEqual(driver.runPreparations(), 1)
      driver.advance(by: 1.0 / 60 - 0.003)  // 3 ms left
      source.tick()
      driver.runPass()
      XCTAssertEqual(applied, [], "a 6 ms apply does not start 3 ms before the frame")
      source.deadline = driver.now + 0.003 + 1.0 / 60
      driver.advance(by: 0.003)
      source.tick()
      driver.runPass()
      XCTAssertEqual(applied, [0], "a whole frame ahead it fits")

      queue.addTask(key: 1, estimatedCost: 0.002) { _ in
        1
      } apply: {
        applied.append($0)
      }
      driver.runTrackingPass()
      XCTAssertEqual(driver.runPreparations(), 1)
      source.deadline = driver.now + 1.0 / 60
      source.tick()
      driver.runTrackingPass()
      XCTAssertEqual(applied, [0, 1], "the first tracking pass after the arrival applies it")
      assertPreparedBalanced(queue)
    }
  }

  /// A `prepare` that takes long (or hangs) with nothing runnable does not keep the display link ticking: it
  /// stops ``QueueCore/clockKeepAliveWhilePreparing`` after the queue last had runnable work. The result that
  /// arrives later starts it again, and its apply waits for the first frame rather than running unbounded.
  func testTheFrameClockStopsWhileOnlyALongPrepareRuns() {
    MainActor.assumeIsolated {
      let (queue, driver, source) = PreparedReviewTests.queueOnALinkThatKnowsItsFrame()
      var applied: [Int] = []
      queue.addTask(key: 0, estimatedCost: 0.006) { _ in
        0
      } apply: {
        applied.append($0)
      }
      driver.runPass()
      XCTAssertTrue(source.isRunning, "kept for a result due soon")
      driver.advance(by: 0.2)  // the prepare runs on: 0.2 s, twelve frames
      driver.runPass()
      XCTAssertFalse(source.isRunning, "the display link ticks for as long as a prepare runs")
      XCTAssertEqual(driver.runPreparations(), 1)
      driver.runPass()
      XCTAssertTrue(source.isRunning, "an arrival starts the clock")
      XCTAssertEqual(applied, [], "applied before the restarted clock knew a frame")
      source.deadline = driver.now + 1.0 / 60
      source.tick()
      driver.runPass()
      XCTAssertEqual(applied, [0], "applied at the first frame")
      assertPreparedBalanced(queue)
    }
  }
}

/// The accounting identity and the prepared counters' bounds, checked after a mutation.
@MainActor
func assertPreparedBalanced(_ queue: IdleQueue, file: StaticString = #filePath, line: UInt = #line) {
  let s = queue.statistics
  XCTAssertTrue(s.isBalanced, s.summary, file: file, line: line)
  XCTAssertLessThanOrEqual(s.staleAfterPrepare, s.skippedAsStale, file: file, line: line)
}
