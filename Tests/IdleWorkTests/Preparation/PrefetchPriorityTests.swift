import Foundation
import XCTest

@testable import IdleWork

/// A synchronous prefetch runs on a worker lowered to the `utility` QoS, raised back when it ends or when a cell
/// joins it; a visible row's render is never lowered; a worker that cannot be raised back ends, and the pool lowers
/// no thread again. Renders driven straight on a pool of their own, with real threads.
final class PrefetchPriorityTests: XCTestCase {
  /// A render driven straight on a pool, with the counts `addPreparedTask` sets: a visible row's, or a prefetch's
  /// (discardable: wanted, not urgent).
  private static func render(
    _ line: PreparationLine, prefetch: Bool,
    _ work: @escaping @Sendable (_ isCancelled: @escaping @Sendable () -> Bool) -> Int
  ) -> PreparationRun {
    let render = PreparationRun(
      line: line, content: nil, resultBytes: nil, prepare: .worker { context in work(context.isCancelled) })
    (render.live, render.wanted, render.urgent, render.cells) = (1, 1, prefetch ? 0 : 1, 0)
    return render
  }

  /// A priority that logs what the pool asks of it, on the thread it asks on, and fails to raise when told to.
  private static func loggingPriority(_ log: TextLog, raiseFails: Bool = false) -> WorkerPriority {
    WorkerPriority(
      lower: {
        log.append("lower")
        return 7
      },
      raise: { level in
        log.append("raise \(level)")
        return !raiseFails
      })
  }

  /// Runs `works` on `line` one after another, each as a prefetch's render or a visible row's, waiting for each to
  /// arrive (the line's wake-up signals `done`).
  private static func runInTurn(
    on line: PreparationLine, _ done: DispatchSemaphore, _ works: [(prefetch: Bool, work: @Sendable () -> Void)]
  ) {
    for (prefetch, work) in works {
      line.submit(
        render(line, prefetch: prefetch) { _ in
          work()
          return 0
        })
      XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
      _ = line.takeArrivals()
    }
  }

  /// Whether a thread at `level` ranks below one at `other` (`WorkerPriority.currentLevel()`).
  private static func ranksBelow(_ level: Int32, _ other: Int32) -> Bool {
    #if canImport(Darwin)
      return level < other
    #else
      return level > other
    #endif
  }

  /// Whether this process may raise a thread's priority (on Linux: `CAP_SYS_NICE`, or room under `RLIMIT_NICE`),
  /// tried on the calling thread one step above where it is, then back.
  private static func mayRaiseAThread() -> Bool {
    #if canImport(Glibc)
      let which = __priority_which_t(PRIO_PROCESS.rawValue)
      let level = getpriority(which, 0)
      guard setpriority(which, 0, level - 1) == 0 else { return false }
      _ = setpriority(which, 0, level)
    #endif
    return true
  }

  /// With the platform's priorities: the prefetch ran at the `utility` level, below the visible row's render that the
  /// same pool ran after it (on Linux, niceness 2 against the workers' −2). Skipped where the process may not raise a
  /// thread back (Linux without `CAP_SYS_NICE`): the pool lowers no worker there.
  func testASynchronousPrefetchRunsBelowAVisibleRowsRender() throws {
    try XCTSkipUnless(Self.mayRaiseAThread(), "this process may not raise a thread's priority: nothing is lowered")
    let pool = WorkerPool(byHand: false)
    let done = DispatchSemaphore(value: 0)
    let line = PreparationLine(pool: pool, limit: 1, wake: { done.signal() }, checkCells: { _ in })
    let prefetchLevel = LockedBox<Int32>(0)
    let visibleLevel = LockedBox<Int32>(0)
    Self.runInTurn(
      on: line, done,
      [
        (prefetch: true, work: { prefetchLevel.value = WorkerPriority.currentLevel() }),
        (prefetch: false, work: { visibleLevel.value = WorkerPriority.currentLevel() }),
      ])
    XCTAssertEqual(prefetchLevel.value, WorkerPriority.prefetchLevel, "the prefetch did not run at utility")
    XCTAssertTrue(
      Self.ranksBelow(prefetchLevel.value, visibleLevel.value),
      "the prefetch (\(prefetchLevel.value)) did not rank below the visible row (\(visibleLevel.value))")
    let closed = line.close()
    withExtendedLifetime(closed) {}
  }

