import Foundation
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// An apply's cost includes what it adds to the commit after it, which the queue learns.
final class ApplyCostTests: XCTestCase {
  func testPredictorSharesTheCommitsExcessAmongTheApplies() {
    var predictor = CostPredictor()
    predictor.record(.apply, duration: 100_000)
    predictor.recordCommit(duration: 1_000_000, applies: 0)  // baseline 1 ms
    XCTAssertEqual(predictor.predict(.apply, estimate: nil), 100_000)
    predictor.recordCommit(duration: 5_000_000, applies: 2)  // 4 ms over the baseline, 2 ms each
    XCTAssertEqual(predictor.predict(.apply, estimate: nil), 2_100_000)
    XCTAssertEqual(predictor.predict(.cellTask, estimate: nil), 0, "other kinds are not charged")
    XCTAssertEqual(predictor.predict(.apply, estimate: 7), 7, "the caller's estimate wins")
  }

  /// The queue feeds the commit it sees before a pass to its predictor, with the applies of the passes
  /// since the last one: a later task's work is an apply.
  func testQueueLearnsTheCommitAfterItsApplies() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver)
      let task = queue.addLaterTask(key: 0)
      driver.commit(taking: 0.001)
      driver.runPass()  // nothing applied before it: the baseline, 1 ms
      task.fulfill { _ in driver.advance(by: 0.0005) }
      driver.runPass()  // applies (0.5 ms)
      driver.commit(taking: 0.004)
      driver.runPass()  // the commit after one apply: 3 ms over the baseline
      XCTAssertEqual(queue.core.predictor.predict(.apply, estimate: nil), 3_500_000)
    }
  }
}
