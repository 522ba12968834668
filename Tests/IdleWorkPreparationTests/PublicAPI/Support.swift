import Foundation
import IdleWork
import IdleWorkPreparation
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

  /// A queue on `driver` that fits its work to these frames, and its preparer.
  func preparer(budget: IdleQueue.Budget = .tasks(100), length: Int = 100, resultCacheLimit: Int? = nil) -> Preparer {
    let configuration = IdleQueue.Configuration(
      budget: budget, maximumQueueLength: length, scrolling: .fitToFrames(timeUntilNextFrame: { [self] in timeLeft }))
    var preparation = Preparer.Configuration()
    if let resultCacheLimit { preparation.resultCacheLimit = resultCacheLimit }
    return Preparer(queue: IdleQueue(driver: driver, configuration: configuration), configuration: preparation)
  }

  /// Teaches `preparer`'s queue a 60 Hz frame's length: one pass at a frame's start.
  func learn60Hz(_ preparer: Preparer) {
    deadline = driver.now + 1.0 / 60
    preparer.queue.addTask(key: "learn the frame") {}
    driver.runPass()
    deadline = nil
  }

  /// `count` frames of a scroll at 60 Hz, each with `free` seconds left for the queue: one tracking pass each.
  func scroll(_ preparer: Preparer, frames count: Int, free: TimeInterval, each: () -> Void = {}) {
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

/// The accounting identities, from the public statistics: every task added is executed, stale, evicted, cancelled or
/// pending; every prefetch added is kept, cancelled, evicted, failed or pending.
func assertBalanced(_ preparer: Preparer, file: StaticString = #filePath, line: UInt = #line) {
  MainActor.assumeIsolated {
    let s = preparer.queue.statistics
    XCTAssertEqual(
      s.added, s.executed + s.skippedAsStale + s.evicted + s.cancelled + s.pending,
      "added \(s.added), executed \(s.executed), stale \(s.skippedAsStale), evicted \(s.evicted), "
        + "cancelled \(s.cancelled), pending \(s.pending)", file: file, line: line)
    let p = preparer.statistics
    XCTAssertEqual(
      p.prefetches,
      p.prefetchesKept + p.prefetchesCancelled + p.prefetchesEvicted + p.prefetchesFailed
        + p.prefetchesPending,
      "prefetches \(p.prefetches), kept \(p.prefetchesKept), cancelled \(p.prefetchesCancelled), evicted "
        + "\(p.prefetchesEvicted), failed \(p.prefetchesFailed), pending \(p.prefetchesPending)", file: file, line: line
    )
  }
}
