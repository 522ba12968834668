import CoreFoundation
import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// The faults earlier libraries of this kind died of (Texture spinning at 100% CPU, and crashing during
/// deallocation; stalls when the loop slept; DWURunLoopWorkDistribution breaking when a task removes tasks),
/// each on the real main run loop unless the point is exact accounting.
final class FaultTests: XCTestCase {
  // MARK: Invalidate while other threads add

  /// The adders pause 1 ms every 4 additions (at most 4,000 additions per second each), so that the main
  /// thread keeps up even under ThreadSanitizer and the test is about the race with `invalidate`; an
  /// unthrottled flood is ``testABackgroundFloodStaysBoundedAndDoesNotStallTheMainThread()``.
  func testInvalidateWhileBackgroundThreadsAreStillAdding() {
    MainActor.assumeIsolated {
      let queue = IdleQueue()
      let lifetimes = LifetimeRegistry()
      let record = FaultRecord()
      let adders = AdderThreads()
      let threadCount = 4
      for thread in 0..<threadCount {
        Thread { [weak queue] in
          var accepted = 0
          var index = 0
          // Keep adding until the queue refuses (it must, once invalidated), with a safety limit.
          while index < 1_000_000 {
            let token = lifetimes.token(thread * 10_000_000 + index)
            index += 1
            guard
              queue?.addTaskFromAnyThread(key: index % 13, { withExtendedLifetime(token) { record.ran() } }) == true
            else { break }
            accepted += 1
            if index % 4 == 0 { usleep(1_000) }
          }
          adders.finish(accepted: accepted)
        }.start()
      }
      // Let the threads and the passes overlap, then invalidate while the threads are still adding.
      spin(until: { record.runs >= 200 }, timeout: 20)
      XCTAssertEqual(adders.finished, 0, "the threads stopped before the queue was invalidated")
      queue.invalidate()
      record.isInvalidated = true
      spin(until: { adders.finished == threadCount }, timeout: 20)
      spinFreely(seconds: 0.1)

      XCTAssertEqual(record.runsAfterInvalidate, 0, "tasks ran after invalidate")
      XCTAssertEqual(queue.pendingTaskCount, 0)
      XCTAssertFalse(queue.addTaskFromAnyThread(key: 0) {}, "an invalidated queue accepted a task")
      let statistics = queue.statistics
      XCTAssertEqual(statistics.added, adders.accepted, "every accepted task is counted as added")
      XCTAssertEqual(statistics.executed, record.runs)
      XCTAssertEqual(statistics.pending, 0)
      XCTAssertTrue(statistics.isBalanced, "\(statistics)")
      XCTAssertLessThan(adders.accepted, threadCount * 1_000_000, "a thread was never refused")
      XCTAssertEqual(lifetimes.liveCount, 0, "task closures outlived invalidate")
      print("invalidate under load: \(adders.accepted) accepted from \(threadCount) threads; \(statistics)")
    }
  }

  /// Four threads add as fast as they can for half a second into a queue of capacity 30. The queue may
  /// hold at most its capacity, plus at most as many again handed over and not yet taken in (the
  /// background hand-over cannot see the main thread's queue); and the main thread must keep serving its
  /// run loop (a 5 ms timer keeps firing): the tasks beyond the capacity are doomed to eviction anyway,
  /// so taking them in must not cost the main thread time in proportion to the flood.
  func testABackgroundFloodStaysBoundedAndDoesNotStallTheMainThread() {
    MainActor.assumeIsolated {
      let queue = IdleQueue()
      let capacity = queue.maximumQueueLength
      let adders = AdderThreads()
      let threadCount = 4
      // The adders stop by themselves after 0.5 s, so that a stalled main thread cannot prolong the flood.
      let floodEnd = Date().addingTimeInterval(0.5)
      for _ in 0..<threadCount {
        Thread { [weak queue] in
          var accepted = 0
          while accepted % 256 != 0 || Date() < floodEnd,
            queue?.addTaskFromAnyThread(key: accepted % 13, {}) == true
          {
            accepted += 1
          }
          adders.finish(accepted: accepted)
        }.start()
      }
      var maximumPending = 0
      var lastFire = Date()
      var longestGap: TimeInterval = 0
      // A CF timer (Foundation's block-based Timer leaks on Linux, which LeakSanitizer reports).
      let timer = addTimer(every: 0.005, mode: .default) {
        longestGap = max(longestGap, Date().timeIntervalSince(lastFire))
        lastFire = Date()
        maximumPending = max(maximumPending, queue.pendingTaskCount)
      }
      while Date() < floodEnd {
        _ = RunLoop.main.run(mode: .default, before: floodEnd)
        maximumPending = max(maximumPending, queue.pendingTaskCount)
      }
      spin(until: { adders.finished == threadCount }, timeout: 60)
      CFRunLoopTimerInvalidate(timer)
      queue.invalidate()

      let statistics = queue.statistics
      XCTAssertEqual(statistics.added, adders.accepted)
      XCTAssertTrue(statistics.isBalanced, "\(statistics)")
      XCTAssertLessThanOrEqual(maximumPending, 2 * capacity, "pending tasks grew without bound under a flood")
      XCTAssertLessThan(longestGap, 0.25, "the main thread stalled taking in the flood")
      print(
        "background flood: \(adders.accepted) tasks from \(threadCount) threads in 0.5 s, most pending "
          + "\(maximumPending), longest main-thread gap \(Int(longestGap * 1000)) ms; \(statistics)")
    }
  }

