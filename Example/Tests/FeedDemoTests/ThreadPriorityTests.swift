import Foundation
import XCTest

@testable import FeedDemoKit

/// FeedDemo ranks its threads as iOS does: the main thread and the vsync above every strategy's
/// `userInitiated` workers, the `busy` profile's load thread at the default, below them.
final class ThreadPriorityTests: XCTestCase {
  /// The calling thread's priority: its niceness on Linux, its QoS class elsewhere.
  private static func current() -> Int {
    #if os(Linux)
      return Int(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0))
    #else
      return Int(qos_class_self().rawValue)
    #endif
  }

  /// A thread raised to `userInteractive` outranks GCD's `userInitiated` threads; one set back to the default
  /// (as the load thread, started from a raised main thread, is) ranks below them — on Linux, niceness −4 and 0
  /// around libdispatch's −2.
  func testTheMainThreadOutranksTheWorkersAndTheLoadRanksBelowThem() {
    let readings = Readings()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      readings.raised = ThreadPriority.userInteractive.applyToCurrentThread()
      readings.interactive = Self.current()
      ThreadPriority.standard.applyToCurrentThread()
      readings.standard = Self.current()
      done.signal()
    }
    thread.start()
    done.wait()
    DispatchQueue.global(qos: .userInitiated).async {
      readings.worker = Self.current()
      done.signal()
    }
    done.wait()
    XCTAssertTrue(readings.raised, "this machine does not let FeedDemo raise a thread's priority")
    #if os(Linux)
      // A lower niceness is a higher priority.
      XCTAssertLessThan(readings.interactive, readings.worker, "the main thread must outrank the workers")
      XCTAssertGreaterThan(readings.standard, readings.worker, "the load thread must rank below the workers")
    #else
      XCTAssertEqual(readings.interactive, Int(QOS_CLASS_USER_INTERACTIVE.rawValue))
      XCTAssertEqual(readings.standard, Int(QOS_CLASS_DEFAULT.rawValue))
    #endif
  }
}

/// Readings handed from the test's threads. `@unchecked Sendable`: each field is written by one thread before it
/// signals the semaphore the test waits on, and read after that wait.
private final class Readings: @unchecked Sendable {
  var raised = false
  var interactive = 0
  var standard = 0
  var worker = 0
}
