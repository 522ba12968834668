import Foundation
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// Task handles find their queue by number in ``QueueDirectory``: a freed queue's handle never reaches another
/// queue, and the directory stays consistent while queues are made and freed on other threads.
final class QueueDirectoryTests: XCTestCase {
  /// A handle whose queue was freed never reaches a queue made afterwards, even one whose task has the same
  /// sequence number, nor after the freed queue's number would have been reused.
  func testAHandleNeverReachesAQueueMadeAfterItsOwnWasFreed() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      var queue: IdleQueue? = IdleQueue(driver: driver)
      let old = queue!.addTask(key: 1) {}
      var drivers: [ManualPassDriver] = []
      let oldNumber = queue!.core.number
      queue = nil
      var later: [IdleQueue] = []
      var handles: [IdleTaskHandle] = []
      for _ in 0..<50 {
        drivers.append(ManualPassDriver())
        let next = IdleQueue(driver: drivers.last!)
        XCTAssertNotEqual(next.core.number, oldNumber)
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

  /// Queues made and freed on several threads at once while the main thread asks its handles: the directory
  /// stays consistent (run under ThreadSanitizer).
  func testQueuesMadeAndFreedOnOtherThreadsWhileHandlesAreAsked() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver)
      defer { queue.invalidate() }
      let handles = (0..<30).map { key in queue.addTask(key: key) {} }
      let group = DispatchGroup()
      let first = QueueDirectory.shared.newNumber()
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
      let numbers = (first + 1)..<QueueDirectory.shared.newNumber()
      XCTAssertEqual(numbers.count, 1_200, "one number per queue")
      // The main-queue blocks that end the queues made elsewhere hold their cores until they run.
      var turns = 0
      while numbers.contains(where: QueueDirectory.shared.contains), turns < 100 {
        RunLoop.main.run(until: Date())
        turns += 1
      }
      for number in numbers { XCTAssertFalse(QueueDirectory.shared.contains(number), "queue \(number) listed") }
      XCTAssertTrue(handles.allSatisfy(\.isPending))
      XCTAssertGreaterThan(asked, 0)
    }
  }
}
