import Foundation
import XCTest

@testable import IdleWork
@testable import IdleWorkPreparation
@testable import IdleWorkTesting

/// `async` preparations run as tasks a worker waits for — on the manual driver too, where the main thread is the
/// worker: one that awaits the main actor then completes instead of waiting forever.
final class AsyncPreparationTests: XCTestCase {
  @MainActor final class Store {
    var greeting = "hello"
  }

  /// An `async` preparation that awaits the main actor completes under `runPreparations()`.
  func testAnAsyncPreparationAwaitingTheMainActorCompletesUnderRunPreparations() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver)
      let store = Store()
      let greet = Preparation { (name: String, _) async throws -> String in
        let greeting = await store.greeting
        return "\(greeting) \(name)"
      }
      var applied: [String] = []
      queue.preparer.addTask(key: 0, prepare: greet, from: "a") { applied.append($0) }
      XCTAssertEqual(driver.runPreparations(), 1)
      driver.runPass()
      XCTAssertEqual(applied, ["hello a"])
    }
  }
}
