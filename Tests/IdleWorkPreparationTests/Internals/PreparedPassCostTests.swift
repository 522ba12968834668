import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkPreparation
@testable import IdleWorkTesting

/// The main thread's share of a result is part of the pass it happens in.
final class PreparedPassCostTests: XCTestCase {
  /// Taking a result in (here: sizing it for the cache, which the test makes take 5 ms on the driver's clock)
  /// counts in `longestPassDuration`, as a task does.
  func testTakingResultsInCountsInThePass() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver, configuration: .init())
      _ = Preparer(queue: queue, configuration: .init(resultCacheLimit: 1 << 20))
      let clock = UncheckedBox(driver)
      var applied = 0
      queue.addTask(key: 0, content: "photo") { _ in
        "photo"
      } apply: { _ in
        applied += 1
      }
      // (A `resultBytes` that takes time on the main thread, standing for the cost of taking a result in.)
      queue.addTask(
        key: 1, content: "large",
        resultBytes: { _ in
          MainActor.assumeIsolated { clock.value.advance(by: 0.005) }; return 1
        }
      ) { _ in
        "large"
      } apply: { _ in
        applied += 1
      }
      XCTAssertEqual(driver.runPreparations(), 2)
      driver.runPass()
      XCTAssertEqual(applied, 1)
      XCTAssertGreaterThanOrEqual(
        queue.counts.longestPassDuration, 0.005, "the pass left out the 5 ms it took to take results in")
      assertPreparedBalanced(queue)
    }
  }
}
