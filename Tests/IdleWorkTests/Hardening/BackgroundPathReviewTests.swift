import Foundation
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// Adversarial review of issue 24 (the background path): each test failed on the commit it was written
/// against (3 of 3 runs) and names the bug it shows; each bug is fixed.
final class BackgroundPathReviewTests: XCTestCase {
  // MARK: Frame clock

  /// BUG (Core/QueueCore.swift `updateFrameClock`, `clockIdleSince`): the 0.1 s keep-alive while only results
  /// are awaited is measured from `clockIdleSince`, which is reset only by an `updateFrameClock` that sees
  /// runnable work. Nothing resets it when a task is added (`enqueue` starts the clock but leaves the stale
  /// mark), and the pass after adding a prepared task never sees runnable work (the task is `.preparing`, so
  /// `onlyParkedLeft` is set before `updateFrameClock` runs). So a queue that was last idle more than 0.1 s ago
  /// — the ordinary case: a row scrolls in after the user paused — stops the display link in the very pass
  /// after the task is added. The result that arrives a few milliseconds later restarts the clock, which then
  /// waits for a first tick: the apply slips a frame — the exact case the keep-alive exists for
  /// (CHANGELOG/`clockKeepAliveWhilePreparing`: "a result that arrives meanwhile (the usual case) is admitted
  /// against a frame it knows"). The existing test passes only because its queue ran a task just before.
  func testTheClockKeepsRunningForAResultDueSoonAfterTheQueueWasIdle() {
    MainActor.assumeIsolated {
      let (queue, driver, source) = PreparedReviewTests.queueOnALinkThatKnowsItsFrame()
      driver.runPass()  // idle: nothing pending
      driver.advance(by: 0.5)  // the user reads the screen for half a second
      source.deadline = driver.now + 1.0 / 60
      var applied: [Int] = []
      queue.addTask(key: 0, estimatedCost: 0.002) { _ in
        0
      } apply: {
        applied.append($0)
      }
      XCTAssertTrue(source.isRunning, "adding the task starts the clock")
      let stopsBefore = source.stops
      driver.runPass()  // only a task waiting for its result, which is due in a few milliseconds
      XCTAssertTrue(
        source.isRunning && source.stops == stopsBefore,
        "the display link was stopped in the first pass after the task was added (keep-alive measured from "
          + "the queue's last idle moment, 0.5 s ago, not from when it began awaiting the result)")
      queue.invalidate()
    }
  }

  // MARK: Pass accounting

  /// BUG (Core/QueueCore.swift `serve`, `let start = takenIn?.start ?? …` with RunLoop/IdleScheduler.swift
  /// `runPass` calling `takeInForPass()` for every queue before serving any): a queue's pass now begins when
  /// its take-in began, and every queue's take-in runs before the first queue is served. So on a shared
  /// scheduler the second queue's own `.seconds` budget and its `longestPassDuration` are charged the whole
  /// time the first queue's tasks took (before 0f02e08 `start` was read when the queue's own serve began).
  /// This holds even for queues with no prepared task (`passTakeIn` is always set): a lower-priority queue
  /// with a time budget runs one task per pass whenever a higher one ran longer than its budget, and reports
  /// passes it never spent.
  func testASecondQueuesOwnBudgetIsNotChargedTheFirstQueuesTasks() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let scheduler = IdleScheduler(driver: driver.core, budget: nil)
      let first = IdleQueue(scheduler: scheduler, priority: 10, configuration: .init(budget: .tasks(1)))
      let second = IdleQueue(scheduler: scheduler, priority: 0, configuration: .init(budget: .seconds(0.008)))
      var log: [String] = []
      first.addTask(key: 0, estimatedCost: 0.010) {
        log.append("first")
        driver.advance(by: 0.010)
      }
      for i in 0..<2 {
        second.addTask(key: i, estimatedCost: 0.001) {
          log.append("second \(i)")
          driver.advance(by: 0.001)
        }
      }
      driver.runPass()
      XCTAssertEqual(
        log, ["first", "second 0", "second 1"],
        "the second queue's 8 ms budget was charged the first queue's 10 ms task: it ran one 1 ms task")
      XCTAssertEqual(
        second.statistics.longestPassDuration, 0.002, accuracy: 1e-9,
        "the second queue's longest pass includes the first queue's task")
      withExtendedLifetime((first, second)) {}
    }
  }

  // MARK: Worker pool

  /// A render driven straight on a pool: counts set as `addPreparedTask` sets them for a visible row.
  private func visibleRender(
    _ line: RenderLine, _ work: @escaping @Sendable (_ isCancelled: @Sendable () -> Bool) throws -> any Sendable
  ) -> Render {
    let render = Render(
      line: line, content: nil, resultBytes: nil, prepare: { context in try work(context.isCancelled) })
    (render.live, render.wanted, render.urgent, render.cells) = (1, 1, 1, 0)
    return render
  }

  /// BUG (Prepare/WorkerPool.swift `work()`, loop condition `threads <= limit`, with `closeLocked` lowering
  /// `limit`): when a queue ends while its renders run, the pool's limit drops at once but its threads still
  /// run those orphaned renders. The first worker to finish *any* render then sees `threads > limit` and
  /// ends — even when it is the worker of a live queue whose next render is waiting, below that queue's own
  /// bound — while the thread running the dead queue's orphan (which ignores `isCancelled`, or just takes
  /// long) survives. The live queue's visible row then waits, with none of its renders running, until the
  /// dead queue's render ends: one queue's renders are held back by another queue's (ended) work.
  func testAQueuesRenderIsNotHeldBackByAnEndedQueuesRunningRender() {
    let pool = WorkerPool(byHand: false)
    let lineA = RenderLine(pool: pool, limit: 1, wake: {}, checkCells: { _ in })
    let lineB = RenderLine(pool: pool, limit: 2, wake: {}, checkCells: { _ in })
    let orphanGate = DispatchSemaphore(value: 0)
    let firstGate = DispatchSemaphore(value: 0)
    let orphanStarted = DispatchSemaphore(value: 0)
    let firstStarted = DispatchSemaphore(value: 0)
    let secondStarted = DispatchSemaphore(value: 0)
    // B's render: runs on past its queue's end (a decode that does not poll `isCancelled`).
    lineB.submit(
      visibleRender(lineB) { _ in
        orphanStarted.signal()
        orphanGate.wait()
        return 0
      })
    XCTAssertEqual(orphanStarted.wait(timeout: .now() + 10), .success)
    lineA.submit(
      visibleRender(lineA) { _ in
        firstStarted.signal()
        firstGate.wait()
        return 1
      })
    XCTAssertEqual(firstStarted.wait(timeout: .now() + 10), .success)
    // A's next visible row: held back by A's bound (1) while A's first render runs.
    lineA.submit(
      visibleRender(lineA) { _ in
        secondStarted.signal()
        return 2
      })
    // Queue B ends (its screen closed) while its render still runs.
    let closed = lineB.close()
    withExtendedLifetime(closed) {}
    // A's first render ends: A has nothing running, its second render waits, its bound allows one.
    firstGate.signal()
    let started = secondStarted.wait(timeout: .now() + 5)
    XCTAssertEqual(
      started, .success,
      "queue A's waiting render did not start with none of A's renders running: its worker ended (threads > "
        + "limit after B closed) while B's orphaned render keeps the pool's only allowed thread")
    orphanGate.signal()
    if started != .success { _ = secondStarted.wait(timeout: .now() + 10) }
    let closedA = lineA.close()
    withExtendedLifetime(closedA) {}
  }
}
