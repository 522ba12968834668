import Foundation
import IdleWork
import IdleWorkTesting
import TestHelpers
import XCTest

/// A cell as a table view would reuse it: it records what was applied to it.
final class PhotoCell {
  var shown: [String] = []
}

/// A frame clock the test sets: the driver time (seconds) by which the frame must be committed; `nil`: none pending.
@MainActor
final class Frames {
  let driver: ManualPassDriver
  var deadline: TimeInterval?

  init(_ driver: ManualPassDriver) { self.driver = driver }

  var timeLeft: TimeInterval? { deadline.map { $0 - driver.now } }

  /// A queue on `driver` that fits its work to these frames.
  func queue(budget: IdleQueue.Budget = .tasks(100), length: Int = 100, resultCacheLimit: Int? = nil) -> IdleQueue {
    var configuration = IdleQueue.Configuration(
      budget: budget, maximumQueueLength: length, scrolling: .fitToFrames(timeUntilNextFrame: { [self] in timeLeft }))
    if let resultCacheLimit { configuration.resultCacheLimit = resultCacheLimit }
    return IdleQueue(driver: driver, configuration: configuration)
  }

  /// Teaches `queue` a 60 Hz frame's length: one pass at a frame's start.
  func learn60Hz(_ queue: IdleQueue) {
    deadline = driver.now + 1.0 / 60
    queue.addTask(key: "learn the frame") {}
    driver.runPass()
    deadline = nil
  }

  /// `count` frames of a scroll at 60 Hz, each with `free` seconds left for the queue: one tracking pass each.
  func scroll(_ queue: IdleQueue, frames count: Int, free: TimeInterval, each: () -> Void = {}) {
    for _ in 0..<count {
      let start = driver.now
      driver.advance(by: 1.0 / 60 - free)  // the frame's own work
      deadline = start + 1.0 / 60
      driver.runTrackingPass()
      each()
      driver.advance(by: max(0, start + 1.0 / 60 - driver.now))
    }
    deadline = nil
  }
}

/// The accounting identity, from the public statistics: every task added is executed, stale, evicted, cancelled,
/// failed or pending.
func assertBalanced(_ queue: IdleQueue, file: StaticString = #filePath, line: UInt = #line) {
  MainActor.assumeIsolated {
    let s = queue.statistics
    XCTAssertEqual(
      s.added, s.executed + s.skippedAsStale + s.evicted + s.cancelled + s.failed + s.pending,
      "added \(s.added), executed \(s.executed), stale \(s.skippedAsStale), evicted \(s.evicted), "
        + "cancelled \(s.cancelled), failed \(s.failed), pending \(s.pending)", file: file, line: line)
  }
}
