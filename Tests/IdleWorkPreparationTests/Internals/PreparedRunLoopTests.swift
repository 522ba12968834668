import CoreFoundation
import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkPreparation

/// Prepared tasks on the real main run loop with real worker threads.
final class PreparedRunLoopTests: XCTestCase {
  /// Results prepared on workers are applied on the main thread in idle passes; the pool never exceeds its
  /// limit; the workers end with the queue.
  func testWorkersPrepareAndPassesApply() {
    MainActor.assumeIsolated {
      let queue = IdleQueue(configuration: .init(maximumQueueLength: 1000))
      _ = Preparer(queue: queue, configuration: .init(workers: 2))
      let onMain = Counter()
      var applied = 0
      for i in 0..<200 {
        queue.addTask(key: i) { _ in
          if Thread.isMainThread { onMain.increment() }
          return i * 2
        } apply: { value in
          XCTAssertTrue(Thread.isMainThread)
          XCTAssertEqual(value % 2, 0)
          applied += 1
        }
      }
      spin(until: { applied == 200 }, timeout: 10)
      XCTAssertEqual(onMain.value, 0, "prepare never runs on the main thread")
      let peak = queue.core.preparation!.line.peakRunningCount
      XCTAssertLessThanOrEqual(peak, 2)
      XCTAssertGreaterThanOrEqual(peak, 1)
      XCTAssertEqual(queue.counts.executed, 200)
      XCTAssertTrue(queue.counts.isBalanced)
      queue.invalidate()
      spin(until: { queue.core.preparation!.line.pool.threadCounts.now == 0 }, timeout: 5)
    }
  }

  /// On the real run loop, main-thread prefetches run in the loop's idle passes, on the main thread, with nothing
  /// else to wake it; a row then shows its result inside `addTask`.
  func testMainThreadPrefetchesRunInIdlePasses() {
    MainActor.assumeIsolated {
      let queue = IdleQueue()
      let made = Counter()
      let tile = Preparation.mainThread { (name: String) in
        XCTAssertTrue(Thread.isMainThread)
        made.increment()
        return "tile of \(name)"
      }
      queue.preparer.prefetch(tile, from: ["a", "b", "c"])
      spin(until: { made.value == 3 }, timeout: 5)
      XCTAssertEqual(made.value, 3)
      var applied: [String] = []
      queue.preparer.addTask(key: 0, prepare: tile, from: "b") { applied.append($0) }
      XCTAssertEqual(applied, ["tile of b"])
      let s = queue.counts
      XCTAssertEqual([s.added, s.executed, queue.counts.cacheHits, s.pending], [4, 4, 1, 0])
      queue.invalidate()
    }
  }

  /// An arrival wakes the main run loop: with nothing else to wake it, the apply still comes.
  func testArrivalWakesTheSleepingLoop() {
    MainActor.assumeIsolated {
      let queue = IdleQueue(configuration: .init())
      _ = Preparer(queue: queue, configuration: .init(workers: 1))
      let gate = DispatchSemaphore(value: 0)
      var applied = false
      queue.addTask(key: 0) { _ in
        gate.wait()  // the render waits until the loop is asleep
        return 1
      } apply: { _ in
        applied = true
        CFRunLoopStop(CFRunLoopGetMain())
      }
      // Let the loop go to sleep with the render pending, then release it from another thread: only the
      // arrival's wake-up can bring the pass that applies (and stops the loop) before the 10 s limit.
      DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { gate.signal() }
      let result = CFRunLoopRunInMode(cfMode(.default), 10, false)
      XCTAssertEqual(result, .stopped, "the loop slept through the arrival")
      XCTAssertTrue(applied)
      queue.invalidate()
    }
  }

  /// The run-loop driver measures the commit before each pass once a queue has prepared tasks: a stand-in
  /// for Core Animation's commit observer (order 2,000,000) that busies the thread for 2 ms is seen by the
  /// pass (at least 2 ms; a lower bound, so a slow machine cannot fail it).
  func testRunLoopDriverMeasuresTheCommitBeforeThePass() {
    MainActor.assumeIsolated { Self.assertCommitMeasured(askedBeforeStart: false) }
  }

  /// The same when the measurement is asked for before the driver starts (a queue created off the main
  /// thread whose first prepared task comes before its start on the main thread).
  func testRunLoopDriverMeasuresTheCommitWhenAskedBeforeItStarts() {
    MainActor.assumeIsolated { Self.assertCommitMeasured(askedBeforeStart: true) }
  }

  /// The commit a queue measures is the commit alone: another queue's pass, whose observer has the same order
  /// and may run first, is not in it (it once made this queue's applies look 20 ms long, and skipped them
  /// during scrolls).
  func testACommitMeasuredLeavesOutAnotherQueuesPass() {
    MainActor.assumeIsolated {
      let busy = RunLoopPassDriver(modes: [.default], trackingModes: [], order: IdleQueue.observerOrder)
      let measuring = RunLoopPassDriver(modes: [.default], trackingModes: [], order: IdleQueue.observerOrder)
      var busyPasses = 0
      var seen: [UInt64] = []
      // Started first: its observer comes before the measuring one's in each turn.
      busy.start { _ in
        busyPasses += 1
        let end = DispatchTime.now().uptimeNanoseconds + 20_000_000  // another queue's 20 ms task
        while DispatchTime.now().uptimeNanoseconds < end {}
        busy.requestPass()
        return true
      }
      measuring.start { _ in
        if let commit = measuring.commitDuration { seen.append(commit) }
        return false
      }
      measuring.measureCommits()
      defer {
        busy.stop()
        measuring.stop()
      }
      spin(until: { seen.count >= 3 }, timeout: 5)
      XCTAssertGreaterThanOrEqual(busyPasses, 3, "the other queue's passes ran")
      XCTAssertGreaterThanOrEqual(seen.count, 3, "no commit measured")
      XCTAssertTrue(seen.allSatisfy { $0 < 10_000_000 }, "another queue's 20 ms pass counted as commit: \(seen)")
    }
  }

  @MainActor
  private static func assertCommitMeasured(askedBeforeStart: Bool) {
    let driver = RunLoopPassDriver(modes: [.default], trackingModes: [], order: IdleQueue.observerOrder)
    var seen: [UInt64?] = []
    if askedBeforeStart { driver.measureCommits() }
    driver.start { _ in
      seen.append(driver.commitDuration)
      return false
    }
    if !askedBeforeStart { driver.measureCommits() }
    let commit = CFRunLoopObserverCreateWithHandler(nil, CFRunLoopActivity.beforeWaiting.rawValue, true, 2_000_000) {
      _, _ in
      let end = DispatchTime.now().uptimeNanoseconds + 2_000_000
      while DispatchTime.now().uptimeNanoseconds < end {}
    }
    CFRunLoopAddObserver(CFRunLoopGetMain(), commit, cfMode(.default))
    defer {
      CFRunLoopObserverInvalidate(commit)
      driver.stop()
    }
    spin(until: { seen.count >= 2 }, timeout: 5)
    let measured = seen.compactMap { $0 }
    XCTAssertFalse(measured.isEmpty, "no commit measured")
    XCTAssertTrue(measured.allSatisfy { $0 >= 2_000_000 }, "\(measured)")
  }
}
