import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// The hand-over from other threads is bounded by `maximumQueueLength`, and what it drops is accounted
/// for as evicted and released promptly on the main thread, even while no pass runs.
final class BackgroundInboxTests: XCTestCase {
  func testDroppedHandOversAreEvictedAndReleasedOnTheMainThread() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(maximumQueueLength: 3)
      let releasedOnMain = LockedBox<[Bool]>([])
      let done = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        for i in 0..<10 {
          let witness = DeinitWitness { releasedOnMain.update { $0.append(Thread.isMainThread) } }
          queue.addTaskFromAnyThread(key: i) { withExtendedLifetime(witness) {} }
        }
        done.signal()
      }
      done.wait()
      XCTAssertEqual(queue.pendingTaskCount, 3, "only the newest maximumQueueLength wait for the hand-over")
      // No pass runs (as during a long drag); the main queue still comes round, and releases the drops.
      let deadline = Date().addingTimeInterval(5)
      while releasedOnMain.value.count < 7, Date() < deadline { RunLoop.main.run(until: Date() + 0.01) }
      XCTAssertEqual(releasedOnMain.value.count, 7, "dropped tasks are released without waiting for a pass")
      XCTAssertEqual(queue.core.inbox.awaitingReleaseCount, 0)
      XCTAssertEqual(driver.passesRun, 0)
      driver.drain()
      XCTAssertEqual(releasedOnMain.value.count, 10)
      XCTAssertTrue(releasedOnMain.value.allSatisfy { $0 }, "released on the adding thread: \(releasedOnMain.value)")
      XCTAssertEqual(queue.statistics.evicted, 7)
      XCTAssertEqual(queue.statistics.executed, 3)
      XCTAssertTrue(queue.statistics.isBalanced)
    }
  }
}

extension BackgroundInboxTests {
  func testAFloodWhileNoPassRunsKeepsMemoryBounded() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(maximumQueueLength: 30)
      let alive = LockedBox(0)
      let done = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        for i in 0..<20_000 {
          let witness = CountingWitness(alive)
          queue.addTaskFromAnyThread(key: i) { withExtendedLifetime(witness) {} }
        }
        done.signal()
      }
      // The main thread keeps serving its queue, as during a drag; no idle pass runs.
      while done.wait(timeout: .now()) == .timedOut { RunLoop.main.run(until: Date() + 0.001) }
      let deadline = Date().addingTimeInterval(5)
      while alive.value > 30, Date() < deadline { RunLoop.main.run(until: Date() + 0.01) }
      XCTAssertEqual(alive.value, 30, "only the hand-over's 30 closures stay alive")
      XCTAssertEqual(driver.passesRun, 0)
      driver.drain()
      XCTAssertEqual(queue.statistics.evicted, 19_970)
      XCTAssertEqual(alive.value, 0)
    }
  }
}

/// Counts live instances in a shared box.
private final class CountingWitness: Sendable {
  let count: LockedBox<Int>
  init(_ count: LockedBox<Int>) {
    self.count = count
    count.update { $0 += 1 }
  }
  deinit { count.update { $0 -= 1 } }
}

/// Calls `onDeinit` when freed.
private final class DeinitWitness: Sendable {
  let onDeinit: @Sendable () -> Void
  init(_ onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
  deinit { onDeinit() }
}
