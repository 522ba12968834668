import Foundation
import XCTest

@testable import FeedDemoKit

/// The `busy` profile's load: a thread of its own for the scenario, gone when it stops; the profile asks for it.
final class BackgroundLoadTests: XCTestCase {
  func testTheLoadRunsOnAThreadOfItsOwnUntilStopped() {
    let before = ProcessProbe.liveThreads()
    let load = BackgroundLoad(duty: 0.5)
    let deadline = Date().addingTimeInterval(5)
    while ProcessProbe.liveThreads() <= before, Date() < deadline {
      _ = RunLoop.main.run(mode: .default, before: Date())
    }
    XCTAssertEqual(ProcessProbe.liveThreads(), before + 1, "the load's thread")
    load.stop()
    let gone = Date().addingTimeInterval(5)
    while ProcessProbe.liveThreads() > before, Date() < gone { _ = RunLoop.main.run(mode: .default, before: Date()) }
    XCTAssertEqual(ProcessProbe.liveThreads(), before, "the load's thread outlived stop()")
  }

  func testOnlyTheBusyProfileLoadsTheMachine() {
    XCTAssertEqual(Profile.busy.settings.backgroundLoad, 0.5)
    for profile in Profile.allCases where profile != .busy {
      XCTAssertEqual(profile.settings.backgroundLoad, 0, "\(profile)")
    }
    XCTAssertTrue(Profile.busy.summary.contains("50% busy"))
  }
}
