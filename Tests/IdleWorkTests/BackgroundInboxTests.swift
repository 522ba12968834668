import Foundation
import IdleWork
import IdleWorkTesting
import XCTest

/// The hand-over from other threads is bounded by `maximumQueueLength`, and what it drops is accounted
/// for as evicted and released on the main thread.
final class BackgroundInboxTests: XCTestCase {
  func testDroppedHandOversAreEvictedAndReleasedOnTheMainThread() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(maximumQueueLength: 3)
      let releasedOnMain = LockedBox<[Bool]>([])
      let done = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        for i in 0..<10 {
          let witness = DeinitWitness { releasedOnMain.value.append(Thread.isMainThread) }
          queue.addTaskFromAnyThread(key: i) { withExtendedLifetime(witness) {} }
        }
        done.signal()
      }
      done.wait()
      XCTAssertEqual(queue.pendingTaskCount, 3, "only the newest maximumQueueLength wait for the hand-over")
      XCTAssertTrue(releasedOnMain.value.isEmpty, "dropped tasks are kept for release on the main thread")
      driver.drain()
      XCTAssertEqual(releasedOnMain.value.count, 10)
      XCTAssertTrue(releasedOnMain.value.allSatisfy { $0 }, "released on the adding thread: \(releasedOnMain.value)")
      XCTAssertEqual(queue.statistics.evicted, 7)
      XCTAssertEqual(queue.statistics.executed, 3)
      XCTAssertTrue(queue.statistics.isBalanced)
    }
  }
}

/// Calls `onDeinit` when freed.
private final class DeinitWitness: Sendable {
  let onDeinit: @Sendable () -> Void
  init(_ onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
  deinit { onDeinit() }
}
