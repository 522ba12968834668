import Foundation
import XCTest

@testable import FeedDemoKit

/// The `busy` profile's load: a thread of its own for the scenario, gone when it stops; the profile asks for it.
final class BackgroundLoadTests: XCTestCase {
  /// The load cycles on its own thread while the main thread waits, and its thread has ended once `stop()`
  /// returns.
  func testTheLoadRunsOnAThreadOfItsOwnUntilStopped() {
    let load = BackgroundLoad(duty: 0.5)
    let deadline = Date().addingTimeInterval(5)
    while load.cyclesBegun < 3, Date() < deadline { _ = RunLoop.main.run(mode: .default, before: Date()) }
    XCTAssertGreaterThanOrEqual(load.cyclesBegun, 3, "the load did not run beside the main thread")
    XCTAssertFalse(load.hasEnded)
    load.stop()
    XCTAssertTrue(load.hasEnded, "the load's thread outlived stop()")
  }

  func testOnlyTheBusyProfileLoadsTheMachine() {
    XCTAssertEqual(Profile.busy.settings.backgroundLoad, 0.5)
    for profile in Profile.allCases where profile != .busy {
      XCTAssertEqual(profile.settings.backgroundLoad, 0, "\(profile)")
    }
    XCTAssertTrue(Profile.busy.summary.contains("50% busy"))
  }
}
