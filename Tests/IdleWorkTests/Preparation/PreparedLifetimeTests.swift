import Foundation
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// What a queue's renders hold, and their end: a render that never arrives frees what its tasks capture; a queue
/// that ends while its renders run on real workers drops the results arriving later, releases them on the main
/// thread, and every worker ends.
final class PreparedLifetimeTests: XCTestCase {
  typealias Cell = PreparedTaskTests.Cell

  /// Detects when an object that a `prepare` (any thread) captures is freed.
  final class SendableProbe: Sendable {}

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
    var queue: IdleQueue? = IdleQueue(configuration: .init(maximumQueueLength: 100, workers: workers))
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
      XCTAssertEqual(queue.statistics.cancelled, 10)
      assertPreparedBalanced(queue)
    }
  }

  func testInvalidateWhileRendersRun() {
    MainActor.assumeIsolated { Self.endWhileRendersRun(release: false) }
  }

  func testQueueReleasedWhileRendersRun() {
    MainActor.assumeIsolated { Self.endWhileRendersRun(release: true) }
  }

  /// A render dropped before it started (its task cancelled, its cell configured again) or running when the
  /// queue ends frees its `prepare` and `apply` and what they capture (a render and its requests must not hold each
  /// other).
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
}
