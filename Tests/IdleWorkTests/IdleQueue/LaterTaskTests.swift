import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// A task whose work comes later, from any thread: it keeps its place, is passed over until its work comes, goes
/// stale with its cell, and is counted as one task however it leaves — work that comes after it left is released
/// on the main thread and counts nothing.
final class LaterTaskTests: XCTestCase {
  /// A closure capture that records the thread it is freed on.
  final class ReleaseProbe: Sendable {
    let log: TextLog
    init(_ log: TextLog) { self.log = log }
    deinit { log.append(Thread.isMainThread ? "main" : "elsewhere") }
  }

  /// Runs `body` on another thread and waits for it.
  static func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      body()
      done.signal()
    }
    XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
  }

  /// Work that came before the passes runs in the task's place: after the task before it, before the one after it.
  func testItKeepsItsPlace() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      var ran: [String] = []
      queue.addTask(key: "a") { ran.append("a") }
      let later = queue.addLaterTask(key: "b")
      queue.addTask(key: "c") { ran.append("c") }
      later.fulfill { _ in ran.append("b") }
      driver.drain()
      XCTAssertEqual(ran, ["a", "b", "c"])
      XCTAssertEqual(queue.statistics.executed, 3)
    }
  }

  /// Until its work comes the task is passed over and, with nothing else to run, the queue lets the run loop sleep;
  /// work handed over from another thread asks for a pass, which runs it with its cell.
  func testItWaitsAsleepUntilItsWorkComesFromAnyThread() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let cell = FakeCell()
      var ran: [String] = []
      let later = queue.addLaterTask(for: cell, at: row(1))
      queue.addTask(key: "after") { ran.append("after") }
      driver.drain()
      XCTAssertEqual(ran, ["after"])
      XCTAssertFalse(driver.isPassRequested, "a queue with only a task waiting for its work kept the loop awake")
      XCTAssertEqual(queue.statistics.pending, 1)
      let filled = LockedBox<ObjectIdentifier?>(nil)
      Self.onAnotherThread { later.fulfill { cell in filled.value = ObjectIdentifier(cell) } }
      XCTAssertTrue(driver.isPassRequested, "work handed over did not ask for a pass")
      driver.drain()
      XCTAssertEqual(filled.value, ObjectIdentifier(cell))
      XCTAssertEqual(queue.statistics.executed, 2)
      XCTAssertEqual(queue.statistics.pending, 0)
    }
  }

  /// The cell shows another row before the work comes: the task is skipped as stale, and the work that comes after
  /// is released on the main thread without running or counting.
  func testItGoesStaleWithItsCellAndLateWorkIsReleasedOnTheMainThread() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let cell = FakeCell()
      let log = TextLog()
      let later = queue.addLaterTask(for: cell, at: row(1))
      queue.bind(cell, to: row(9))  // reused for another row
      driver.drain()
      XCTAssertEqual(queue.statistics.skippedAsStale, 1)
      Self.onAnotherThread {
        let probe = ReleaseProbe(log)  // made there, as a loader makes its image
        later.fulfill { _ in log.append("ran \(probe)") }
      }
      spin(until: { log.entries == ["main"] }, timeout: 5)
      driver.drain()
      XCTAssertEqual(log.entries, ["main"], "late work ran, or was freed off the main thread")
      XCTAssertEqual(queue.statistics.executed, 0)
      XCTAssertEqual(queue.statistics.added, 1)
    }
  }

  /// Work that comes to a stale task before a pass saw it is released, on the main thread, when the pass skips it.
  func testWorkThatCameToAStaleTaskIsReleasedWhenItIsSkipped() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let cell = FakeCell()
      let log = TextLog()
      let later = queue.addLaterTask(for: cell, at: row(1))
      do {
        let probe = ReleaseProbe(log)
        later.fulfill { _ in log.append("ran \(probe)") }
      }
      queue.bind(cell, to: row(9))
      driver.drain()
      XCTAssertEqual(log.entries, ["main"])
      XCTAssertEqual(queue.statistics.skippedAsStale, 1)
    }
  }

  /// Work that never comes leaves the task pending until it is cancelled, evicted or its queue ends — each counted
  /// once; work that comes after that runs nothing and counts nothing.
  func testWorkThatNeverComesLeavesItPendingUntilItLeaves() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(maximumQueueLength: 2)
      var ran: [String] = []
      let cancelled = queue.addLaterTask(key: "cancelled")
      let evicted = queue.addLaterTask(key: "evicted")
      XCTAssertTrue(cancelled.handle.cancel())
      XCTAssertFalse(cancelled.handle.cancel(), "a task cancelled twice")
      queue.addTask(key: "x") { ran.append("x") }
      queue.addTask(key: "y") { ran.append("y") }  // full: the oldest, the later task, goes
      let ended = queue.addLaterTask(key: "ended")  // full again: "x" goes
      XCTAssertEqual(queue.statistics.pending, 2)
      queue.invalidate()
      for task in [cancelled, evicted, ended] { task.fulfill { _ in ran.append("late") } }
      driver.drain()
      XCTAssertEqual(ran, [])
      let statistics = queue.statistics
      XCTAssertEqual(statistics.added, 5)
      XCTAssertEqual(statistics.cancelled, 3)  // one by hand, two (`y` and `ended`) by the end
      XCTAssertEqual(statistics.evicted, 2)
      XCTAssertEqual(statistics.pending, 0)
    }
  }

  /// A queue that had ended takes no later task: its work, when it comes, is released and nothing counts.
  func testAnEndedQueueTakesNone() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      queue.invalidate()
      let later = queue.addLaterTask(key: 1)
      var ran = false
      later.fulfill { _ in ran = true }
      driver.drain()
      XCTAssertFalse(ran)
      XCTAssertEqual(queue.statistics.added, 0)
    }
  }

  /// A droppable later task goes on a memory warning, counted cancelled.
  func testADroppableOneGoesOnAMemoryWarning() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let later = queue.addLaterTask(key: 1, droppable: true)
      driver.sendMemoryWarning()
      XCTAssertEqual(queue.statistics.cancelled, 1)
      var ran = false
      later.fulfill { _ in ran = true }
      driver.drain()
      XCTAssertFalse(ran)
    }
  }

  /// On a queue fitted to frames whose display link stopped while it only waited, work that comes starts the link
  /// again before it runs, so the pass fits it to the frame.
  func testWorkThatComesStartsAStoppedFrameClock() {
    MainActor.assumeIsolated {
      let (queue, driver, source) = queueOnALinkThatKnowsItsFrame()
      defer { queue.invalidate() }
      let later = queue.addLaterTask(key: "photo", estimatedCost: 0.001)
      driver.drain()
      driver.advance(by: 1)
      driver.drain()
      XCTAssertFalse(source.isRunning, "the link ran on while the queue only waited")
      var linkRan: Bool?
      later.fulfill { _ in linkRan = source.isRunning }
      driver.runPass()  // takes the work in: the link starts, and the pass waits for its first frame
      XCTAssertTrue(source.isRunning, "the work came and the link stayed stopped")
      source.deadline = driver.now + 0.012
      source.tick()  // the link's first frame: a pass comes with it
      driver.runPass()
      XCTAssertEqual(linkRan, true, "the work ran with the link stopped")
    }
  }

  /// `onAbandon` is called once when the task leaves without running — at once inside `bind` when its cell shows
  /// another row, and when it is evicted, cancelled, dropped on a memory warning or its queue ends — and never for
  /// a task whose work ran.
  func testOnAbandonIsCalledOnceWhenTheTaskLeavesWithoutRunning() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue(maximumQueueLength: 3)
      var abandoned: [String] = []
      let cell = FakeCell()
      _ = queue.addLaterTask(for: cell, at: row(1), onAbandon: { abandoned.append("stale") })
      queue.bind(cell, to: row(2))
      XCTAssertEqual(abandoned, ["stale"], "not told at once, inside bind")
      XCTAssertEqual(queue.statistics.skippedAsStale, 1)
      let cancelled = queue.addLaterTask(key: "cancelled", onAbandon: { abandoned.append("cancelled") })
      cancelled.handle.cancel()
      cancelled.handle.cancel()
      _ = queue.addLaterTask(key: "dropped", droppable: true, onAbandon: { abandoned.append("dropped") })
      driver.sendMemoryWarning()
      let ran = queue.addLaterTask(key: "ran", onAbandon: { abandoned.append("ran") })
      ran.fulfill { _ in }
      driver.drain()
      for name in ["evicted", "x", "y"] {
        _ = queue.addLaterTask(key: name, onAbandon: { abandoned.append(name) })
      }
      _ = queue.addLaterTask(key: "z", onAbandon: { abandoned.append("z") })  // full: the oldest goes
      queue.invalidate()
      _ = queue.addLaterTask(key: "after the end", onAbandon: { abandoned.append("after the end") })
      XCTAssertEqual(abandoned, ["stale", "cancelled", "dropped", "evicted", "x", "y", "z", "after the end"])
      XCTAssertEqual(queue.statistics.executed, 1)
    }
  }

  /// `onDisplayChange` follows the cell off screen and back while the task waits, and is not called once it left.
  func testOnDisplayChangeFollowsTheCellWhileTheTaskWaits() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let cell = FakeCell()
      var changes: [Bool] = []
      let later = queue.addLaterTask(for: cell, at: row(1), onDisplayChange: { changes.append($0) })
      queue.cellDidEndDisplaying(cell, at: row(1))
      queue.cellWillDisplay(cell, at: row(1))
      XCTAssertEqual(changes, [false, true])
      later.fulfill { _ in }
      driver.drain()
      queue.cellDidEndDisplaying(cell, at: row(1))
      XCTAssertEqual(changes, [false, true], "told after the task ran")
    }
  }

  /// A task added for a cell that is off screen (its configuration stands: the same row) is told so at once, so a loader
  /// starts it at the right priority; and again when the cell comes back.
  func testOnDisplayChangeTellsAtOnceThatTheCellIsOffScreen() {
    MainActor.assumeIsolated {
      let (queue, _) = manualQueue()
      let cell = FakeCell()
      queue.bind(cell, to: row(1))
      queue.cellDidEndDisplaying(cell, at: row(1))
      var changes: [Bool] = []
      _ = queue.addLaterTask(for: cell, at: row(1), onDisplayChange: { changes.append($0) })
      XCTAssertEqual(changes, [false], "not told that its cell was off screen when it was added")
      queue.cellWillDisplay(cell, at: row(1))
      XCTAssertEqual(changes, [false, true])
      var shownTaskChanges: [Bool] = []
      _ = queue.addLaterTask(for: cell, at: row(1), onDisplayChange: { shownTaskChanges.append($0) })
      XCTAssertEqual(shownTaskChanges, [], "a cell on screen is the default: nothing to tell")
    }
  }

  /// An `onAbandon` that configures the cell for a third row, called while a task for a second row is being added
  /// (the add configures the cell, which abandons the first row's task): the second row's task never runs on the
  /// cell that now shows the third; it is skipped as stale.
  func testACallbackThatConfiguresTheCellAgainDuringAnAddLeavesTheNewTaskStale() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let cell = FakeCell()
      var ran: [String] = []
      _ = queue.addLaterTask(for: cell, at: row(1), onAbandon: { queue.bind(cell, to: row(3)) })
      let second = queue.addLaterTask(for: cell, at: row(2))
      second.fulfill { _ in ran.append("row 2's work") }
      driver.drain()
      XCTAssertEqual(ran, [], "a task for row 2 ran on a cell showing row 3")
      XCTAssertEqual(queue.statistics.skippedAsStale, 2)
      XCTAssertEqual(queue.statistics.pending, 0)
    }
  }

  /// A cell that gets a later task for the same row again and again, never configured again, keeps none of those
  /// that left.
  func testTasksThatLeftAreNotKeptByTheirCell() {
    MainActor.assumeIsolated {
      let (queue, driver) = manualQueue()
      let cell = FakeCell()
      for index in 0..<100 {
        let later = queue.addLaterTask(for: cell, at: row(1))
        if index % 2 == 0 { later.fulfill { _ in } } else { later.handle.cancel() }
        driver.drain()
      }
      XCTAssertEqual(queue.core.cells.live(cell)?.laterTasks?.count ?? 0, 0, "the cell kept later tasks that had left")
      XCTAssertEqual(queue.statistics.executed, 50)
      XCTAssertEqual(queue.statistics.cancelled, 50)
    }
  }
}
