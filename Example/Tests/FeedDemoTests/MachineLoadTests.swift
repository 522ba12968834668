import XCTest

@testable import FeedDemoKit

/// The busy-machine warning: other processes' CPU use from `/proc/stat` less the process's own.
final class MachineLoadTests: XCTestCase {
  func testParsesTheAggregateLine() {
    let text = "cpu  100 5 20 1000 7 3 2 1 0 0\ncpu0 50 2 10 500 3 1 1 0 0 0\n"
    XCTAssertEqual(MachineLoad.parse(text), MachineLoad.Sample(busyTicks: 131, totalTicks: 1138))
    XCTAssertNil(MachineLoad.parse("intr 1 2 3\n"))
  }

  /// 2 s of wall time, 300 busy ticks at 100 a second (3 core·s), the process's own 1 core·s: others used 1 core.
  func testOtherProcessesAreTheBusyTimeLessOurOwn() throws {
    let start = MachineLoad.Sample(busyTicks: 1000, totalTicks: 5000)
    let end = MachineLoad.Sample(busyTicks: 1300, totalTicks: 5400)
    let others = try XCTUnwrap(
      MachineLoad.otherCores(from: start, to: end, ownCPUSeconds: 1, wallSeconds: 2, ticksPerSecond: 100))
    XCTAssertEqual(others, 1, accuracy: 1e-9)
    XCTAssertTrue(MachineLoad.isBusy(others))
    XCTAssertTrue(MachineLoad.sentence(others, processors: 2).hasPrefix("WARNING: the machine was busy"))
    // Only our own work: quiet.
    let quiet = try XCTUnwrap(
      MachineLoad.otherCores(from: start, to: end, ownCPUSeconds: 2.9, wallSeconds: 2, ticksPerSecond: 100))
    XCTAssertFalse(MachineLoad.isBusy(quiet))
    XCTAssertTrue(MachineLoad.sentence(quiet, processors: 2).hasPrefix("the machine was quiet"))
    XCTAssertNil(MachineLoad.otherCores(from: nil, to: end, ownCPUSeconds: 0, wallSeconds: 1))
  }

  /// On this machine (Linux) a thread of another process spinning is seen; one of ours is not.
  func testAWatchSeesAnotherProcessSpinning() throws {
    #if os(Linux)
      let watch = MachineLoad.Watch()
      let spinner = Process()
      spinner.executableURL = URL(fileURLWithPath: "/bin/sh")
      spinner.arguments = ["-c", "i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done"]
      try spinner.run()
      spinner.waitUntilExit()
      let others = try XCTUnwrap(watch.otherCores())
      XCTAssertGreaterThan(others, MachineLoad.busyCores, "a process spinning the whole span is another process's load")
    #else
      throw XCTSkip("/proc/stat is Linux's")
    #endif
  }
}
