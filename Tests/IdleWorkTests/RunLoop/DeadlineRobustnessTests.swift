import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// The frame-deadline layer degrades to the no-frame behaviour instead of spinning or starving: a deadline that
/// stays passed, frames of another rate, a task that never fits at the head during a scroll, huge clocks, and
/// costs measured for one kind of task. Each test says what would go wrong without the behaviour it pins.
final class DeadlineRobustnessTests: XCTestCase {
  typealias Frames = ManualFrames

  /// Starts a 60 Hz frame on `frames` and runs one tracking pass at its start.
  @MainActor
  private static func trackingPassAtFrameStart(_ driver: ManualPassDriver, _ frames: Frames) {
    frames.deadline = driver.now + 1.0 / 60
    driver.runTrackingPass()
    driver.advance(by: 1.0 / 60)
  }

  // MARK: A passed deadline

  /// A passed deadline makes a pass wait for the clock, not ask for another at once: were a passed deadline
  /// admitted as `.wait(0)`, every pass would ask for the next and run nothing (`drain(maximumPasses: 10_000)`
  /// would run all 10,000 passes, and the task never).
  func testADeadlineThatStaysPassedNeitherSpinsNorStarves() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(
        driver: driver, configuration: .init(budget: .tasks(5), scrolling: .fitToFrames(timeUntilNextFrame: { -0.005 }))
      )
      var ran = false
      queue.addTask(key: "draw") { ran = true }
      XCTAssertEqual(driver.drain(maximumPasses: 10_000), 1, "one pass, then no pass is asked for at once")
      XCTAssertFalse(ran, "right after a vsync the deadline may be about to move on: the pass waits")
      XCTAssertFalse(driver.isPassRequested, "no polling")
      driver.advance(by: Double(FrameClock.staleAfter(frameLength: 0)) / 1e9)
      XCTAssertTrue(driver.isPassRequested, "a pass is due when the clock counts as stopped")
      driver.drain(maximumPasses: 10)
      XCTAssertTrue(ran, "a stopped clock means no frame pending: the task runs by the budget alone")
      XCTAssertEqual(queue.statistics.executed, 1)
    }
  }

  /// The same with the `.scrollingFeed` preset, a display link that stopped ticking with its last target in
  /// the past (the app went to the background with work pending): idle passes run the work, tracking passes
  /// run nothing (no frame known), and nothing spins.
  func testThePresetWithAStoppedClockRunsIdleWorkAndNothingWhileScrolling() {
    MainActor.assumeIsolated {
      let (queue, driver, frames) = FrameDeadlineTests.feedQueue()
      frames.deadline = 0.0166
      queue.addTask(key: "learn") {}
      driver.runPass()
      frames.deadline = driver.now - 0.001  // its last target, now in the past, never moves again
      var ran = 0
      for i in 0..<3 { queue.addTask(key: i, estimatedCost: 0.002) { ran += 1 } }
      driver.advance(by: 1)
      driver.runTrackingPass()
      XCTAssertEqual(ran, 0, "a passed deadline runs nothing during a scroll")
      XCTAssertLessThanOrEqual(driver.drain(maximumPasses: 10_000), 1)
      driver.advance(by: 0.1)
      driver.runTrackingPass()
      XCTAssertEqual(ran, 0, "a stopped clock is no frame known: nothing while scrolling")
      driver.runPass()  // the scroll ended: the loop is about to sleep in the default mode
      driver.drain(maximumPasses: 10_000)
      XCTAssertEqual(ran, 3, "idle passes run the work by the budget")
    }
  }

  /// The same on the real run loop: a few turns and one pass, where polling the clock would turn the loop
  /// about 10,000 times in 0.5 s and never run the task.
  func testOnTheRealRunLoopAPassedDeadlineCostsAFewTurnsAndTheTaskRuns() {
    MainActor.assumeIsolated {
      let queue = IdleQueue(configuration: .init(scrolling: .fitToFrames(timeUntilNextFrame: { -0.005 })))
      defer { queue.invalidate() }
      let turns = PassCounter()
      defer { turns.remove() }
      var ran = false
      queue.addTask(key: "draw") { ran = true }
      spin(until: { ran }, timeout: 2)
      XCTAssertLessThan(turns.count, 50, "the loop waited for the clock instead of polling it")
      XCTAssertEqual(queue.statistics.passes, 1)
    }
  }

  /// A passed deadline seen before the queue drained does not make a new frame's passed deadline count as a stopped
  /// clock: after a passed reading, the queue drained (its frame clock stopped), then a second later work again and
  /// a new deadline read just after its vsync (its callback still due), the pass reads `.late` and waits for the
  /// clock to move on, as `testADeadlineThatStaysPassedNeitherSpinsNorStarves` shows for a queue's first passed
  /// reading, rather than running five 6 ms tasks unbounded (30 ms, two frames dropped). Reachable with a
  /// `timeUntilNextFrame` closure (the display-link source reads `nil` until its first tick after a start). Under
  /// `.scrollingFeed` a tracking pass is safe (`.noFrame` runs nothing while scrolling); idle passes are not.
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
      queue.cancelAllTasks()
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

  // MARK: The frame length follows the rate

  /// The frame length follows the rate: were it the most time left ever read, then after one 60 Hz frame and
  /// 120 Hz frames only, a 10 ms task would "fit a frame" and wait for 10 ms left, which never comes.
  func testAfterASwitchTo120HzATaskLongerThanAFrameRunsAtAFramesStart() {
    MainActor.assumeIsolated {
      let (queue, driver, frames) = FrameDeadlineTests.deadlineQueue(deadline: 1.0 / 60)
      queue.addTask(key: "60 Hz frame") {}
      driver.runPass()
      var ran = false
      queue.addTask(key: "long", estimatedCost: 0.010) {
        ran = true
        driver.advance(by: 0.010)
      }
      var passes = 0
      while !ran, passes < 1_000 {
        driver.advance(by: max(0, frames.deadline! - driver.now))
        frames.deadline = driver.now + 1.0 / 120  // a 120 Hz frame begins; the pass comes at its start
        driver.runPass()
        passes += 1
      }
      XCTAssertTrue(ran, "the 10 ms task never ran")
      XCTAssertLessThanOrEqual(passes, FrameClock.recentFrames + 1, "the 60 Hz frame is forgotten within four frames")
    }
  }

  func testTheFrameLengthIsTheLongestTimeLeftOfTheLastFourFrames() {
    MainActor.assumeIsolated {
      let source = ScriptedSource()
      let clock = FrameClock(source: source)
      @MainActor func frame(at now: UInt64, left: Double) -> FrameReading {
        source.seconds = left
        return clock.read(now: now)
      }
      let ms: UInt64 = 1_000_000
      XCTAssertEqual(frame(at: 0, left: 0.016), .frame(timeLeft: 16 * Int64(ms), length: 16 * ms))
      XCTAssertEqual(
        frame(at: 4 * ms, left: 0.012), .frame(timeLeft: 12 * Int64(ms), length: 16 * ms),
        "the same frame (the same deadline) read later")
      for index in 1...3 {
        let start = 16 * ms + UInt64(index - 1) * 8 * ms
        XCTAssertEqual(
          frame(at: start, left: 0.008), .frame(timeLeft: 8 * Int64(ms), length: 16 * ms),
          "frame \(index) at 120 Hz: the 60 Hz frame is among the last four")
      }
      XCTAssertEqual(frame(at: 40 * ms, left: 0.008), .frame(timeLeft: 8 * Int64(ms), length: 8 * ms))
      source.duration = 1.0 / 60
      XCTAssertEqual(
        frame(at: 48 * ms, left: 0.008), .frame(timeLeft: 8 * Int64(ms), length: 16_666_667),
        "a source that knows its frame duration wins")
    }
  }

  func testAPassedDeadlineIsLateForOneFrameThenNoFrame() {
    MainActor.assumeIsolated {
      let source = ScriptedSource()
      let clock = FrameClock(source: source)
      let ms: UInt64 = 1_000_000
      source.seconds = 0.008
      _ = clock.read(now: 0)
      source.seconds = -0.001
      let grace = FrameClock.staleAfter(frameLength: 8 * ms)
      XCTAssertEqual(grace, 16_666_667, "at least one 60 Hz frame")
      // The frame the clock's next callback asks for is due a frame after the deadline that passed: in 7 ms.
      XCTAssertEqual(clock.read(now: 9 * ms), .late(retryIn: grace, nextFrameIn: 7 * Int64(ms)))
      XCTAssertEqual(clock.read(now: 9 * ms + grace - 1), .late(retryIn: 1, nextFrameIn: 7 * Int64(ms)))
      XCTAssertEqual(clock.read(now: 9 * ms + grace), .noFrame, "still passed a frame later: the clock stopped")
      source.seconds = 0.008
      XCTAssertEqual(clock.read(now: 30 * ms), .frame(timeLeft: 8 * Int64(ms), length: 8 * ms), "it ticks again")
      source.seconds = -0.001
      XCTAssertEqual(
        clock.read(now: 39 * ms), .late(retryIn: grace, nextFrameIn: 7 * Int64(ms)),
        "a new passed deadline gets its grace again")
    }
  }

  // MARK: A blocked head during a scroll

  /// A 20 ms task at the head, three 1 ms tasks behind it, 120 tracking passes at a 60 Hz frame's start: the
  /// three run in FIFO order, and the head runs in the first idle pass.
  func testDuringAScrollATaskThatNeverFitsLetsTheTasksBehindItRun() {
    MainActor.assumeIsolated {
      let (queue, driver, frames) = FrameDeadlineTests.feedQueueThatKnows60Hz()
      var order: [String] = []
      queue.addTask(key: "big", estimatedCost: 0.020) { order.append("big") }
      for i in 0..<3 {
        queue.addTask(key: i, estimatedCost: 0.001) {
          order.append("small \(i)")
          driver.advance(by: 0.001)
        }
      }
      for _ in 0..<120 {
        frames.deadline = driver.now + 1.0 / 60
        driver.runTrackingPass()
        driver.advance(by: 1.0 / 60)
      }
      XCTAssertEqual(order, ["small 0", "small 1", "small 2"], "the tasks that fit ran, in FIFO order")
      XCTAssertEqual(queue.pendingTaskCount, 1, "the task that fits no frame keeps its place")
      frames.deadline = driver.now + 1.0 / 60
      driver.runPass()
      XCTAssertEqual(order.last, "big", "it runs in the first idle pass at a frame's start")
    }
  }

  /// During a scroll a task that fits a frame but not the time left still ends the pass: FIFO holds for
  /// every task that can run while scrolling.
  func testDuringAScrollATaskThatFitsAFrameButNotNowKeepsTheOthersBehindIt() {
    MainActor.assumeIsolated {
      let (queue, driver, frames) = FrameDeadlineTests.feedQueueThatKnows60Hz()
      var order: [String] = []
      queue.addTask(key: "draw", estimatedCost: 0.008) { order.append("draw") }
      queue.addTask(key: "small", estimatedCost: 0.001) { order.append("small") }
      frames.deadline = driver.now + 0.004
      driver.runTrackingPass()
      XCTAssertEqual(order, [], "8 ms does not fit in 4 ms; the small task waits behind it")
      frames.deadline = driver.now + 1.0 / 60
      driver.runTrackingPass()
      XCTAssertEqual(order, ["draw", "small"])
    }
  }

  /// During a scroll, a task never measured behind a passed-over head is still probed at a frame's start, and the
  /// tasks behind it (here a 1 ms task that fits) run too. The planner treats a cost never measured as never fitting
  /// and probes it only as the first task of a pass; if a task behind a passed-over head never counted as that, it
  /// would end every tracking pass: the first draw of a screen (a cell task, a kind never measured) behind one heavy
  /// known task would leave every row blank through a fling.
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

  /// Under `.scrollingFeed`'s `.seconds(1/60)` budget, a passed-over head's prediction is not charged against the
  /// budget of the tasks behind it: three 1 ms tasks behind a never-fitting 20 ms head all run in the one tracking
  /// pass, as they do without the head (the budget check comes before the frame check, and each search restarts at
  /// the head).
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

  /// The lookahead bound (`PassPlanner.Candidate.passedOver`: how many tasks were passed over to reach a candidate)
  /// counts tasks passed over, not the times one blocked head is passed over as each search restarts at the head:
  /// with a budget of 100 tasks and 40 tiny tasks behind one blocked head, a tracking pass runs all 40.
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

  // MARK: Huge clocks

  /// A huge finite time left (`1e10` s) and a huge advance of the manual clock (`1e11` s) are clamped, where
  /// converting them to nanoseconds would trap (`Int64(1e19)`, `UInt64(1e20)`).
  func testAHugeFiniteDeadlineAndAHugeAdvanceAreClamped() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver, configuration: .init(scrolling: .fitToFrames(timeUntilNextFrame: { 1e10 })))
      var ran = false
      queue.addTask(key: 0, estimatedCost: 0.004) { ran = true }
      driver.runPass()
      XCTAssertTrue(ran, "316 years left: the task fits")
      driver.advance(by: 1e11)
      driver.advance(by: 1e11)
      XCTAssertEqual(driver.now, Double(Int64.max) / 1e9, accuracy: 1)
      queue.addTask(key: 1) {}
      driver.runPass()
      XCTAssertEqual(queue.statistics.executed, 2)
      XCTAssertLessThanOrEqual(FrameClock.nanoseconds(-1e300), -(Int64.max / 4) + 1, "clamped, no trap")
    }
  }

  // MARK: Costs measured per kind

  /// Costs are measured per kind of task: one tiny measured keyed task does not make a never-measured cell
  /// draw "known" (and cheap) during a scroll, which would then run mid-frame.
  func testATinyMeasuredTaskDoesNotMakeACellDrawKnown() {
    MainActor.assumeIsolated {
      let (queue, driver, frames) = FrameDeadlineTests.feedQueue()
      frames.deadline = 1.0 / 60
      queue.addTask(key: "bookkeeping") { driver.advance(by: 0.000_01) }
      driver.runPass()
      let cell = FakeCell()
      var drawn = false
      queue.bind(cell, to: row(0))
      queue.addTask(for: cell, at: row(0)) { _ in drawn = true }
      frames.deadline = driver.now + 0.004  // mid-frame: 4 ms left
      driver.runTrackingPass()
      XCTAssertFalse(drawn, "a draw never measured is tried only at a frame's start")
      frames.deadline = driver.now + 1.0 / 60
      driver.runTrackingPass()
      XCTAssertTrue(drawn, "at the frame's start it runs, and is measured")
    }
  }
}
