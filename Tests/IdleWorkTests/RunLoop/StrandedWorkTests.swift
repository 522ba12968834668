import CoreFoundation
import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// Work must never be stranded: whatever is queued runs without anything else waking the loop. Each test
/// runs the real main loop with one `CFRunLoopRunInMode` call and no timer or source, so a missing wake-up
/// shows as work still pending when the call times out.
final class StrandedWorkTests: XCTestCase {
  /// A task adds a follow-up, then spins a nested run loop, which spends the wake-up the addition asked
  /// for. The outer pass must ask again.
  func testAFollowUpAddedBeforeANestedRunLoopStillRuns() {
    MainActor.assumeIsolated {
      let queue = IdleQueue()
      defer { queue.invalidate() }
      queue.addTask(key: 0) {
        queue.addTask(key: 1) { CFRunLoopStop(CFRunLoopGetMain()) }
        _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.02))
      }
      let start = Date()
      CFRunLoopRunInMode(cfDefaultMode, 5, false)
      XCTAssertEqual(queue.statistics.executed, 2, "\(queue.statistics)")
      XCTAssertLessThan(Date().timeIntervalSince(start), 1)
    }
  }

  /// Another thread adds while a task spins a nested run loop (which spends the thread's wake-up); the
  /// pass must notice the hand-over waiting and ask for another pass.
  func testABackgroundAdditionDuringANestedRunLoopStillRuns() {
    MainActor.assumeIsolated {
      let queue = IdleQueue()
      defer { queue.invalidate() }
      queue.addTask(key: 0) {
        let added = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
          queue.addTaskFromAnyThread(key: 1) { CFRunLoopStop(CFRunLoopGetMain()) }
          added.signal()
        }
        added.wait()
        _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.02))
      }
      let start = Date()
      CFRunLoopRunInMode(cfDefaultMode, 5, false)
      XCTAssertEqual(queue.statistics.executed, 2, "\(queue.statistics)")
      XCTAssertLessThan(Date().timeIntervalSince(start), 1)
    }
  }

  /// After the last task ran, the loop turns once more, so that the next BeforeWaiting (where Core
  /// Animation commits what the task changed) comes at once, not at the next touch or timer.
  func testTheLoopTurnsOnceMoreAfterTheLastTaskThenSleeps() {
    MainActor.assumeIsolated {
      let queue = IdleQueue()
      defer { queue.invalidate() }
      var ran = false
      queue.addTask(key: 0) { ran = true }
      let counter = PassCounter()
      defer { counter.remove() }
      CFRunLoopRunInMode(cfDefaultMode, 0.3, false)
      XCTAssertTrue(ran)
      // Without the extra turn: 1. Anything else waking the loop could only add turns, so allow a little.
      XCTAssertGreaterThanOrEqual(counter.count, 2, "the pass that ran the task, then one more turn")
      XCTAssertLessThanOrEqual(counter.count, 4, "then the loop sleeps")
    }
  }

  /// The same after a tracking pass (during a scroll) that ran a task: a tracking pass asks for no other,
  /// but the loop still turns once more for the commit.
  func testTheLoopTurnsOnceMoreAfterATrackingPassThatRanATask() {
    MainActor.assumeIsolated {
      let tracking = IdleQueue.Scrolling.trackingMode
      var configuration = IdleQueue.Configuration()
      configuration.scrolling = .fitToFrames { 0.010 }  // a frame always 10 ms ahead: the task is tried at once
      let queue = IdleQueue(configuration: configuration)
      defer { queue.invalidate() }
      var ran = false
      queue.addTask(key: 0) { ran = true }
      // A timer far off keeps the mode from being empty without waking the loop.
      let keepMode = addTimer(every: 60, mode: tracking) {}
      defer { CFRunLoopTimerInvalidate(keepMode) }
      let counter = PassCounter(modes: [cfMode(tracking)])
      defer { counter.remove() }
      CFRunLoopRunInMode(cfMode(tracking), 0.3, false)
      XCTAssertTrue(ran, "the tracking pass ran the task")
      XCTAssertGreaterThanOrEqual(counter.count, 2, "the pass that ran the task, then one more turn")
      XCTAssertLessThanOrEqual(counter.count, 4, "then the loop sleeps")
    }
  }

  /// A timer that fell due while a task ran (a display link's next frame) is served before the next pass:
  /// the queue does not wake the loop ahead of it.
  func testATimerThatFellDueDuringATaskRunsBeforeTheNextTask() {
    MainActor.assumeIsolated {
      let queue = IdleQueue()
      defer { queue.invalidate() }
      var log: [String] = []
      var timer: CFRunLoopTimer?
      defer { timer.map(CFRunLoopTimerInvalidate) }
      for i in 0..<3 {
        queue.addTask(key: i) {
          log.append("task \(i)")
          guard i == 0 else { return }
          timer = addTimer(every: 0.002, repeats: false, mode: .default) { log.append("timer") }
          // The task's own work: 6 ms of CPU, during which the 2 ms timer falls due.
          let end = Date().addingTimeInterval(0.006)
          while Date() < end {}
        }
      }
      spin(until: { log.count == 4 }, timeout: 5)
      XCTAssertEqual(log, ["task 0", "timer", "task 1", "task 2"])
    }
  }
}
