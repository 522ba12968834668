import CoreFoundation
import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkPreparation
@testable import IdleWorkTesting

/// The process's one worker pool, on real workers: its bound, its order across queues, where what a render
/// captured is freed, and that one queue's renders are not held back by another queue's ended work.
final class WorkerPoolTests: XCTestCase {
  /// Records the thread it is freed on, and whether the pool's lock was free then.
  final class ReleaseProbe: Sendable {
    let log: TextLog
    init(_ log: TextLog) { self.log = log }
    deinit {
      // Whether another thread can take the pool's lock meanwhile: not if this thread holds it.
      let taken = DispatchSemaphore(value: 0)
      DispatchQueue.global().async {
        _ = WorkerPool.shared.threadCounts
        taken.signal()
      }
      let lockFree = taken.wait(timeout: .now() + 2) == .success
      log.append(Thread.isMainThread ? (lockFree ? "main" : "main, under the lock") : "off the main thread")
    }
  }

  /// A render running when its queue ends (invalidated, or released) is freed — and what its `prepare`
  /// captured with it — on the main thread, outside the pool's lock; so is a render dropped before it
  /// started, at once.
  func testWhatARenderCapturedIsFreedOnTheMainThreadOutsideTheLock() {
    MainActor.assumeIsolated {
      for release in [false, true] {
        let log = TextLog()
        let gate = DispatchSemaphore(value: 0)
        let started = Counter()
        var queue: IdleQueue? = IdleQueue()
        _ = Preparer(queue: queue!, configuration: .init(workers: 1))
        do {
          let probe = ReleaseProbe(log)
          queue!.addTask(key: "running") { _ in
            started.increment()
            gate.wait()
            return withExtendedLifetime(probe) { 1 }
          } apply: { _ in
          }
          let waiting = ReleaseProbe(log)
          queue!.addTask(key: "waiting") { _ in
            withExtendedLifetime(waiting) { 2 }
          } apply: { _ in
          }
        }
        spin(until: { started.value == 1 }, timeout: 5)
        XCTAssertEqual(queue!.cancelTasks(forKey: "waiting"), 1)
        XCTAssertEqual(log.entries, ["main"], "a render dropped before it started is freed at once, on the main thread")
        if release { queue = nil } else { queue!.invalidate() }
        gate.signal()
        spin(until: { log.entries.count == 2 }, timeout: 5)
        XCTAssertEqual(log.entries, ["main", "main"], "released: \(release)")
        withExtendedLifetime(queue) {}
      }
    }
  }

  /// Queues share one pool: together they never have more threads than the largest `workers` among them,
  /// and each runs at most its own `workers` renders at once.
  func testQueuesShareOnePoolBoundedByTheLargestWorkers() {
    MainActor.assumeIsolated {
      let running = Counter()
      let peak = LockedBox(0)
      let small = IdleQueue(configuration: .init(maximumQueueLength: 100))
      _ = Preparer(queue: small, configuration: .init(workers: 1))
      let large = IdleQueue(configuration: .init(maximumQueueLength: 100))
      _ = Preparer(queue: large, configuration: .init(workers: 2))
      var applied = 0
      let before = WorkerPool.shared.threadCounts.now
      for i in 0..<40 {
        for queue in [small, large] {
          queue.addTask(key: i) { _ in
            running.increment()
            peak.value = max(peak.value, running.value)
            Thread.sleep(forTimeInterval: 0.001)  // the work, not synchronisation: a render that takes time
            running.decrement()
            return i
          } apply: { _ in
            applied += 1
          }
        }
      }
      spin(until: { applied == 80 }, timeout: 20)
      XCTAssertEqual(applied, 80)
      XCTAssertLessThanOrEqual(peak.value, 2, "more renders ran at once than the pool's bound")
      XCTAssertLessThanOrEqual(WorkerPool.shared.threadCounts.now - before, 2)
      XCTAssertEqual(small.core.preparation!.line.peakRunningCount, 1, "a queue ran more renders than its workers")
      XCTAssertLessThanOrEqual(large.core.preparation!.line.peakRunningCount, 2)
      XCTAssertTrue(small.core.preparation!.line.pool === large.core.preparation!.line.pool)
      small.invalidate()
      large.invalidate()
    }
  }

