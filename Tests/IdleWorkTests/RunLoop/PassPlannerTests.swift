import Foundation
import TestHelpers
import XCTest

@_spi(IdleWorkTesting) @testable import IdleWork

/// Every decision a pass makes, as a pure function of the candidate, the predictor, the
/// budgets and the clock's reading — no queue, no run loop.
final class PassPlannerTests: XCTestCase {
  static let ms: UInt64 = 1_000_000
  static let frame60 = 16_666_667 as UInt64

  /// An idle pass at a 60 Hz frame's start with a `.tasks(10)` budget and a 2 ms measured task at the head.
  func input(
    _ kind: IdlePassKind = .idle, candidate: PassPlanner.Candidate? = .init(costKind: .task, estimate: 2 * ms),
    frame: FrameReading? = .frame(timeLeft: Int64(frame60), length: frame60),
    scrolling: PassPlanner.Scrolling = .fitToFrames, budget: IdleQueue.Budget = .tasks(10), tasksRun: Int = 0
  ) -> PassPlanner.Input {
    var own = BudgetMeter(budget, start: 0)
    for _ in 0..<tasksRun { own.recordTask() }
    return .init(
      kind: kind, candidate: candidate, predictor: CostPredictor(), own: own, now: 0, frame: frame,
      scrolling: scrolling)
  }

  func left(_ milliseconds: Double) -> FrameReading {
    .frame(timeLeft: Int64(milliseconds * 1e6), length: Self.frame60)
  }

  func testNothingRunsWhileScrollingWithoutASetting() {
    XCTAssertEqual(PassPlanner.next(input(.tracking, scrolling: .pause)), .end(.notWhileScrolling))
    XCTAssertEqual(PassPlanner.next(input(.idle, scrolling: .pause)), .run(probes: false), "idle passes run")
  }

  func testThePresetRunsNothingWhileScrollingWithNoFrameKnown() {
    XCTAssertEqual(PassPlanner.next(input(.tracking, frame: nil)), .end(.noFrameKnown), "no frame clock at all")
    XCTAssertEqual(PassPlanner.next(input(.tracking, frame: .noFrame)), .end(.noFrameKnown), "none pending, or stopped")
    XCTAssertEqual(PassPlanner.next(input(.idle, frame: .noFrame)), .run(probes: false), "idle: the budget alone")
  }

  func testBudgets() {
    XCTAssertEqual(PassPlanner.next(input(candidate: nil)), .end(.nothingRunnable))
    XCTAssertEqual(PassPlanner.next(input(budget: .tasks(1), tasksRun: 1)), .end(.budgetSpent))
    XCTAssertEqual(
      PassPlanner.next(input(budget: .seconds(0.001), tasksRun: 1)), .end(.budgetSpent),
      "a 2 ms prediction does not fit what is left of 1 ms")
    XCTAssertEqual(PassPlanner.next(input(budget: .seconds(0.001))), .run(probes: false), "the first task starts")
  }

  func testWithoutAFrameClockTheBudgetDecides() {
    XCTAssertEqual(
      PassPlanner.next(input(candidate: .init(costKind: .task, estimate: 50 * Self.ms), frame: nil)),
      .run(probes: false))
  }

  func testAPassedDeadlineWaitsForTheClock() {
    XCTAssertEqual(PassPlanner.next(input(frame: .late(retryIn: 7, nextFrameIn: nil))), .wait(7))
    XCTAssertEqual(PassPlanner.next(input(.tracking, frame: .late(retryIn: 7, nextFrameIn: nil))), .wait(7))
    XCTAssertEqual(
      PassPlanner.next(input(frame: .late(retryIn: 16 * Self.ms, nextFrameIn: 7 * Int64(Self.ms)))),
      .wait(7 * Self.ms), "a task waits, no longer than until the next frame's deadline")
  }

