import Foundation
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// A review of the issue-16 deadline layer (PassPlanner, FrameClock, the rewritten `QueueCore.serve`).
/// Each test states what the docs or the issue promise; each failed on the first version of the layer and
/// passes since its fix (the doc comments describe the code as it was then).
final class ReviewFindingsTests: XCTestCase {
  typealias Frames = FrameDeadlineTests.Frames

  /// Starts a 60 Hz frame on `frames` and runs one tracking pass at its start.
  @MainActor
  private static func trackingPassAtFrameStart(_ driver: ManualPassDriver, _ frames: Frames) {
    frames.deadline = driver.now + 1.0 / 60
    driver.runTrackingPass()
    driver.advance(by: 1.0 / 60)
  }

  // MARK: A never-measured task behind a passed-over head

  /// The planner treats a cost never measured as "never fitting" during a scroll (its own comment), yet
  /// only a *measured* never-fitting task is passed over. An unmeasured task behind a passed-over head is
  /// not the first of its pass (`isBehindHead`), so it is never probed, and it ends every tracking pass with
  /// `.wait`: it and every task behind it — here a 1 ms task that fits — wait for the whole scroll. This is
  /// issue 16 item 3 again, one task further back: the first draw of a screen (a cell task, a kind never
  /// measured) behind one heavy known task leaves every row blank through a fling.
  func testDuringAScrollAnUnmeasuredDrawBehindABlockedHeadBlocksEverythingBehindIt() {
    MainActor.assumeIsolated {
      let (queue, driver, frames) = FrameDeadlineTests.feedQueueThatKnows60Hz()
      var order: [String] = []
      queue.addTask(key: "big", estimatedCost: 0.020) { order.append("big") }
      let cell = FakeCell()
      queue.bind(cell, to: row(0))
      queue.addTask(for: cell, at: row(0)) { _ in
        order.append("draw")
        driver.advance(by: 0.002)
      }
      queue.addTask(key: "small", estimatedCost: 0.001) {
        order.append("small")
        driver.advance(by: 0.001)
      }
      for _ in 0..<120 { Self.trackingPassAtFrameStart(driver, frames) }
      XCTAssertTrue(
        order.contains("small"),
        "a 1 ms task that fits stays blocked for 120 frames of scrolling behind an unmeasured draw; ran: \(order)")
      XCTAssertTrue(
        order.contains("draw"),
        "the unmeasured draw is never probed: it is never the first task of a pass once the head is passed over")
      withExtendedLifetime(cell) {}
    }
  }

  // MARK: A passed-over head under a `.seconds` budget

  /// `.scrollingFeed` budgets `.seconds(1/60)`. After one task behind a passed-over head runs, the next
  /// search restarts at the head, and the budget check (which comes before the frame check) compares the
  /// head's 20 ms prediction with the budget left and ends the pass as `.budgetSpent`, although the head
  /// would only have been passed over again. So a never-fitting head lets exactly one task run per tracking
  /// pass where three 1 ms tasks fit in the frame (without the head, all three run in that one pass).
  func testUnderTheScrollingFeedBudgetABlockedHeadLetsOnlyOneTaskThroughPerPass() {
    MainActor.assumeIsolated {
      @MainActor func run(withBigHead: Bool) -> [String] {
        let (queue, driver, frames) = FrameDeadlineTests.feedQueueThatKnows60Hz()
        var order: [String] = []
        if withBigHead { queue.addTask(key: "big", estimatedCost: 0.020) { order.append("big") } }
        for i in 0..<3 {
          queue.addTask(key: i, estimatedCost: 0.001) {
            order.append("small \(i)")
            driver.advance(by: 0.001)
          }
        }
        Self.trackingPassAtFrameStart(driver, frames)
        return order
      }
      XCTAssertEqual(run(withBigHead: false), ["small 0", "small 1", "small 2"], "control: all three fit one frame")
      XCTAssertEqual(
        run(withBigHead: true), ["small 0", "small 1", "small 2"],
        "the passed-over head's prediction spent the budget for the tasks behind it")
    }
  }