  /// With the one worker busy, another queue's visible row is started before this queue's prefetches,
  /// though they were queued first.
  func testVisibleRowsOfAnyQueueGoBeforePrefetches() {
    MainActor.assumeIsolated {
      let log = TextLog()
      let gate = DispatchSemaphore(value: 0)
      let started = Counter()
      let prefetching = IdleQueue(configuration: .init(maximumQueueLength: 100))
      _ = Preparer(queue: prefetching, configuration: .init(workers: 1))
      let visible = IdleQueue(configuration: .init(maximumQueueLength: 100))
      _ = Preparer(queue: visible, configuration: .init(workers: 1))
      var applied = 0
      prefetching.addTask(key: "blocker") { _ in
        started.increment()
        gate.wait()
        return 0
      } apply: { _ in
        applied += 1
      }
      spin(until: { started.value == 1 }, timeout: 5)
      for i in 0..<3 {
        prefetching.addTask(key: i, droppable: true) { _ in
          log.append("prefetch \(i)")
          return i
        } apply: { _ in
          applied += 1
        }
      }
      let cell = PreparedTaskTests.Cell()
      visible.bind(cell, to: 7)
      visible.addTask(for: cell, at: 7) { _ in
        log.append("visible")
        return "row 7"
      } apply: { cell, value in
        cell.shown.append(value)
        applied += 1
      }
      gate.signal()
      spin(until: { applied == 5 }, timeout: 5)
      XCTAssertEqual(log.entries.first, "visible", "order: \(log.entries)")
      XCTAssertEqual(cell.shown, ["row 7"])
      prefetching.invalidate()
      visible.invalidate()
    }
  }

