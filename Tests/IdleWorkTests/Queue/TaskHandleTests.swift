import Foundation
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// Task handles hold their queue weakly: a freed queue's handle never reaches another queue, and handles stay
/// right while queues are made and freed on other threads.
final class TaskHandleTests: XCTestCase {
  /// A handle whose queue was freed never reaches a queue made afterwards, even one whose task has the same
  /// sequence number (and perhaps the freed queue's address).
  func testAHandleNeverReachesAQueueMadeAfterItsOwnWasFreed() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      var queue: IdleQueue? = IdleQueue(driver: driver)
      let old = queue!.addTask(key: 1) {}
      var drivers: [ManualPassDriver] = []
      queue = nil
      var later: [IdleQueue] = []
      var handles: [IdleTaskHandle] = []
      for _ in 0..<50 {
        drivers.append(ManualPassDriver())
        let next = IdleQueue(driver: drivers.last!)
        handles.append(next.addTask(key: 1) {})
        later.append(next)
      }
      XCTAssertEqual(handles.map(\.seq).filter { $0 == old.seq }.count, handles.count, "same sequence numbers")
      XCTAssertFalse(old.isPending)
      XCTAssertFalse(old.cancel(), "a freed queue's handle cancelled another queue's task")
      XCTAssertTrue(handles.allSatisfy(\.isPending))
      for queue in later { XCTAssertEqual(queue.statistics.cancelled, 0) }
      for queue in later { queue.invalidate() }
      XCTAssertFalse(handles.contains(where: \.isPending))
    }
  }

  /// Queues made and freed on several threads at once while the main thread asks its handles: each handle still
  /// reaches its own queue (run under ThreadSanitizer).
  func testQueuesMadeAndFreedOnOtherThreadsWhileHandlesAreAsked() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver)
      defer { queue.invalidate() }
      let handles = (0..<30).map { key in queue.addTask(key: key) {} }
      let group = DispatchGroup()
      for _ in 0..<4 {
        group.enter()
        Thread {
          for _ in 0..<300 {
            let made = IdleQueue()
            made.invalidate()
          }
          group.leave()
        }.start()
      }
      var asked = 0
      repeat {
        XCTAssertTrue(handles.allSatisfy(\.isPending), "a live queue's handle lost its queue")
        asked += 1
      } while group.wait(timeout: .now()) == .timedOut
      // The main-queue blocks that end the queues made elsewhere hold their cores until they run.
      for _ in 0..<100 { RunLoop.main.run(until: Date()) }
      XCTAssertTrue(handles.allSatisfy(\.isPending))
      XCTAssertGreaterThan(asked, 0)
    }
  }
}