  /// A prepared result's apply that fits before the frame the clock's due callback asks for runs at once: it is
  /// committed with that frame, where waiting for the callback put it in the next one and saved no frame.
  func testAnApplyThatFitsTheNextFrameRunsWhileTheClocksCallbackIsDue() {
    let late = FrameReading.late(retryIn: 16 * Self.ms, nextFrameIn: 7 * Int64(Self.ms))
    let apply = PassPlanner.Candidate(costKind: .apply, estimate: 150_000)
    XCTAssertEqual(PassPlanner.next(input(candidate: apply, frame: late)), .run(probes: false))
    XCTAssertEqual(PassPlanner.next(input(.tracking, candidate: apply, frame: late)), .run(probes: false))
    let longApply = PassPlanner.Candidate(costKind: .apply, estimate: 8 * Self.ms)
    XCTAssertEqual(
      PassPlanner.next(input(candidate: longApply, frame: late)), .wait(7 * Self.ms), "one that does not fit waits")
    XCTAssertEqual(
      PassPlanner.next(input(candidate: apply, frame: .late(retryIn: 16 * Self.ms, nextFrameIn: nil))),
      .wait(16 * Self.ms), "no frame length known: it waits for the clock")
  }

  func testAdmission() {
    XCTAssertEqual(PassPlanner.next(input(frame: left(3))), .run(probes: false), "2 ms + 0.5 ms fits in 3 ms")
    XCTAssertEqual(PassPlanner.next(input(frame: left(2.4))), .wait(2_400_000), "but not in 2.4 ms")
  }

  func testATaskLongerThanAFrameRunsFirstInAnIdlePassAtAFramesStart() {
    let long = PassPlanner.Candidate(costKind: .task, estimate: 20 * Self.ms)
    XCTAssertEqual(PassPlanner.next(input(candidate: long, frame: left(16))), .run(probes: false))
    XCTAssertEqual(PassPlanner.next(input(candidate: long, frame: left(8.4))), .run(probes: false), "half a frame")
    XCTAssertEqual(PassPlanner.next(input(candidate: long, frame: left(8))), .wait(8_000_000), "less than half")
    XCTAssertEqual(
      PassPlanner.next(input(candidate: long, frame: left(16), tasksRun: 1)), .wait(16_000_000), "not first")
  }

  func testDuringAScrollATaskThatNeverFitsIsPassedOver() {
    var long = PassPlanner.Candidate(costKind: .task, estimate: 20 * Self.ms)
    XCTAssertEqual(PassPlanner.next(input(.tracking, candidate: long, frame: left(16))), .passOver)
    long.passedOver = PassPlanner.lookahead
    XCTAssertEqual(
      PassPlanner.next(input(.tracking, candidate: long, frame: left(16))), .end(.nothingRunnable),
      "the search is bounded")
    XCTAssertEqual(
      PassPlanner.next(
        input(
          .tracking, candidate: .init(costKind: .task, estimate: 20 * Self.ms), frame: left(16),
          budget: .seconds(1.0 / 60), tasksRun: 1)),
      .passOver, "passed over before its prediction is charged to a budget it will never spend")
    let fitsAFrame = PassPlanner.Candidate(costKind: .task, estimate: 8 * Self.ms)
    XCTAssertEqual(
      PassPlanner.next(input(.tracking, candidate: fitsAFrame, frame: left(4))), .wait(4_000_000),
      "a task that fits a frame but not now keeps FIFO order")
  }

  /// An apply whose prediction — mostly its learned share of the commit — says it fits no frame is not passed
  /// over for the rest of the scroll, where no apply would run and no commit could correct the prediction: it is
  /// tried as the first task of a pass at a frame's start, and waits otherwise. Other kinds are still passed
  /// over. (FeedDemo's `photos` at 120 Hz left every row blank through the fling in 2 runs of 3 without this.)
  func testDuringAScrollAnApplyThatSeemsToFitNoFrameIsTriedAtAFramesStart() {
    var predictor = CostPredictor()
    predictor.record(.apply, duration: 10_000)
    predictor.recordCommit(duration: 1 * Self.ms, applies: 0)
    predictor.recordCommit(duration: 20 * Self.ms, applies: 1)  // one long commit after one apply
    let apply = PassPlanner.Candidate(costKind: .apply, estimate: nil)
    func next(_ frame: FrameReading, tasksRun: Int = 0, candidate: PassPlanner.Candidate = apply) -> PassPlanner.Step {
      var input = input(.tracking, candidate: candidate, frame: frame, tasksRun: tasksRun)
      input.predictor = predictor
      return PassPlanner.next(input)
    }
    XCTAssertEqual(next(left(16)), .run(probes: true), "passed over for the rest of the scroll")
    XCTAssertEqual(next(left(4)), .wait(4_000_000), "less than half a frame left: it waits for the next")
    XCTAssertEqual(next(left(16), tasksRun: 1), .wait(16_000_000), "not the first of its pass")
    predictor.record(.cellTask, duration: 20 * Self.ms)
    XCTAssertEqual(
      next(left(16), candidate: .init(costKind: .cellTask, estimate: nil)), .passOver, "other kinds are passed over")
  }