  // MARK: The lookahead bound counts repeated pass-overs of one head

  /// `PassPlanner.Candidate.passedOver` is documented as "how many tasks were passed over to reach it" and
  /// `lookahead` as how many tasks a pass looks at past a never-fitting task. But `serve` never resets its
  /// counter after a run and restarts each search at the head, so one blocked head passed over 32 times
  /// (once per task run behind it) ends the pass: with budget for 100 tasks and 40 tiny tasks behind one
  /// blocked head, a tracking pass runs 32 and stops with `.nothingRunnable`.
  func testTheLookaheadBoundCountsRunsBehindOneHeadNotTasksPassedOver() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let frames = Frames(driver, deadline: 1.0 / 60)
      var configuration = IdleQueue.Configuration.scrollingFeed(timeUntilNextFrame: { frames.timeLeft })
      configuration.budget = .tasks(100)
      configuration.maximumQueueLength = 100
      let queue = IdleQueue(driver: driver, configuration: configuration)
      queue.addTask(key: "learn the frame") {}
      driver.runPass()
      var ran = 0
      queue.addTask(key: "big", estimatedCost: 0.020) {}
      for i in 0..<40 { queue.addTask(key: i, estimatedCost: 0.000_01) { ran += 1 } }
      Self.trackingPassAtFrameStart(driver, frames)
      XCTAssertEqual(ran, 40, "one task was passed over, 40 tiny tasks fit the frame and the budget")
    }
  }

  // MARK: A passed deadline remembered across a drained queue

  /// `FrameClock.passedSince` is reset only by a reading with time left or with no frame; `FrameClock.stop()`
  /// (called by `updateFrameClock` when the queue drains) leaves it. A passed reading, then the queue drained,
  /// then — a second later — work again and a *new* deadline read just after its vsync (its callback still
  /// due): the clock compares with the moment it first saw the *old* deadline passed, judges itself stopped
  /// at once (`.noFrame`), and the whole pass runs unbounded — five 6 ms tasks, 30 ms, two frames dropped —
  /// where a fresh episode reads `.late` and waits for the clock to move on (as
  /// `testADeadlineThatStaysPassedNeitherSpinsNorStarves` shows for a queue's first passed reading).
  /// Reachable with a `timeUntilNextFrame` closure (the display-link source reads `nil` until its first tick
  /// after a start, which resets the episode). Under `.scrollingFeed` a tracking pass is safe (`.noFrame`
  /// runs nothing while scrolling); idle passes are not.
  func testAPassedDeadlineSeenBeforeTheQueueDrainedDoesNotMakeANewFrameCountAsStopped() {
    MainActor.assumeIsolated {
      let (queue, driver, frames) = FrameDeadlineTests.deadlineQueue(budget: .tasks(100), deadline: 1.0 / 60)
      queue.addTask(key: "learn the frame") {}
      driver.runPass()
      // Right after a vsync, before the clock's callback: the deadline has just passed.
      frames.deadline = driver.now - 0.0005
      queue.addTask(key: "first", estimatedCost: 0.001) {}
      driver.runPass()
      XCTAssertEqual(queue.pendingTaskCount, 1, "a passed deadline: the pass waits")
      queue.removeAllTasks()
      driver.runPass()  // at rest: the queue is drained, its frame clock stopped
      driver.advance(by: 1)
      // A second later, a new frame's deadline has just passed (its callback is due).
      frames.deadline = driver.now - 0.0005
      var ran = 0
      for i in 0..<5 {
        queue.addTask(key: i, estimatedCost: 0.006) {
          ran += 1
          driver.advance(by: 0.006)
        }
      }
      let before = driver.now
      driver.runPass()
      XCTAssertEqual(
        ran, 0,
        "a deadline passed for 0.5 ms was judged a stopped clock: \(ran) tasks ran in one unbounded pass of "
          + "\(Int(((driver.now - before) * 1000).rounded())) ms")
    }
  }
}
