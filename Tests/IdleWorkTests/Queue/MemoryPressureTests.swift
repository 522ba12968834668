import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// Discardable tasks go when memory is short; the rest stay.
final class MemoryPressureTests: XCTestCase {
  func testDiscardDropsOnlyDiscardableTasks() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      var ran: [String] = []
      queue.addTask(key: 0) { ran.append("visible") }
      queue.addTask(key: 1, droppable: true) { ran.append("prefetch") }
      let cell = FakeCell()
      queue.addTask(for: cell, at: row(3), droppable: true) { _ in ran.append("prefetch cell") }
      XCTAssertEqual(queue.dropDiscardableTasks(), 2)
      XCTAssertEqual(queue.statistics.cancelled, 2)
      driver.drain()
      XCTAssertEqual(ran, ["visible"])
    }
  }

  func testANotificationTriggersTheDiscard() {
    MainActor.assumeIsolated {
      let (queue, _) = manualQueue()
      let name = Notification.Name("IdleWorkTests.MemoryWarning")
      let center = NotificationCenter()
      queue.core.dropDiscardableTasks(on: name, center: center)
      queue.addTask(key: 0, droppable: true) {}
      queue.addTask(key: 1) {}
      center.post(name: name, object: nil)
      XCTAssertEqual(queue.pendingTaskCount, 1)
      queue.invalidate()
      queue.addTask(key: 2, droppable: true) {}
      center.post(name: name, object: nil)  // no observer left: must not crash or count anything
      XCTAssertEqual(queue.statistics.cancelled, 2)
    }
  }
}
