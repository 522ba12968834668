import Foundation
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// `IdleWorkTesting`'s own tests: stepping an app's queue by hand, as an app's unit tests would.
final class ManualPassDriverTests: XCTestCase {
  func testRunPassRunsExactlyOnePass() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver)
      var ran = 0
      queue.addTask(key: 0) { ran += 1 }
      queue.addTask(key: 1) { ran += 1 }
      XCTAssertTrue(driver.isPassRequested)
      XCTAssertTrue(driver.runPass())
      XCTAssertEqual(ran, 1)
      XCTAssertEqual(driver.passesRun, 1)
    }
  }

  func testDrainRunsPassesUntilNoneIsRequested() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver)
      var ran = 0
      for i in 0..<5 { queue.addTask(key: i) { ran += 1 } }
      XCTAssertEqual(driver.drain(), 5)
      XCTAssertEqual(ran, 5)
      XCTAssertEqual(driver.drain(), 0, "nothing pending: no pass")
    }
  }

  func testDrainStopsAtTheLimitForAQueueThatNeverEmpties() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver)
      queue.addResumableTask(key: "forever") { _ in false }
      XCTAssertEqual(driver.drain(maximumPasses: 50), 50)
      XCTAssertTrue(driver.isPassRequested)
    }
  }

  func testTheClockMovesOnlyWhenTold() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      XCTAssertEqual(driver.now, 0)
      driver.advance(by: 0.0025)
      XCTAssertEqual(driver.now, 0.0025, accuracy: 1e-12)
      XCTAssertEqual(driver.nanoseconds, 2_500_000, "the scheduler reads nanoseconds")
    }
  }

  func testBackgroundAdditionsRequestAPassAndArriveAtTheNextPass() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver)
      let ranOnMain = LockedBox(false)
      let done = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        queue.addTaskFromAnyThread(key: 1) { ranOnMain.value = Thread.isMainThread }
        done.signal()
      }
      done.wait()
      XCTAssertTrue(driver.isPassRequested)
      XCTAssertEqual(queue.pendingTaskCount, 1)
      driver.drain()
      XCTAssertTrue(ranOnMain.value)
      XCTAssertEqual(queue.statistics.executed, 1)
    }
  }

  func testReleasingTheQueueReleasesItsTasksAndLaterPassesRunNothing() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      weak var probe: Probe?
      var ran = false
      var queue: IdleQueue? = IdleQueue(driver: driver)
      do {
        let p = Probe()
        probe = p
        queue!.addTask(key: 0) { withExtendedLifetime(p) { ran = true } }
      }
      queue = nil
      XCTAssertNil(probe, "pending tasks are released with their queue")
      driver.drain()
      XCTAssertFalse(ran)
    }
  }

  func testInvalidatingTheQueueStopsTheDriver() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver)
      queue.addTask(key: 0) {}
      queue.invalidate()
      XCTAssertTrue(driver.isStopped)
      XCTAssertFalse(driver.runPass(), "a stopped driver runs no pass")
    }
  }

  /// A memory warning sent through the driver drops the queue's pending droppable tasks, counted cancelled, and
  /// leaves the others; a queue on another driver hears nothing.
  func testSendMemoryWarningDropsDroppableTasks() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver)
      let otherDriver = ManualPassDriver()
      let other = IdleQueue(driver: otherDriver)
      var ran: [String] = []
      queue.addTask(key: "kept") { ran.append("kept") }
      queue.addTask(key: "dropped", droppable: true) { ran.append("dropped") }
      other.addTask(key: "other", droppable: true) { ran.append("other") }
      driver.sendMemoryWarning()
      XCTAssertEqual(queue.statistics.cancelled, 1)
      XCTAssertEqual(queue.pendingTaskCount, 1)
      XCTAssertEqual(other.pendingTaskCount, 1, "another driver's queue dropped its task")
      driver.drain()
      otherDriver.drain()
      XCTAssertEqual(ran, ["kept", "other"])
      queue.invalidate()
      other.invalidate()
    }
  }
}

/// Detects when an object is freed.
private final class Probe {}

/// A value shared with another thread under a lock.
private final class LockedBox<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value
  init(_ value: Value) { stored = value }
  var value: Value {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
}