  /// A cell released while its render runs: the render's `isCancelled()` turns `true` (the main thread looks
  /// when the render polls), and the task leaves as stale — also while a scroll is tracked, when the queue
  /// (paused while scrolling) gets no pass that would find the cell gone.
  func testACellReleasedWhileItsRenderRunsCancelsIt() {
    MainActor.assumeIsolated {
      let queue = IdleQueue(configuration: .init())
      _ = Preparer(queue: queue, configuration: .init(workers: 1))
      let started = Counter()
      let sawCancel = Counter()
      var cell: PreparedTaskTests.Cell? = PreparedTaskTests.Cell()
      queue.bind(cell!, to: 0)
      queue.addTask(for: cell!, at: 0) { isCancelled in
        started.increment()
        let deadline = Date().addingTimeInterval(5)
        while !isCancelled(), Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }  // a draw's steps
        if isCancelled() { sawCancel.increment() }
        throw CancellationError()
      } apply: { _, _ in
        XCTFail("applied to a released cell")
      }
      spin(until: { started.value == 1 }, timeout: 5)
      let tracking = IdleQueue.Scrolling.trackingMode
      // As on iOS, where `UITrackingRunLoopMode` is one of the common modes, in which the main queue is served.
      CFRunLoopAddCommonMode(CFRunLoopGetMain(), cfMode(tracking))
      let keepMode = addTimer(every: 60, mode: tracking) {}
      defer { CFRunLoopTimerInvalidate(keepMode) }
      cell = nil
      spin(until: { sawCancel.value == 1 }, timeout: 5, mode: tracking)
      XCTAssertEqual(sawCancel.value, 1, "isCancelled() stayed false for a released cell")
      spin(until: { queue.pendingTaskCount == 0 }, timeout: 5)
      XCTAssertEqual(queue.counts.skippedAsStale, 1)
      assertPreparedBalanced(queue)
      queue.invalidate()
    }
  }

  /// The calling thread's priority: its niceness on Linux, its QoS class elsewhere.
  static func currentPriority() -> Int {
    #if os(Linux)
      return Int(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0))
    #else
      return Int(qos_class_self().rawValue)
    #endif
  }

  /// Workers run at the `userInitiated` QoS they ask for, as GCD's `userInitiated` work does, whichever thread
  /// started them. On Linux, Foundation's `Thread.qualityOfService` leaves a thread's priority as it was, and a
  /// thread started from the main thread (nice 0 here, against libdispatch's −2) got the main thread's.
  func testWorkersRunAtTheUserInitiatedQoS() {
    MainActor.assumeIsolated {
      // Read on one of GCD's threads (`sync` would run the block on this one).
      let read = LockedBox(Int.min)
      let done = DispatchSemaphore(value: 0)
      DispatchQueue.global(qos: .userInitiated).async {
        read.value = Self.currentPriority()
        done.signal()
      }
      done.wait()
      let expected = read.value
      let queue = IdleQueue(configuration: .init())
      _ = Preparer(queue: queue, configuration: .init(workers: 2))
      defer { queue.invalidate() }
      let priorities = LockedBox<[Int]>([])
      let draw = Preparation { (n: Int, _) -> Int in
        priorities.update { $0.append(Self.currentPriority()) }
        return n
      }
      var applied: [Int] = []
      for n in 0..<4 { queue.preparer.addTask(key: n, prepare: draw, from: n) { applied.append($0) } }
      spin(until: { applied.count == 4 }, timeout: 5)
      XCTAssertEqual(
        priorities.value, Array(repeating: expected, count: 4), "a worker's priority is not userInitiated's")
    }
  }

  /// A render driven straight on a pool: counts set as `addPreparedTask` sets them for a visible row.
  private func visibleRender(
    _ line: PreparationLine, _ work: @escaping @Sendable (_ isCancelled: @Sendable () -> Bool) throws -> any Sendable
  ) -> PreparationRun {
    let render = PreparationRun(
      line: line, content: nil, resultBytes: nil, prepare: .worker { context in try work(context.isCancelled) })
    render.life = PreparationLife(requests: .init(live: 1, wanted: 1, urgent: 1))
    return render
  }

  /// A queue's waiting render is not held back by another queue's ended work: when a queue ends while its render runs
  /// (one that ignores `isCancelled`, or just takes long), the pool's limit drops at once but that orphaned render
  /// goes on. A live queue's next visible render, below its own bound, still starts as soon as one of its renders
  /// ends: the worker that finished it goes on rather than ending to bring the pool under its limit.
  func testAQueuesRenderIsNotHeldBackByAnEndedQueuesRunningRender() {
    let pool = WorkerPool(byHand: false)
    let lineA = PreparationLine(pool: pool, limit: 1, wake: {}, checkCells: { _ in })
    let lineB = PreparationLine(pool: pool, limit: 2, wake: {}, checkCells: { _ in })
    let orphanGate = DispatchSemaphore(value: 0)
    let firstGate = DispatchSemaphore(value: 0)
    let orphanStarted = DispatchSemaphore(value: 0)
    let firstStarted = DispatchSemaphore(value: 0)
    let secondStarted = DispatchSemaphore(value: 0)
    // B's render: runs on past its queue's end (a decode that does not poll `isCancelled`).
    lineB.submit(
      visibleRender(lineB) { _ in
        orphanStarted.signal()
        orphanGate.wait()
        return 0
      })
    XCTAssertEqual(orphanStarted.wait(timeout: .now() + 10), .success)
    lineA.submit(
      visibleRender(lineA) { _ in
        firstStarted.signal()
        firstGate.wait()
        return 1
      })
    XCTAssertEqual(firstStarted.wait(timeout: .now() + 10), .success)
    // A's next visible row: held back by A's bound (1) while A's first render runs.
    lineA.submit(
      visibleRender(lineA) { _ in
        secondStarted.signal()
        return 2
      })
    // Queue B ends (its screen closed) while its render still runs.
    let closed = lineB.close()
    withExtendedLifetime(closed) {}
    // A's first render ends: A has nothing running, its second render waits, its bound allows one.
    firstGate.signal()
    let started = secondStarted.wait(timeout: .now() + 5)
    XCTAssertEqual(
      started, .success,
      "queue A's waiting render did not start with none of A's renders running: its worker ended (threads > "
        + "limit after B closed) while B's orphaned render keeps the pool's only allowed thread")
    orphanGate.signal()
    if started != .success { _ = secondStarted.wait(timeout: .now() + 10) }
    let closedA = lineA.close()
    withExtendedLifetime(closedA) {}
  }
}