  /// The platform's priority, on a thread of its own: lowered to the `utility` level and raised back to where it was
  /// where the process may raise a thread; left where it was where it may not (Linux without `CAP_SYS_NICE`: a thread
  /// lowered there could never come back). CI runs the first case; `capsh --drop=cap_sys_nice` the second.
  func testThePlatformLowersOnlyAThreadItCanRaiseBack() {
    let mayRaise = LockedBox(false)
    let levels = LockedBox<[Int32?]>([])
    let finished = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      mayRaise.value = Self.mayRaiseAThread()
      let before = WorkerPriority.currentLevel()
      let saved = WorkerPriority.platform.lower()
      let lowered = WorkerPriority.currentLevel()
      let raised = saved.map { WorkerPriority.platform.raise($0) }
      levels.value = [before, saved, lowered, raised.map { $0 ? WorkerPriority.currentLevel() : -100 }]
      finished.signal()
    }
    XCTAssertEqual(finished.wait(timeout: .now() + 10), .success)
    let (before, saved, lowered, after) = (levels.value[0], levels.value[1], levels.value[2], levels.value[3])
    if mayRaise.value {
      XCTAssertEqual(saved, before)
      XCTAssertEqual(lowered, WorkerPriority.prefetchLevel)
      XCTAssertEqual(after, before, "not raised back to where it was")
    } else {
      XCTAssertNil(saved, "lowered a thread it cannot raise back")
      XCTAssertEqual(lowered, before)
    }
  }

  /// The pool lowers the worker before a prefetch's work and raises it back after; a visible row's render runs
  /// without either.
  func testThePoolLowersAroundAPrefetchOnlyAndRaisesBackAfterIt() {
    let log = TextLog()
    let pool = WorkerPool(byHand: false, priority: Self.loggingPriority(log))
    let done = DispatchSemaphore(value: 0)
    let line = PreparationLine(pool: pool, limit: 1, wake: { done.signal() }, checkCells: { _ in })
    Self.runInTurn(
      on: line, done,
      [(prefetch: true, work: { log.append("prefetch") }), (prefetch: false, work: { log.append("visible") })])
    XCTAssertEqual(log.entries, ["lower", "prefetch", "raise 7", "visible"])
    let closed = line.close()
    withExtendedLifetime(closed) {}
  }

  /// Runs a prefetch on a pool of its own with the logging priority: on its worker it polls `isCancelled()` and logs
  /// "polled before", then a visible row's task joins it, then `afterJoin` runs on the worker. Returns the log.
  private static func logAPrefetchJoinedByACell(
    afterJoin: @escaping @Sendable (_ isCancelled: @escaping @Sendable () -> Bool, _ log: TextLog) -> Void
  ) -> [String] {
    let log = TextLog()
    let pool = WorkerPool(byHand: false, priority: loggingPriority(log))
    let done = DispatchSemaphore(value: 0)
    let started = DispatchSemaphore(value: 0)
    let joined = DispatchSemaphore(value: 0)
    let line = PreparationLine(pool: pool, limit: 1, wake: { done.signal() }, checkCells: { _ in })
    let prefetch = render(line, prefetch: true) { isCancelled in
      _ = isCancelled()
      log.append("polled before")
      started.signal()
      joined.wait()
      afterJoin(isCancelled, log)
      return 0
    }
    line.submit(prefetch)
    XCTAssertEqual(started.wait(timeout: .now() + 10), .success)
    line.adjust(prefetch, live: 1, wanted: 1, urgent: 1)  // a visible row's task joins it
    joined.signal()
    XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
    _ = line.takeArrivals()
    let closed = line.close()
    withExtendedLifetime(closed) {}
    return log.entries
  }

  /// A cell joins a running prefetch: its next `isCancelled()` poll raises the worker back, once — the rest of the
  /// work runs as visible work — and the end of the render raises nothing more.
  func testACellJoiningARunningPrefetchRaisesItsWorkerAtTheNextPoll() {
    let log = Self.logAPrefetchJoinedByACell { isCancelled, log in
      _ = isCancelled()
      log.append("polled after")
      _ = isCancelled()
    }
    XCTAssertEqual(log, ["lower", "polled before", "raise 7", "polled after"])
  }

  /// An `isCancelled()` polled from another thread than the worker's raises nothing (it would change that thread):
  /// the worker is raised when the render ends.
  func testAPollFromAnotherThreadRaisesNothing() {
    let log = Self.logAPrefetchJoinedByACell { isCancelled, log in
      let polled = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        _ = isCancelled()
        log.append("polled elsewhere")
        polled.signal()
      }
      polled.wait()
    }
    XCTAssertEqual(log, ["lower", "polled before", "polled elsewhere", "raise 7"])
  }

  /// Raising back fails while a visible row's render waits for the pool's only worker: the lowered worker ends, and
  /// another thread starts and runs the waiting render.
  func testWorkWaitingWhenALoweredWorkerEndsStillRuns() {
    let log = TextLog()
    let pool = WorkerPool(byHand: false, priority: Self.loggingPriority(log, raiseFails: true))
    let line = PreparationLine(pool: pool, limit: 1, wake: {}, checkCells: { _ in })
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let visibleRan = DispatchSemaphore(value: 0)
    line.submit(
      Self.render(line, prefetch: true) { _ in
        started.signal()
        release.wait()
        return 0
      })
    XCTAssertEqual(started.wait(timeout: .now() + 10), .success)
    line.submit(
      Self.render(line, prefetch: false) { _ in
        visibleRan.signal()
        return 1
      })  // the pool's only thread is busy: it waits
    release.signal()
    XCTAssertEqual(
      visibleRan.wait(timeout: .now() + 10), .success, "the visible row's render was stranded when the worker ended")
    XCTAssertEqual(log.entries, ["lower", "raise 7"])
    let closed = line.close()
    withExtendedLifetime(closed) {}
  }

  /// Raising back fails (Linux without `CAP_SYS_NICE`): the lowered worker ends after its render, the pool lowers
  /// no worker again, and the work that comes next still runs, on a new thread.
  func testAWorkerThatCannotBeRaisedBackEndsAndThePoolLowersNoMore() {
    MainActor.assumeIsolated {
      let log = TextLog()
      let pool = WorkerPool(byHand: false, priority: Self.loggingPriority(log, raiseFails: true))
      let done = DispatchSemaphore(value: 0)
      let line = PreparationLine(pool: pool, limit: 1, wake: { done.signal() }, checkCells: { _ in })
      Self.runInTurn(on: line, done, [(prefetch: true, work: { log.append("prefetch") })])
      spin(until: { pool.threadCounts.now == 0 }, timeout: 5)  // the lowered worker ended
      Self.runInTurn(
        on: line, done,
        [(prefetch: false, work: { log.append("visible") }), (prefetch: true, work: { log.append("prefetch") })])
      XCTAssertEqual(log.entries, ["lower", "prefetch", "raise 7", "visible", "prefetch"])
      XCTAssertFalse(pool.lowersPrefetchesNow)
      let closed = line.close()
      withExtendedLifetime(closed) {}
    }
  }
}
