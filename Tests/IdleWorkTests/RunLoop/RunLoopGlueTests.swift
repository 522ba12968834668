import CoreFoundation
import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// The CoreFoundation glue on the real main run loop. Synchronous XCTest methods run on the main thread on
/// Linux, so they can spin `RunLoop.main` (GUIDE.md §2).
private let tracking = RunLoop.Mode("IdleWorkTests.Tracking")

final class RunLoopGlueTests: XCTestCase {

  func testTasksRunOnePerPassOnTheRealRunLoop() {
    MainActor.assumeIsolated {
      let queue = IdleQueue()
      defer { queue.invalidate() }
      var ran: [Int] = []
      for i in 0..<5 { queue.addTask(key: i) { ran.append(i) } }
      spin(until: { ran.count == 5 }, timeout: 5)
      XCTAssertEqual(ran, [0, 1, 2, 3, 4])
      XCTAssertEqual(queue.statistics.passes, 5)
    }
  }

  /// Nothing but IdleWork's own wake-up keeps the loop turning: one `CFRunLoopRunInMode` call with no timer
  /// or source would sleep its whole 10 s if the queue did not wake it after each pass.
  func testTheQueueDrainsPromptlyWithNothingElseWakingTheLoop() {
    MainActor.assumeIsolated {
      let queue = IdleQueue()
      defer { queue.invalidate() }
      let count = 200
      queue.maximumQueueLength = count
      var ran = 0
      for i in 0..<count {
        queue.addTask(key: i) {
          ran += 1
          if ran == count { CFRunLoopStop(CFRunLoopGetMain()) }
        }
      }
      let start = Date()
      CFRunLoopRunInMode(cfDefaultMode, 10, false)
      let elapsed = Date().timeIntervalSince(start)
      XCTAssertEqual(ran, count)
      XCTAssertLessThan(elapsed, 2, "\(count) one-task passes must not wait for anything else to wake the loop")
    }
  }

  /// With the queue empty nothing wakes the loop: a second observer counts its BeforeWaiting moments.
  func testTheLoopSleepsWhenTheQueueIsEmpty() {
    MainActor.assumeIsolated {
      let queue = IdleQueue()
      defer { queue.invalidate() }
      var ran = 0
      queue.addTask(key: 0) { ran += 1 }
      spin(until: { ran == 1 }, timeout: 5)
      let counter = PassCounter()
      defer { counter.remove() }
      // One call, no timer: the loop wakes only if something wakes it.
      CFRunLoopRunInMode(cfDefaultMode, 0.5, false)
      XCTAssertLessThanOrEqual(counter.count, 3, "an empty queue must let the loop sleep (DWU's timer: 5 here)")
      XCTAssertEqual(queue.statistics.passes, 1)
    }
  }

  /// Nor does a queue holding only an off-screen cell's waiting task: it is pending, and asks for no pass.
  func testTheLoopSleepsWhenOnlyOffScreenCellsTasksArePending() {
    MainActor.assumeIsolated {
      let queue = IdleQueue()
      defer { queue.invalidate() }
      let cell = FakeCell()
      var ran = 0
      queue.addTask(for: cell, at: row(7)) { _ in ran += 1 }
      queue.cellDidEndDisplaying(cell, at: row(7))
      let counter = PassCounter()
      defer { counter.remove() }
      CFRunLoopRunInMode(cfDefaultMode, 0.5, false)
      XCTAssertLessThanOrEqual(counter.count, 3, "a parked task must let the loop sleep (DWU's timer: 5 here)")
      XCTAssertEqual(ran, 0)
      XCTAssertEqual(queue.pendingTaskCount, 1)
      queue.cellWillDisplay(cell, at: row(7))
      spin(until: { ran == 1 }, timeout: 5)
    }
  }

  /// Default mode only: nothing runs while the loop runs in another mode (a scroll being tracked).
  func testNothingRunsOutsideTheDefaultMode() {
    MainActor.assumeIsolated {
      let queue = IdleQueue()
      defer { queue.invalidate() }
      var ran = 0
      queue.addTask(key: 0) { ran += 1 }
      var ticks = 0
      let timer = addTimer(every: 0.01, mode: tracking) { ticks += 1 }
      defer { CFRunLoopTimerInvalidate(timer) }
      spin(until: { ticks >= 10 }, timeout: 5, mode: tracking)
      XCTAssertEqual(ran, 0, "the loop was awake in the tracking mode \(ticks) times, and ran no task")
      spin(until: { ran == 1 }, timeout: 5)
    }
  }

  func testConfiguredModesAreHonoured() {
    MainActor.assumeIsolated {
      var configuration = IdleQueue.Configuration()
      configuration.modes = [.default, tracking]
      let queue = IdleQueue(configuration: configuration)
      defer { queue.invalidate() }
      var ran = 0
      queue.addTask(key: 0) { ran += 1 }
      let timer = addTimer(every: 0.01, mode: tracking) {}
      defer { CFRunLoopTimerInvalidate(timer) }
      spin(until: { ran == 1 }, timeout: 5, mode: tracking)
    }
  }

