import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// 8 threads add 100,000 tasks through `addTaskFromAnyThread` while the main thread drains
/// them on the real main run loop and, at times, cancels by key. Every task must be accounted for: run
/// exactly once, on the main thread, or cancelled and never run.
///
/// The queue's `maximumQueueLength` is raised to `Int.max` (never evicts): the threads add far
/// faster than one-task passes drain, so with the default 30 almost every task would be evicted and the
/// test would say little about running each task exactly once. With no eviction, every task has exactly one
/// of two fates, which the test checks per task. (Eviction under a flood is covered by `FaultTests`.)
///
/// `IDLEWORK_STRESS_TASKS_PER_THREAD` overrides the 12,500 tasks per thread (`IDLEWORK_FULL_TESTS=1`; else 3,000).
final class ConcurrencyStressTests: XCTestCase {
  func testEightThreadsAddWhileTheMainThreadDrainsAndCancelsByKey() {
    MainActor.assumeIsolated {
      let threadCount = 8
      let perThread =
        testScale("IDLEWORK_STRESS_TASKS_PER_THREAD", full: 12_500, quick: 3_000)
      let total = threadCount * perThread
      var configuration = IdleQueue.Configuration()
      configuration.maximumQueueLength = Int.max
      let queue = IdleQueue(configuration: configuration)
      defer { queue.invalidate() }
      let ledger = StressLedger(total: total)
      let finished = FinishedThreads()
      let started = Date()

      for thread in 0..<threadCount {
        Thread { [weak queue, weak ledger] in
          var refused = 0
          for index in 0..<perThread {
            let id = thread * perThread + index
            let accepted =
              queue?.addTaskFromAnyThread(key: id) {
                guard let ledger else { return }
                ledger.recordRun(id, onMainThread: Thread.isMainThread)
                // Now and then a task cancels another task by key, from inside a pass.
                if id % 97 == 0, let queue { ledger.cancelSomeTask(in: queue) }
              } ?? false
            if !accepted { refused += 1 }
          }
          finished.finish(refused: refused)
        }.start()
      }

      // Drain on the real run loop; between short spins the main thread cancels by key too.
      let deadline = Date().addingTimeInterval(120)
      while !(finished.count == threadCount && queue.pendingTaskCount == 0), Date() < deadline {
        _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.002))
        for _ in 0..<4 { ledger.cancelSomeTask(in: queue) }
      }
      let seconds = Date().timeIntervalSince(started)

      XCTAssertEqual(finished.count, threadCount, "all threads finished")
      XCTAssertEqual(finished.refused, 0, "an open queue refused a background addition")
      XCTAssertEqual(queue.pendingTaskCount, 0, "tasks left pending")
      XCTAssertEqual(ledger.offMainThreadRuns, 0, "tasks ran off the main thread")
      var neverAccounted = 0
      var ranTwice = 0
      var ranAndCancelled = 0
      for id in 0..<total {
        let runs = ledger.runs[id]
        if runs > 1 { ranTwice += 1 }
        if runs > 0, ledger.cancelled[id] { ranAndCancelled += 1 }
        if runs == 0, !ledger.cancelled[id] { neverAccounted += 1 }
      }
      XCTAssertEqual(neverAccounted, 0, "tasks neither run nor cancelled")
      XCTAssertEqual(ranTwice, 0, "tasks run more than once")
      XCTAssertEqual(ranAndCancelled, 0, "tasks run although cancelled")
      let statistics = queue.statistics
      XCTAssertEqual(statistics.added, total)
      XCTAssertEqual(statistics.executed, ledger.runCount)
      XCTAssertEqual(statistics.cancelled, ledger.cancelCount)
      XCTAssertEqual(statistics.executed + statistics.cancelled, total)
      XCTAssertEqual(statistics.evicted, 0)
      XCTAssertEqual(statistics.skippedAsStale, 0)
      XCTAssertEqual(statistics.pending, 0)
      XCTAssertTrue(statistics.isBalanced, "\(statistics)")
      XCTAssertGreaterThan(ledger.cancelCount, 0, "the test never managed to cancel a pending task")
      print(
        "concurrency stress: \(threadCount) threads x \(perThread) tasks = \(total); ran \(ledger.runCount), "
          + "cancelled \(ledger.cancelCount) (of \(ledger.cancelAttempts) attempts), \(statistics.passes) passes, "
          + String(format: "%.2f s", seconds))
    }
  }
}

/// What happened to each task of the stress test; touched only on the main thread.
@MainActor
private final class StressLedger {
  private(set) var runs: [UInt8]
  private(set) var cancelled: [Bool]
  private(set) var runCount = 0
  private(set) var cancelCount = 0
  private(set) var cancelAttempts = 0
  private(set) var offMainThreadRuns = 0
  private var random = SeededGenerator(seed: 0x57E5)

  init(total: Int) {
    runs = Array(repeating: 0, count: total)
    cancelled = Array(repeating: false, count: total)
  }

  func recordRun(_ id: Int, onMainThread: Bool) {
    if !onMainThread { offMainThreadRuns += 1 }
    runs[id] &+= 1
    runCount += 1
  }

  /// Cancels a random task by its key (its id); most are already run or not yet added, some are pending.
  func cancelSomeTask(in queue: IdleQueue) {
    let id = random.int(0...(runs.count - 1))
    cancelAttempts += 1
    let count = queue.cancelTasks(forKey: id)
    if count > 0 {
      cancelled[id] = true
      cancelCount += count
    }
  }
}

/// Counts background threads that have finished adding.
private final class FinishedThreads: @unchecked Sendable {
  private let lock = NSLock()
  private var finished = 0
  private var refusedTotal = 0

  func finish(refused: Int) {
    lock.lock()
    finished += 1
    refusedTotal += refused
    lock.unlock()
  }

  var count: Int {
    lock.lock()
    defer { lock.unlock() }
    return finished
  }

  var refused: Int {
    lock.lock()
    defer { lock.unlock() }
    return refusedTotal
  }
}