  // MARK: Deallocation with tasks pending

  func testQueueDeallocatedWithTasksPendingReleasesThemAndNothingRunsLater() {
    MainActor.assumeIsolated {
      let lifetimes = LifetimeRegistry()
      let record = FaultRecord()
      let cell = HardeningCell()
      weak var weakQueue: IdleQueue?
      do {
        let queue = IdleQueue()
        for index in 0..<20 {
          let token = lifetimes.token(index)
          queue.addTask(key: index) { withExtendedLifetime(token) { record.ran() } }
        }
        let token = lifetimes.token(100)
        queue.addTask(for: cell, at: IndexPath(indexes: [0, 1])) { _ in withExtendedLifetime(token) { record.ran() } }
        queue.addTaskFromAnyThread(key: "background") { record.ran() }
        weakQueue = queue
        XCTAssertEqual(queue.pendingTaskCount, 22)
      }
      XCTAssertNil(weakQueue, "the queue outlived its last reference")
      XCTAssertEqual(lifetimes.liveCount, 0, "pending task closures outlived their queue")
      let wakeups = RunLoopWakeups()
      defer { wakeups.stop() }
      spinFreely(seconds: 0.2)
      XCTAssertEqual(record.runs, 0, "a task of a deallocated queue ran")
      XCTAssertLessThanOrEqual(
        wakeups.beforeWaiting, 2 * wakeups.timerFires + 5, "the loop kept waking after the queue was gone")
    }
  }

  func testQueueReleasedFromInsideItsOwnTask() {
    MainActor.assumeIsolated {
      let lifetimes = LifetimeRegistry()
      let record = FaultRecord()
      var holder: IdleQueue? = IdleQueue()
      weak let weakQueue = holder
      holder?.addTask(key: "release") {
        record.ran()
        holder = nil  // the last strong reference, dropped while the queue is serving this task
      }
      for index in 0..<10 {
        let token = lifetimes.token(index)
        holder?.addTask(key: index) { withExtendedLifetime(token) { record.ran() } }
      }
      spin(until: { record.runs >= 1 }, timeout: 2)
      spinFreely(seconds: 0.1)
      XCTAssertEqual(record.runs, 1, "tasks of a released queue ran")
      XCTAssertNil(weakQueue, "the queue outlived its last reference")
      XCTAssertEqual(lifetimes.liveCount, 0, "pending task closures outlived their queue")
    }
  }

  // MARK: A task that adds faster than passes drain

  func testATaskThatAddsFasterThanPassesDrainStaysBoundedByCapacity() {
    MainActor.assumeIsolated {
      let queue = IdleQueue()  // capacity 30, one task per pass
      let flood = Flood(queue: queue, limit: 5_000)
      flood.spawn()
      spin(until: { flood.isOver }, timeout: 30)
      let statistics = queue.statistics
      XCTAssertEqual(flood.runs, 5_000)
      XCTAssertLessThanOrEqual(flood.maximumPending, 30, "the queue grew")
      XCTAssertLessThanOrEqual(
        flood.maximumLiveClosures, 30 + 1, "closures of evicted tasks piled up")
      XCTAssertEqual(statistics.added, 1 + 2 * (5_000 - 1))
      XCTAssertEqual(statistics.executed, 5_000)
      XCTAssertGreaterThan(statistics.evicted, 4_000)
      XCTAssertTrue(statistics.isBalanced, "\(statistics)")
      XCTAssertEqual(flood.lifetimes.liveCount, 0, "closures outlived invalidate")
    }
  }

  // MARK: Capacity lowered below the count