  func testDuringAScrollANeverMeasuredCostIsProbedAtAFramesStartOnly() {
    let unknown = PassPlanner.Candidate(costKind: .cellTask, estimate: nil)
    XCTAssertEqual(PassPlanner.next(input(.tracking, candidate: unknown, frame: left(16))), .run(probes: true))
    XCTAssertEqual(PassPlanner.next(input(.tracking, candidate: unknown, frame: left(4))), .wait(4_000_000))
    XCTAssertEqual(
      PassPlanner.next(input(.tracking, candidate: unknown, frame: .noFrame)), .end(.noFrameKnown),
      "with no frame pending, an unknown cost is not gambled")
    XCTAssertEqual(PassPlanner.next(input(.idle, candidate: unknown, frame: left(4))), .run(probes: false), "idle: 0")
  }

  // MARK: Slack (main-thread prefetches)

  func slack(
    _ kind: IdlePassKind = .idle, frame: FrameReading? = .frame(timeLeft: Int64(frame60), length: frame60),
    measured: UInt64? = 2 * ms, budget: IdleQueue.Budget = .tasks(10)
  ) -> PassPlanner.Step {
    var input = input(kind, candidate: .init(costKind: .mainPreparation, estimate: nil), frame: frame, budget: budget)
    if let measured { input.predictor.record(.mainPreparation, duration: measured) }
    return PassPlanner.nextInSlack(input)
  }

  /// Measured, a slice runs during a frame only if it fits the time left with its margin; else the pass waits for
  /// the next frame.
  func testSlackRunsInAFrameOnlyWhatFits() {
    XCTAssertEqual(slack(frame: left(4)), .run(probes: false))
    XCTAssertEqual(slack(.tracking, frame: left(4)), .run(probes: false), "during a scroll too")
    XCTAssertEqual(slack(frame: left(2.2)), .wait(2_200_000), "2 ms and its 0.5 ms margin do not fit 2.2 ms")
    XCTAssertEqual(slack(.tracking, frame: left(2.2)), .wait(2_200_000))
  }

  /// Measured longer than any frame, a slice runs first in an idle pass at a frame's start (costing it), never
  /// during a scroll or late in a frame.
  func testSlackRunsASliceLongerThanAnyFrameOnlyAtAnIdleFramesStart() {
    XCTAssertEqual(slack(measured: 20 * Self.ms), .run(probes: false))
    XCTAssertEqual(slack(.tracking, measured: 20 * Self.ms), .wait(Self.frame60))
    XCTAssertEqual(slack(frame: left(5), measured: 20 * Self.ms), .wait(5_000_000))
    XCTAssertEqual(slack(frame: left(5), measured: 10 * Self.ms), .wait(5_000_000), "10 ms fits a frame: it waits")
  }

  /// Unmeasured, a slice never runs during a scroll's frame, nor late in a frame; an idle pass at a frame's start
  /// probes it.
  func testSlackProbesAnUnmeasuredSliceOnlyAtAnIdleFramesStart() {
    XCTAssertEqual(slack(.tracking, measured: nil), .wait(Self.frame60))
    XCTAssertEqual(slack(frame: left(5), measured: nil), .wait(5_000_000))
    XCTAssertEqual(slack(measured: nil), .run(probes: true))
    XCTAssertEqual(slack(frame: .frame(timeLeft: 12_000_000, length: 0), measured: nil), .wait(12_000_000))
  }

  /// With no frame pending the budget alone decides; during a scroll with none known nothing runs; a late frame waits.
  func testSlackWithoutAFrame() {
    XCTAssertEqual(slack(frame: .noFrame), .run(probes: false))
    XCTAssertEqual(slack(frame: nil), .run(probes: false), "no frame clock")
    XCTAssertEqual(slack(.tracking, frame: .noFrame), .end(.noFrameKnown))
    XCTAssertEqual(slack(frame: .late(retryIn: 1_000_000, nextFrameIn: 3_000_000)), .wait(1_000_000))
    XCTAssertEqual(slack(frame: .noFrame, budget: .tasks(0)), .end(.budgetSpent))
  }
}
