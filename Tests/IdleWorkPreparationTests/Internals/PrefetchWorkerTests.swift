import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkPreparation

/// Prefetches and `async` preparations on real workers: the worker bound holds for awaiting work, cancellation
/// reaches it as task cancellation, it never runs on the main actor, and prefetches leave a worker free.
final class PrefetchWorkerTests: XCTestCase {
  /// Holds `async` work until the test opens it.
  actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    func wait() async {
      if isOpen { return }
      await withCheckedContinuation { waiters.append($0) }
    }
    func open() {
      isOpen = true
      for waiter in waiters { waiter.resume() }
      waiters = []
    }
  }

  /// A preparation of named contents that logs each start and waits, once started, until the test opens the
  /// content's gate.
  static func gatedPreparation(
    _ names: [String]
  ) -> (gates: [String: Gate], started: TextLog, preparation: Preparation<String, String>) {
    let gates = Dictionary(uniqueKeysWithValues: names.map { ($0, Gate()) })
    let started = TextLog()
    let preparation = Preparation { (name: String, _) async -> String in
      started.append(name)
      await gates[name]!.wait()
      return name
    }
    return (gates, started, preparation)
  }

  /// `cellForRowAt` for `row` (content "row N", prepared at once when a worker takes it): the cell it fills.
  @MainActor
  static func showRow(_ row: Int, on queue: IdleQueue) -> PrefetchTests.Cell {
    let visible = Preparation { (name: String, _) -> String in name }
    let cell = PrefetchTests.Cell()
    queue.bind(cell, to: row)
    queue.preparer.addTask(for: cell, at: row, prepare: visible, from: "row \(row)") { cell, image in
      cell.shown.append(image)
    }
    return cell
  }

  /// On a queue with two workers and nothing else running: three gated prefetches, of which two start (at rest,
  /// prefetches use every worker); then, during a tracked scroll whose frames are tight, a visible row comes with
  /// both workers busy, the first prefetch finishes, and the row is shown before the third prefetch starts.
  /// Returns the gates (p1 and p2 still closed), the log of starts and the queue's line.
  @MainActor
  static func showARowWhilePrefetchesHoldTheWorkers(
    on queue: IdleQueue, file: StaticString = #filePath, line: UInt = #line
  ) -> (gates: [String: Gate], started: TextLog, line: PreparationLine) {
    let (gates, started, prefetched) = gatedPreparation(["p0", "p1", "p2"])
    queue.preparer.prefetch(prefetched, from: ["p0", "p1", "p2"])
    spin(until: { started.entries.count == 2 }, timeout: 5)
    XCTAssertEqual(
      started.entries.sorted(), ["p0", "p1"], "at rest, prefetches use every worker", file: file, line: line)
    let renderLine = queue.core.preparation!.line
    renderLine.pool.noteTracking(framesAreTight: true)
    let cell = showRow(0, on: queue)
    renderLine.pool.noteTracking(framesAreTight: true)
    Task { await gates["p0"]!.open() }
    spin(until: { cell.shown == ["row 0"] }, timeout: 5)
    XCTAssertEqual(cell.shown, ["row 0"], "the visible row went before the waiting prefetch", file: file, line: line)
    return (gates, started, renderLine)
  }

  /// Whether the caller runs on the main thread (a synchronous function, callable from `async` code).
  static func onMainThread() -> Bool { Thread.isMainThread }

  /// At most `workers` preparations are in flight, awaiting or running; none runs on the main thread; each
  /// result is applied as a synchronous one's.
  func testAsyncPreparationsStayWithinTheWorkers() {
    MainActor.assumeIsolated {
      let queue = IdleQueue(configuration: .init(maximumQueueLength: 100))
      _ = Preparer(queue: queue, configuration: .init(workers: 2, resultCacheLimit: 1 << 20))
      defer { queue.invalidate() }
      let gate = Gate()
      let inFlight = Counter()
      let peak = LockedBox(0)
      let onMain = Counter()
      let download = Preparation { (n: Int, _) -> Int in
        if Self.onMainThread() { onMain.increment() }
        inFlight.increment()
        peak.value = max(peak.value, inFlight.value)
        await gate.wait()
        inFlight.decrement()
        return n * 10
      }
      var applied: [Int] = []
      for n in 0..<6 { queue.preparer.addTask(key: n, prepare: download, from: n) { applied.append($0) } }
      spin(until: { inFlight.value == 2 }, timeout: 5)
      XCTAssertEqual(inFlight.value, 2)
      Task { await gate.open() }
      spin(until: { applied.count == 6 }, timeout: 10)
      XCTAssertEqual(applied.sorted(), [0, 10, 20, 30, 40, 50])
      XCTAssertEqual(peak.value, 2, "more preparations in flight than workers")
      XCTAssertEqual(onMain.value, 0, "a preparation ran on the main thread")
      XCTAssertTrue(queue.counts.isBalanced, queue.counts.summary)
    }
  }

  /// Prefetches held back while results wait for the main thread start again once a pass takes them in, on real
  /// workers: of 200 prefetches every one is prepared (none stranded), and visible rows' tasks added meanwhile
  /// are applied. (Run under ThreadSanitizer by CI: the bound is read by workers and cleared by the main thread.)
  func testPrefetchesHeldForTakeInAllRunOnRealWorkers() {
    MainActor.assumeIsolated {
      let queue = IdleQueue(configuration: .init(maximumQueueLength: 300))
      _ = Preparer(queue: queue, configuration: .init(workers: 2, resultCacheLimit: 1 << 24))
      defer { queue.invalidate() }
      let prepared = Counter()
      let photo = Preparation { (n: Int, _) -> Int in
        prepared.increment()
        return n
      }
      queue.preparer.prefetch(photo, from: Array(0..<200))
      var applied: [Int] = []
      for n in 200..<210 { queue.preparer.addTask(key: n, prepare: photo, from: n) { applied.append($0) } }
      spin(until: { prepared.value == 210 && applied.count == 10 }, timeout: 20)
      XCTAssertEqual(prepared.value, 210, "prefetches held for take-in were stranded")
      XCTAssertEqual(applied.sorted(), Array(200..<210))
      XCTAssertTrue(queue.counts.isBalanced, queue.counts.summary)
    }
  }

  /// A task cancelled while its `async` preparation awaits cancels that work as a task: it stops at once
  /// (here: a 10 s `Task.sleep` ends with `CancellationError`).
  func testCancellationReachesAsyncWorkAsTaskCancellation() {
    MainActor.assumeIsolated {
      let queue = IdleQueue(configuration: .init())
      _ = Preparer(queue: queue, configuration: .init(workers: 1))
      defer { queue.invalidate() }
      let started = Counter()
      let stopped = TextLog()
      let slow = Preparation { (n: Int, _) -> Int in
        started.increment()
        do {
          try await Task.sleep(nanoseconds: 10_000_000_000)  // the awaited work: a slow download
        } catch {
          stopped.append("\(type(of: error))")
          throw error
        }
        return n
      }
      queue.preparer.addTask(key: "row", prepare: slow, from: 1) { _ in XCTFail("applied after its cancel") }
      spin(until: { started.value == 1 }, timeout: 5)
      XCTAssertEqual(queue.cancelTasks(forKey: "row"), 1)
      spin(until: { !stopped.entries.isEmpty }, timeout: 5)
      XCTAssertEqual(stopped.entries, ["CancellationError"], "the awaiting work was not cancelled")
    }
  }

  /// A prefetch running when it is cancelled is told: `isCancelled()` turns true and its task is cancelled.
  func testARunningPrefetchIsCancelledWithIt() {
    MainActor.assumeIsolated {
      let queue = IdleQueue(configuration: .init())
      _ = Preparer(queue: queue, configuration: .init(workers: 2, resultCacheLimit: 1 << 20))
      defer { queue.invalidate() }
      let started = Counter()
      let seen = TextLog()
      let photo = Preparation { (name: String, isCancelled) -> String in
        started.increment()
        do {
          try await Task.sleep(nanoseconds: 10_000_000_000)
        } catch {
          seen.append(isCancelled() ? "cancelled, told" : "cancelled, not told")
          throw error
        }
        return name
      }
      queue.preparer.prefetch(photo, from: ["a"])
      spin(until: { started.value == 1 }, timeout: 5)
      queue.preparer.cancelPrefetching(photo, from: ["a"])
      spin(until: { !seen.entries.isEmpty }, timeout: 5)
      XCTAssertEqual(seen.entries, ["cancelled, told"])
      spin(until: { queue.counts.pending == 0 }, timeout: 5)
      XCTAssertEqual(queue.counts.cancelled, 1)
      XCTAssertTrue(queue.counts.isBalanced, queue.counts.summary)
    }
  }

  /// Prefetches use every worker while nothing visible needs one; once a visible row's preparation found no
  /// worker free during a scroll, they leave one free: with two workers, the next prefetch waits while another
  /// runs.
  func testPrefetchesLeaveAWorkerForVisibleRowsDuringAScroll() {
    MainActor.assumeIsolated {
      let queue = IdleQueue(configuration: .init())
      _ = Preparer(queue: queue, configuration: .init(workers: 2, resultCacheLimit: 1 << 20))
      defer { queue.invalidate() }
      let (gates, started, line) = PrefetchWorkerTests.showARowWhilePrefetchesHoldTheWorkers(on: queue)
      // The worker that ran the row went on at once, with p1 still running: p2 must not have started.
      XCTAssertEqual(line.waitingCount, 1, "prefetches took every worker during a scroll: \(started.entries)")
      Task {
        await gates["p1"]!.open()
        await gates["p2"]!.open()
      }
      spin(until: { queue.counts.pending == 0 }, timeout: 5)
      XCTAssertEqual(started.entries.sorted(), ["p0", "p1", "p2"])
    }
  }

  /// "They leave one free, so that the next visible row starts at once", within each queue's own bound: the pool's
  /// limit is the largest `workers` of the queues using it, and a queue whose `workers` is below it still finds one
  /// of its workers free for its next visible row during a scroll.
  func testPrefetchesLeaveAWorkerFreeForAQueueWhoseBoundIsBelowThePools() {
    MainActor.assumeIsolated {
      // Another screen's queue with more workers: the pool may have 3 threads.
      let other = IdleQueue(configuration: .init())
      _ = Preparer(queue: other, configuration: .init(workers: 3, resultCacheLimit: 1 << 20))
      defer { other.invalidate() }
      _ = other.core.preparationMade()
      let queue = IdleQueue(configuration: .init())
      _ = Preparer(queue: queue, configuration: .init(workers: 2, resultCacheLimit: 1 << 20))
      defer { queue.invalidate() }
      let (gates, started, line) = PrefetchWorkerTests.showARowWhilePrefetchesHoldTheWorkers(on: queue)
      defer { Task { for gate in gates.values { await gate.open() } } }
      // The next visible row, still during the scroll: it must find one of the queue's workers free.
      line.pool.noteTracking(framesAreTight: true)
      let next = PrefetchWorkerTests.showRow(1, on: queue)
      spin(until: { next.shown == ["row 1"] }, timeout: 3)
      XCTAssertEqual(
        next.shown, ["row 1"],
        "prefetches took every worker of the queue during a scroll (started: \(started.entries.sorted()))")
    }
  }

  /// "Prefetches use every worker while nothing visible needs one": once the scroll that paced them is over (no
  /// tracking pass for 0.1 s), a prefetch held back by the pacing starts on the free worker when the pacing ends,
  /// without waiting for a running one to finish (a download: any time).
  func testPrefetchesUseEveryWorkerAgainOnceTheScrollIsOver() {
    MainActor.assumeIsolated {
      let queue = IdleQueue(configuration: .init())
      _ = Preparer(queue: queue, configuration: .init(workers: 2, resultCacheLimit: 1 << 20))
      defer { queue.invalidate() }
      let (gates, started, _) = PrefetchWorkerTests.showARowWhilePrefetchesHoldTheWorkers(on: queue)
      defer { Task { for gate in gates.values { await gate.open() } } }
      // The scroll ends: no more tracking passes. p1 (a slow download) still runs; p2 should start on the free
      // worker once the pacing lapses.
      spin(until: { started.entries.count == 3 }, timeout: 3)
      XCTAssertEqual(
        started.entries.sorted(), ["p0", "p1", "p2"], "a prefetch stayed held back after the scroll ended")
    }
  }

  /// A synchronous preparation runs on the worker itself, not as a task on another thread.
  func testASynchronousPreparationRunsOnTheWorker() {
    MainActor.assumeIsolated {
      let queue = IdleQueue(configuration: .init())
      _ = Preparer(queue: queue, configuration: .init(workers: 1))
      defer { queue.invalidate() }
      let threads = TextLog()
      let draw = Preparation { (n: Int, _) -> Int in
        let inATask = withUnsafeCurrentTask { $0 != nil }
        threads.append(Thread.isMainThread ? "main thread" : inATask ? "a task" : "a worker")
        return n
      }
      var applied: [Int] = []
      queue.preparer.addTask(key: 1, prepare: draw, from: 1) { applied.append($0) }
      spin(until: { applied == [1] }, timeout: 5)
      XCTAssertEqual(threads.entries, ["a worker"])
    }
  }

  /// A task joining a preparation under way with a larger `resultBytes` is counted by the worker that makes the
  /// result (the sizes are read under the pool's lock while the main thread adds them): the results waiting count
  /// what the cache will. Under TSan in CI, with the joins racing the workers.
  func testWorkersMeasureWithTheSizesOfTasksJoinedMeanwhile() {
    MainActor.assumeIsolated {
      let queue = IdleQueue(configuration: .init())
      _ = Preparer(queue: queue, configuration: .init(workers: 2, resultCacheLimit: 1 << 20))
      defer { queue.invalidate() }
      let started = LockedBox(0)
      let release = DispatchSemaphore(value: 0)
      let largeOnWorkers = LockedBox(0)
      let contents = (0..<4).map { "c\($0)" }
      var applied = 0
      for content in contents {
        queue.addTask(
          key: "small \(content)", content: content, resultBytes: { (_: String) in 1 << 10 },
          prepare: { _ in
            started.update { $0 += 1 }
            release.wait()
            return content
          }, apply: { _ in applied += 1 })
      }
      spin(until: { started.value == 2 }, timeout: 5)  // two running, two waiting
      for content in contents {
        queue.addTask(
          key: "large \(content)", content: content,
          resultBytes: { (_: String) in
            if !Thread.isMainThread { largeOnWorkers.update { $0 += 1 } }
            return 100 << 10
          }, prepare: { _ in content }, apply: { _ in applied += 1 })
      }
      for _ in contents { release.signal() }
      spin(until: { applied == 8 }, timeout: 10)
      XCTAssertEqual(largeOnWorkers.value, 4, "each worker measured with the size of the task joined")
      XCTAssertEqual(queue.core.preparation?.cache.bytes, 4 * (100 << 10), "the cache counts the larger size")
      XCTAssertTrue(queue.counts.isBalanced, queue.counts.summary)
    }
  }
}