  func testLoweringCapacityBelowTheCountTrimsAtOnceStaleFirst() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver, configuration: .init(maximumQueueLength: 30))
      let lifetimes = LifetimeRegistry()
      var ran: [Int] = []
      var cells: [Int: HardeningCell] = [1: HardeningCell(), 3: HardeningCell(), 6: HardeningCell()]
      for id in 0..<10 {
        let token = lifetimes.token(id)
        if let cell = cells[id] {
          queue.addTask(for: cell, at: IndexPath(indexes: [0, id])) { _ in
            withExtendedLifetime(token) { ran.append(id) }
          }
        } else {
          queue.addTask(key: id) { withExtendedLifetime(token) { ran.append(id) } }
        }
      }
      queue.bind(cells[1]!, to: IndexPath(indexes: [0, 99]))  // reused for another row
      cells[6] = nil  // gone
      queue.maximumQueueLength = 5

      // At once, before any pass: both stale tasks first, then the three oldest (0, 2 and 3).
      XCTAssertEqual(queue.pendingTaskCount, 5)
      XCTAssertEqual(queue.statistics.skippedAsStale, 2)
      XCTAssertEqual(queue.statistics.evicted, 3)
      XCTAssertEqual(lifetimes.liveIDs, [4, 5, 7, 8, 9], "dropped tasks' closures must be released at once")
      XCTAssertEqual(driver.drain(), 5)
      XCTAssertEqual(ran, [4, 5, 7, 8, 9])

      for id in 10..<13 { queue.addTask(key: id) { ran.append(id) } }
      queue.maximumQueueLength = 0
      XCTAssertEqual(queue.pendingTaskCount, 0)
      XCTAssertEqual(queue.statistics.evicted, 6)
      XCTAssertTrue(queue.statistics.isBalanced, "\(queue.statistics)")
      driver.drain()
      XCTAssertEqual(ran, [4, 5, 7, 8, 9])
    }
  }

  // MARK: A nested run loop inside a task

  func testNestedRunLoopInATaskThatAddsAndCancels() {
    MainActor.assumeIsolated {
      let queue = IdleQueue()
      let other = IdleQueue()
      defer {
        queue.invalidate()
        other.invalidate()
      }
      var events: [String] = []
      var isInsideA = false
      var tasksRunInsideTheNestedLoop: [String] = []
      var nestedWakeups = 0
      func record(_ name: String) {
        events.append(name)
        if isInsideA { tasksRunInsideTheNestedLoop.append(name) }
      }
      queue.addTask(key: "a") {
        record("A")
        isInsideA = true
        queue.addTask(key: "b") { record("B") }
        XCTAssertEqual(queue.cancelTasks(forKey: "c"), 1)
        other.addTask(key: "d") { record("D") }
        // A nested run loop in the default mode, as a modal dialog or a synchronous wait would run.
        let counter = PassCounter()
        let nestedEnd = Date().addingTimeInterval(0.05)
        while Date() < nestedEnd { _ = RunLoop.main.run(mode: .default, before: nestedEnd) }
        nestedWakeups = counter.count
        counter.remove()
        isInsideA = false
      }
      queue.addTask(key: "c") { record("C") }
      queue.addTask(key: "e") { record("E") }
      let keepAlive = RunLoopWakeups()
      defer { keepAlive.stop() }
      spin(until: { events.count == 4 }, timeout: 3)
      spinFreely(seconds: 0.05)

      XCTAssertEqual(tasksRunInsideTheNestedLoop, [], "a pass ran inside another pass")
      XCTAssertEqual(events.filter { $0 != "D" }, ["A", "E", "B"], "FIFO order, C cancelled")
      XCTAssertTrue(events.contains("D"), "the other queue's task, refused inside the nested loop, never ran")
      XCTAssertLessThan(nestedWakeups, 50, "the nested loop spun instead of sleeping")
      XCTAssertEqual(queue.statistics.executed, 3)
      XCTAssertEqual(queue.statistics.cancelled, 1)
      XCTAssertEqual(queue.pendingTaskCount, 0)
      XCTAssertTrue(queue.statistics.isBalanced, "\(queue.statistics)")
      XCTAssertEqual(other.statistics.executed, 1)
    }
  }

  // MARK: The observer's mode never entered

  func testObserversModeNeverEnteredTasksWaitAndNothingSpins() {
    MainActor.assumeIsolated {
      let queue = IdleQueue()  // default mode only
      defer { queue.invalidate() }
      var ran = 0
      for index in 0..<5 { queue.addTask(key: index) { ran += 1 } }
      let mode = RunLoop.Mode("IdleWorkHardeningOtherMode")
      let wakeups = RunLoopWakeups(mode: mode)
      let end = Date().addingTimeInterval(0.3)
      while Date() < end { _ = RunLoop.main.run(mode: mode, before: end) }
      wakeups.stop()

      XCTAssertEqual(ran, 0, "a task ran in a mode the queue does not observe")
      XCTAssertEqual(queue.pendingTaskCount, 5)
      XCTAssertEqual(queue.statistics.passes, 0)
      XCTAssertGreaterThanOrEqual(wakeups.timerFires, 5, "the other mode did not run")
      XCTAssertLessThanOrEqual(
        wakeups.beforeWaiting, 2 * wakeups.timerFires + 5, "the loop spun in the other mode instead of sleeping")
      // Back in the default mode, the waiting tasks run.
      spin(until: { ran == 5 }, timeout: 2)
    }
  }

  // MARK: A very long task

  /// How soon after a long task the next pass must start. Normally tens of microseconds; generous for a
  /// shared, noisy machine and sanitizers, and still far below any timer-driven fallback.
  static let promptness: TimeInterval = 0.1

  func testAVeryLongTaskIsFollowedByTheNextPassRightAway() {
    MainActor.assumeIsolated {
      var configuration = IdleQueue.Configuration()
      configuration.budget = .seconds(0.004)
      let queue = IdleQueue(configuration: configuration)
      defer { queue.invalidate() }
      var longTaskEnded: Date?
      var nextTaskStarted: Date?
      var passesAtNextTask = 0
      queue.addTask(key: "long") {
        Thread.sleep(forTimeInterval: 0.3)  // the task's own work: it holds the main thread for 300 ms
        longTaskEnded = Date()
      }
      queue.addTask(key: "next") {
        nextTaskStarted = Date()
        passesAtNextTask = queue.statistics.passes
      }
      spin(until: { nextTaskStarted != nil }, timeout: 3)
      guard let ended = longTaskEnded, let started = nextTaskStarted else { return XCTFail("tasks did not run") }
      XCTAssertEqual(passesAtNextTask, 1, "the 4 ms budget must end the pass after the long task")
      XCTAssertLessThan(started.timeIntervalSince(ended), Self.promptness, "the next pass came late")
      XCTAssertGreaterThanOrEqual(queue.statistics.longestPassDuration, 0.3)
      print("long task: next pass began \(Int(started.timeIntervalSince(ended) * 1_000_000)) µs after it")
    }
  }
}

