import Foundation
import TestHelpers
import XCTest

@testable import IdleWork

/// A queue's start and end from any thread, under threads: 4 threads each create 150 queues, add to them and to
/// `IdleQueue.main` from there, and end them — `invalidate()` then release, release alone, or hand the queue
/// to the main thread, which adds to it and invalidates it — while the main thread turns its run loop.
///
/// Every closure must be released on the main thread (none left alive), and every task that ran must have
/// run there, at most once. Run under ThreadSanitizer (`.ci/run` does) it checks the start and end hops for
/// races. It also pins at compile time that `IdleQueue(configuration:)`, `invalidate()` and `IdleQueue.main` are
/// usable from a background thread.
final class QueueLifetimeStressTests: XCTestCase {
  func testThreadsCreateUseAndEndQueuesWhileTheMainLoopRuns() {
    MainActor.assumeIsolated {
      let threadCount = 4
      let queuesPerThread = 150
      let ledger = LifetimeLedger()
      let finished = LockedBox(0)
      for _ in 0..<threadCount {
        Thread.detachNewThread {
          for round in 0..<queuesPerThread {
            let queue = IdleQueue(configuration: .init(budget: .tasks(2)))
            // Each witness is held by its closure only (`consume`: this thread keeps no reference), so that
            // where the closure goes, the witness goes.
            for key in 0..<4 {
              let task = ledger.task()
              queue.addTaskFromAnyThread(key: key, consume task)
            }
            let task = ledger.task()
            IdleQueue.main.addTaskFromAnyThread(key: "stress", consume task)
            switch round % 3 {
            case 0:
              queue.invalidate()
            case 1:
              break  // released at the end of this iteration, on this thread
            default:
              DispatchQueue.main.async {
                MainActor.assumeIsolated {
                  queue.addTask(key: "main", ledger.task())
                  queue.invalidate()
                }
              }
            }
          }
          finished.update { $0 += 1 }
        }
      }
      spin(until: { finished.value == threadCount && ledger.counts.alive == 0 }, timeout: 120)
      let counts = ledger.counts
      XCTAssertEqual(finished.value, threadCount)
      XCTAssertEqual(counts.created, threadCount * queuesPerThread * 5 + threadCount * queuesPerThread / 3)
      XCTAssertEqual(counts.alive, 0, "closures never released")
      XCTAssertEqual(counts.releasedOffMain, 0, "closures released off the main thread")
      XCTAssertEqual(counts.ranOffMain, 0, "tasks run off the main thread")
      XCTAssertEqual(counts.ranTwice, 0, "tasks run twice")
      XCTAssertGreaterThan(counts.ran, 0)
    }
  }
}

/// Counts the stress test's closures: made, alive, released off the main thread, run.
private final class LifetimeLedger: Sendable {
  struct Counts {
    var created = 0
    var alive = 0
    var releasedOffMain = 0
    var ran = 0
    var ranOffMain = 0
    var ranTwice = 0
  }

  private let box = LockedBox(Counts())

  var counts: Counts { box.value }

  /// A task whose closure holds the only reference to a new witness.
  func task() -> @Sendable @MainActor () -> Void {
    box.update {
      $0.created += 1
      $0.alive += 1
    }
    let witness = Witness(ledger: self)
    return { witness.run() }
  }

  func released(onMain: Bool) {
    box.update {
      $0.alive -= 1
      if !onMain { $0.releasedOffMain += 1 }
    }
  }

  func ran(onMain: Bool, before: Bool) {
    box.update {
      $0.ran += 1
      if !onMain { $0.ranOffMain += 1 }
      if before { $0.ranTwice += 1 }
    }
  }

  /// What a task captures: records its run and its release.
  final class Witness: Sendable {
    private let ledger: LifetimeLedger
    private let hasRun = LockedBox(false)

    init(ledger: LifetimeLedger) { self.ledger = ledger }

    func run() {
      var before = false
      hasRun.update {
        before = $0
        $0 = true
      }
      ledger.ran(onMain: Thread.isMainThread, before: before)
    }

    deinit { ledger.released(onMain: Thread.isMainThread) }
  }
}
