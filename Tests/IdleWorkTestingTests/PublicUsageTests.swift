import Foundation
import IdleWork
import IdleWorkTesting
import XCTest

/// An app's unit test, written against the public API only (no `@testable`): `IdleWorkTesting` keeps
/// working for apps although the pass-driver protocol is not public.
final class PublicUsageTests: XCTestCase {
  /// The clock example of the "Testing code that uses IdleWork" article, in XCTest form (the article shows it with
  /// Swift Testing: TestingArticleTests).
  func testTheTestingArticlesClockExample() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver, configuration: IdleQueue.Configuration(budget: .seconds(0.004)))
      for i in 0..<10 {
        queue.addTask(key: i) { driver.advance(by: 0.0015) }
      }
      driver.runPass()
      // Started at 0 and 1.5 ms; a third, predicted to end at 4.5 ms, waits.
      XCTAssertEqual(queue.statistics.executed, 2)
    }
  }

  func testAnAppStepsItsQueueByHand() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver, configuration: .init(budget: .seconds(0.004)))
      var ran: [Int] = []
      for i in 0..<3 {
        queue.addTask(key: i) {
          driver.advance(by: 0.003)
          ran.append(i)
        }
      }
      XCTAssertTrue(driver.isPassRequested)
      driver.runPass()
      XCTAssertEqual(ran, [0], "the second task, predicted to take 3 ms more, would end past the 4 ms budget")
      XCTAssertEqual(driver.now, 0.003, accuracy: 1e-12)
      XCTAssertEqual(driver.drain(), 2)
      XCTAssertEqual(ran, [0, 1, 2])
      XCTAssertEqual(queue.statistics.executed, 3)
    }
  }
}