// MARK: Helpers

/// Spins the main run loop in the default mode for a fixed time: for checking that nothing happens.
@MainActor
private func spinFreely(seconds: TimeInterval) {
  let end = Date().addingTimeInterval(seconds)
  while Date() < end { _ = RunLoop.main.run(mode: .default, before: end) }
}

/// Counts task runs on the main thread, and those after the queue was invalidated.
@MainActor
private final class FaultRecord {
  private(set) var runs = 0
  private(set) var runsAfterInvalidate = 0
  var isInvalidated = false

  func ran() {
    runs += 1
    if isInvalidated { runsAfterInvalidate += 1 }
  }
}

/// Background adders' results.
private final class AdderThreads: @unchecked Sendable {
  private let lock = NSLock()
  private var finishedCount = 0
  private var acceptedCount = 0

  func finish(accepted: Int) {
    lock.lock()
    finishedCount += 1
    acceptedCount += accepted
    lock.unlock()
  }

  var finished: Int {
    lock.lock()
    defer { lock.unlock() }
    return finishedCount
  }

  var accepted: Int {
    lock.lock()
    defer { lock.unlock() }
    return acceptedCount
  }
}

/// Tasks that each add two more: additions outpace one-task passes two to one.
@MainActor
private final class Flood {
  let queue: IdleQueue
  let limit: Int
  let lifetimes = LifetimeRegistry()
  private(set) var runs = 0
  private(set) var maximumPending = 0
  private(set) var maximumLiveClosures = 0
  private(set) var isOver = false
  private var nextID = 0

  init(queue: IdleQueue, limit: Int) {
    self.queue = queue
    self.limit = limit
  }

  func spawn() {
    let token = lifetimes.token(nextID)
    nextID += 1
    queue.addTask(key: nextID % 5) { [weak self] in withExtendedLifetime(token) { self?.run() } }
  }

  private func run() {
    runs += 1
    maximumPending = max(maximumPending, queue.pendingTaskCount)
    maximumLiveClosures = max(maximumLiveClosures, lifetimes.liveCount)
    guard runs < limit else {
      queue.invalidate()
      isOver = true
      return
    }
    spawn()
    spawn()
    maximumPending = max(maximumPending, queue.pendingTaskCount)
  }
}

/// A repeating timer (every 10 ms) that gives the loop a reason to wake, and a counter of BeforeWaiting
/// moments in the same mode: a loop that sleeps between timer fires sees about one per fire; a loop kept
/// spinning by a wake-up storm sees thousands.
@MainActor
private final class RunLoopWakeups {
  private(set) var timerFires = 0
  private let counter: PassCounter
  private var timer: CFRunLoopTimer?

  init(mode: RunLoop.Mode = .default) {
    counter = PassCounter(modes: [cfMode(mode)])
    // A CF timer: Foundation's block-based Timer leaks on Linux, which LeakSanitizer reports.
    timer = addTimer(every: 0.01, mode: mode) { [weak self] in self?.timerFires += 1 }
  }

  var beforeWaiting: Int { counter.count }

  func stop() {
    if let timer { CFRunLoopTimerInvalidate(timer) }
    timer = nil
    counter.remove()
  }
}