  /// The observer (order 2,100,000) runs in the same BeforeWaiting after Core Animation's commit observer
  /// (2,000,000) and UIKit's after-commit handler (2,001,000), and before the autorelease pool's pop
  /// (`Int32.max`).
  func testTheObserverRunsAfterTheCommitAndBeforeThePoolPop() {
    MainActor.assumeIsolated {
      XCTAssertEqual(IdleQueue.observerOrder, 2_100_000)
      var log: [String] = []
      let observers = [("commit", 2_000_000), ("after commit", 2_001_000), ("pool pop", Int(Int32.max))].map {
        name, order in
        let observer = CFRunLoopObserverCreateWithHandler(
          nil, CFRunLoopActivity.beforeWaiting.rawValue, true, CFIndex(order)
        ) { _, _ in
          MainActor.assumeIsolated { log.append(name) }
        }
        CFRunLoopAddObserver(CFRunLoopGetMain(), observer, cfDefaultMode)
        return observer
      }
      defer { observers.forEach { CFRunLoopObserverInvalidate($0) } }
      let queue = IdleQueue()
      defer { queue.invalidate() }
      queue.addTask(key: 0) { log.append("task") }
      spin(until: { log.contains("task") && log.last != "task" }, timeout: 5)
      let task = log.firstIndex(of: "task")!
      XCTAssertGreaterThan(task, 1)
      XCTAssertEqual(Array(log[(task - 2)...(task + 1)]), ["commit", "after commit", "task", "pool pop"], "\(log)")
    }
  }

  /// A task that spins a nested run loop: no pass runs inside it, every task runs once, the rest follow.
  func testANestedRunLoopInATaskRunsNoOtherPass() {
    MainActor.assumeIsolated {
      let queue = IdleQueue()
      let other = IdleQueue()
      defer {
        queue.invalidate()
        other.invalidate()
      }
      var log: [String] = []
      queue.addTask(key: 0) {
        log.append("outer")
        queue.addTask(key: 2) { log.append("added in nested") }
        addTimer(every: 0.01, repeats: false, mode: .default) { log.append("nested timer") }
        _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.1))
        log.append("outer end")
      }
      queue.addTask(key: 1) { log.append("second") }
      other.addTask(key: 0) { log.append("other") }
      spin(until: { log.count == 6 }, timeout: 5)
      XCTAssertEqual(log.prefix(3), ["outer", "nested timer", "outer end"], "\(log)")
      XCTAssertEqual(Set(log.suffix(3)), ["second", "added in nested", "other"])
      XCTAssertEqual(queue.statistics.executed, 3)
    }
  }

  func testInvalidateStopsEverything() {
    MainActor.assumeIsolated {
      let queue = IdleQueue()
      var ran = 0
      for i in 0..<3 { queue.addTask(key: i) { ran += 1 } }
      queue.invalidate()
      queue.addTask(key: 9) { ran += 1 }
      let timer = addTimer(every: 0.01, mode: .default) {}
      defer { CFRunLoopTimerInvalidate(timer) }
      _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.2))
      XCTAssertEqual(ran, 0)
      XCTAssertEqual(queue.pendingTaskCount, 0)
      XCTAssertEqual(queue.statistics.cancelled, 3)
    }
  }

  /// A task added from another thread runs on the main thread, and the sleeping loop is woken for it.
  func testABackgroundAdditionWakesTheSleepingLoop() {
    MainActor.assumeIsolated {
      let queue = IdleQueue()
      defer { queue.invalidate() }
      let ranOnMain = LockedBox(false)
      // Add from a background thread once the main loop is about to sleep (a second observer tells it).
      let asleep = DispatchSemaphore(value: 0)
      let observer = CFRunLoopObserverCreateWithHandler(nil, CFRunLoopActivity.beforeWaiting.rawValue, false, 0) {
        _, _ in asleep.signal()
      }
      CFRunLoopAddObserver(CFRunLoopGetMain(), observer, cfDefaultMode)
      Thread.detachNewThread {
        asleep.wait()
        queue.addTaskFromAnyThread(key: "bg") {
          ranOnMain.value = Thread.isMainThread
          CFRunLoopStop(CFRunLoopGetMain())
        }
      }
      let start = Date()
      CFRunLoopRunInMode(cfDefaultMode, 10, false)
      CFRunLoopObserverInvalidate(observer)
      XCTAssertTrue(ranOnMain.value)
      XCTAssertLessThan(Date().timeIntervalSince(start), 2)
      XCTAssertEqual(queue.statistics.executed, 1)
    }
  }

  func testTheSharedMainQueueIsAnIdleQueueOnTheMainRunLoop() {
    MainActor.assumeIsolated {
      var ran = false
      IdleQueue.main.addTask(key: "main") { ran = true }
      spin(until: { ran }, timeout: 5)
      XCTAssertEqual(IdleQueue.main.maximumQueueLength, 30)
      XCTAssertEqual(IdleQueue.main.budget, .tasks(1))
    }
  }
}
