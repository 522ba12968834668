import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkPreparation

/// The end of a queue whose renders run on real workers: results arriving later are dropped and released
/// on the main thread, and every worker ends.
final class PreparedLifetimeTests: XCTestCase {
  /// A result that records the thread it is freed on.
  final class Result: Sendable {
    let freedOffMain: Counter
    let freed: Counter
    init(freedOffMain: Counter, freed: Counter) {
      self.freedOffMain = freedOffMain
      self.freed = freed
    }
    deinit {
      if !Thread.isMainThread { freedOffMain.increment() }
      freed.increment()
    }
  }

  /// Renders held running on `workers` workers; the queue ends (invalidated, or released) while they run;
  /// then they return. Nothing is applied, the results are freed on the main thread, the workers end.
  @MainActor
  private static func endWhileRendersRun(release: Bool) {
    let workers = 3
    var queue: IdleQueue? = IdleQueue(configuration: .init(maximumQueueLength: 100))
    _ = Preparer(queue: queue!, configuration: .init(workers: workers))
    let gate = DispatchSemaphore(value: 0)
    let started = Counter()
    let freedOffMain = Counter()
    let freed = Counter()
    var applied = 0
    for i in 0..<10 {
      queue!.addTask(key: i) { _ in
        started.increment()
        gate.wait()
        return Result(freedOffMain: freedOffMain, freed: freed)
      } apply: { _ in
        applied += 1
      }
    }
    let line = queue!.core.preparation!.line
    let pool = line.pool
    spin(until: { started.value == workers }, timeout: 5)
    if release { queue = nil } else { queue!.invalidate() }
    XCTAssertEqual(line.waitingCount, 0, "renders not started are dropped")
    for _ in 0..<workers { gate.signal() }
    spin(until: { freed.value == workers && pool.threadCounts.now == 0 }, timeout: 5)
    XCTAssertEqual(started.value, workers, "no render started after the end")
    XCTAssertEqual(applied, 0)
    XCTAssertEqual(freedOffMain.value, 0, "a result was freed off the main thread")
    XCTAssertEqual(line.peakRunningCount, workers)
    if let queue {
      XCTAssertEqual(queue.counts.cancelled, 10)
      assertPreparedBalanced(queue)
    }
  }

  func testInvalidateWhileRendersRun() {
    MainActor.assumeIsolated { Self.endWhileRendersRun(release: false) }
  }

  func testQueueReleasedWhileRendersRun() {
    MainActor.assumeIsolated { Self.endWhileRendersRun(release: true) }
  }

  /// A preparer made for a queue that had ended holds no line in the process's pool: its workers do not size the pool
  /// for the rest of the process.
  func testAPreparerOfAnEndedQueueLeavesThePool() {
    MainActor.assumeIsolated {
      let queue = IdleQueue()
      queue.invalidate()
      let preparer = Preparer(queue: queue, configuration: .init(workers: 1))
      XCTAssertTrue(preparer.half.line.isClosed, "its line was opened in the shared pool and never closed")
      XCTAssertNil(WorkerPool.shared.lines[ObjectIdentifier(preparer.half.line)])
    }
  }
}
