import CoreFoundation
import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// A queue's start and end from any thread, on the real main run loop.
///
/// - A queue released off the main thread releases its pending closures on the main thread.
/// - `IdleQueue.main`, `IdleQueue(configuration:)` and `invalidate()` can be used from any thread: from a
///   network callback, from a library's own thread, from a screen's `deinit` (several tests also pin this at
///   compile time: none of the three is main-actor).
///
/// The main thread waits for the background thread without turning the run loop where a test needs the
/// queue not to have started yet, then spins the loop until the outcome (no sleeps).
final class QueueLifetimeTests: XCTestCase {
  /// The queue's state outlives its last reference until the main thread ends it, so the three pending closures
  /// (and the object they capture) are released on the main thread, not on the background thread that released
  /// the queue.
  func testAQueueReleasedOffTheMainThreadReleasesItsPendingClosuresOnTheMainThread() {
    MainActor.assumeIsolated {
      let releasedOnMain = LockedBox<[Bool]>([])
      let ran = LockedBox(0)
      var queue: IdleQueue? = IdleQueue()
      for key in 0..<3 {
        let witness = ReleaseWitness { releasedOnMain.update { $0.append(Thread.isMainThread) } }
        queue?.addTask(key: key) {
          ran.update { $0 += 1 }
          withExtendedLifetime(witness) {}
        }
      }
      weak let weakQueue = queue
      let handOver = LockedBox(queue)
      queue = nil
      let released = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        handOver.value = nil  // the last reference to the queue goes here
        released.signal()
      }
      released.wait()
      XCTAssertNil(weakQueue, "the queue was released on the background thread")
      spin(until: { releasedOnMain.value.count == 3 }, timeout: 10)
      XCTAssertEqual(releasedOnMain.value, [true, true, true], "true: released on the main thread")
      XCTAssertEqual(ran.value, 0, "a released queue's tasks never run")
    }
  }

  /// A library creates its own queue on a background thread and adds work there and, before the
  /// queue has started (the main thread is waiting, so the start hop has not run), on the main thread;
  /// once the main loop runs, both run.
  func testAQueueCreatedOnABackgroundThreadRunsWorkAddedBeforeItStarted() {
    MainActor.assumeIsolated {
      let ran = LockedBox<[String]>([])
      let queue = madeOnABackgroundThread(
        .init(budget: .tasks(10), scrolling: .fitToFrames(timeUntilNextFrame: { nil }))
      ) { queue in
        queue.addTaskFromAnyThread(key: "background") {
          ran.update { $0.append("background on main: \(Thread.isMainThread)") }
        }
      }
      XCTAssertNotNil(queue.core.startup, "the queue has not started yet")
      XCTAssertNil(queue.core.frameClock, "the frame clock is made on the main thread, at the start")
      queue.addTask(key: "main") { ran.update { $0.append("main") } }
      spin(until: { ran.value.count == 2 }, timeout: 10)
      XCTAssertEqual(ran.value.sorted(), ["background on main: true", "main"])
      XCTAssertNil(queue.core.startup, "started")
      XCTAssertNotNil(queue.core.frameClock)
      queue.invalidate()
    }
  }

  /// The README's pairing, `IdleQueue.main` from a network callback (it must be reachable from a Sendable
  /// closure).
  func testIdleQueueMainIsReachableFromABackgroundCallback() {
    MainActor.assumeIsolated {
      let accepted = LockedBox<Bool?>(nil)
      let ranOnMain = LockedBox<Bool?>(nil)
      DispatchQueue.global().async {
        accepted.value = IdleQueue.main.addTaskFromAnyThread(key: "img") { ranOnMain.value = Thread.isMainThread }
      }
      spin(until: { ranOnMain.value != nil }, timeout: 10)
      XCTAssertEqual(accepted.value, true)
      XCTAssertEqual(ranOnMain.value, true)
    }
  }

  /// `invalidate()` from a background thread refuses additions from other threads at once, and ends the
  /// queue on the main thread: pending tasks cancelled, never run, their closures released there.
  func testInvalidateFromABackgroundThreadRefusesAtOnceAndEndsTheQueueOnTheMainThread() {
    MainActor.assumeIsolated {
      let queue = IdleQueue()
      let releasedOnMain = LockedBox<[Bool]>([])
      var ran = 0
      for key in 0..<3 {
        let witness = ReleaseWitness { releasedOnMain.update { $0.append(Thread.isMainThread) } }
        queue.addTask(key: key) {
          ran += 1
          withExtendedLifetime(witness) {}
        }
      }
      let refused = LockedBox<Bool?>(nil)
      let returned = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        queue.invalidate()
        refused.value = !queue.addTaskFromAnyThread(key: "late") {}
        returned.signal()
      }
      returned.wait()
      XCTAssertEqual(refused.value, true, "an addition after invalidate() returned is refused at once")
      XCTAssertEqual(queue.pendingTaskCount, 3, "the main thread's half comes through the main queue")
      spin(until: { releasedOnMain.value.count == 3 }, timeout: 10)
      XCTAssertEqual(releasedOnMain.value, [true, true, true], "true: released on the main thread")
      XCTAssertEqual(ran, 0)
      XCTAssertEqual(queue.statistics.cancelled, 3)
      XCTAssertEqual(queue.pendingTaskCount, 0)
      XCTAssertFalse(queue.addTask(key: "after") {}.isPending, "later additions are ignored")
    }
  }

  /// The natural way for a screen to end the queue it owns, `deinit { queue.invalidate() }`, compiles and ends
  /// it at once when the screen goes on the main thread.
  func testAScreensDeinitEndsTheQueueItOwns() {
    MainActor.assumeIsolated {
      var screen: Screen? = Screen()
      guard let queue = screen?.queue else { return XCTFail("no queue") }
      queue.addTask(key: 1) {}
      queue.addTask(key: 2) {}
      screen = nil
      XCTAssertEqual(queue.statistics.cancelled, 2)
      XCTAssertEqual(queue.pendingTaskCount, 0)
      XCTAssertFalse(queue.addTaskFromAnyThread(key: 3) {})
    }
  }

  /// A queue invalidated on its creating thread before its start hop ran never starts: the task added before
  /// never runs, and no frame clock is made.
  func testAnInvalidateOffTheMainThreadBeforeTheStartWins() {
    MainActor.assumeIsolated {
      let ran = LockedBox(false)
      let hopsDone = LockedBox(false)
      let queue = madeOnABackgroundThread(.init(scrolling: .fitToFrames(timeUntilNextFrame: { nil }))) { queue in
        queue.addTaskFromAnyThread(key: 1) { ran.value = true }
        queue.invalidate()
        DispatchQueue.main.async { hopsDone.value = true }  // after the start and the invalidation hops
      }
      spin(until: { hopsDone.value }, timeout: 10)
      assertNeverStarted(queue, ran: ran)
    }
  }

  /// The same, invalidated on the main thread before the start hop ran.
  func testAnInvalidateOnTheMainThreadBeforeTheStartWins() {
    MainActor.assumeIsolated {
      let ran = LockedBox(false)
      let queue = madeOnABackgroundThread(.init(scrolling: .fitToFrames(timeUntilNextFrame: { nil }))) { queue in
        queue.addTaskFromAnyThread(key: 1) { ran.value = true }
      }
      XCTAssertNotNil(queue.core.startup, "the queue has not started yet")
      queue.invalidate()
      let hopsDone = LockedBox(false)
      DispatchQueue.main.async { hopsDone.value = true }  // after the start hop
      spin(until: { hopsDone.value }, timeout: 10)
      assertNeverStarted(queue, ran: ran)
    }
  }
}

/// A queue created on a background thread, which then runs `use` on it; the main thread waits without turning
/// its run loop, so the queue's start hop (a main-queue block) has not run when this returns.
@MainActor
private func madeOnABackgroundThread(
  _ configuration: IdleQueue.Configuration, use: @escaping @Sendable (IdleQueue) -> Void
) -> IdleQueue {
  let handOver = LockedBox<IdleQueue?>(nil)
  let created = DispatchSemaphore(value: 0)
  Thread.detachNewThread {
    let queue = IdleQueue(configuration: configuration)
    use(queue)
    handOver.value = queue
    created.signal()
  }
  created.wait()
  defer { handOver.value = nil }
  return handOver.value!
}

/// Turns the loop a few times more (a pass would come in any of them), then checks the queue never started.
@MainActor
private func assertNeverStarted(_ queue: IdleQueue, ran: LockedBox<Bool>, line: UInt = #line) {
  let counter = PassCounter()
  defer { counter.remove() }
  let wake = addTimer(every: 0.001, mode: .default) {}
  defer { CFRunLoopTimerInvalidate(wake) }
  spin(until: { counter.count >= 5 }, timeout: 10, line: line)
  XCTAssertFalse(ran.value, "the task ran", line: line)
  XCTAssertNil(queue.core.startup, "the start hop ran", line: line)
  XCTAssertNil(queue.core.frameClock, "a frame clock was made", line: line)
  XCTAssertTrue(queue.core.scheduler.isStopped, line: line)
  XCTAssertEqual(queue.statistics.added, 1, line: line)
  XCTAssertEqual(queue.statistics.cancelled, 1, line: line)
  XCTAssertEqual(queue.pendingTaskCount, 0, line: line)
}

/// A screen that owns a queue and ends it when it goes, as the README shows.
@MainActor
private final class Screen {
  let queue = IdleQueue(configuration: .scrollingFeed())
  deinit { queue.invalidate() }
}

/// Calls `onDeinit` when freed.
private final class ReleaseWitness: Sendable {
  let onDeinit: @Sendable () -> Void
  init(_ onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
  deinit { onDeinit() }
}
