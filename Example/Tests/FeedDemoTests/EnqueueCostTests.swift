import XCTest

@testable import FeedDemoKit

/// The addTask cost, in ns per enqueue, beside `Array.append`: an enqueue that scans the queue (Texture's
/// `ensureExclusiveMembership`) costs orders of magnitude more than an append once the queue is long.
final class EnqueueCostTests: XCTestCase {
  /// The real enqueue paths, 4,000 enqueues: Texture's default (`ensureExclusiveMembership`, a scan of the
  /// queue per enqueue) costs more than ten times the same queue without the scan and more than ten times
  /// an `Array.append`.
  func testMembershipScanFails() {
    MainActor.assumeIsolated {
      let scan = Stat(EnqueueCost.strategy(.runLoopQueue, count: 4_000, repetitions: 3)).median
      let tuned = Stat(EnqueueCost.strategy(.runLoopQueueTuned, count: 4_000, repetitions: 3)).median
      let append = Stat(EnqueueCost.arrayAppend(count: 4_000, repetitions: 3)).median
      XCTAssertGreaterThan(scan, tuned * 10)
      XCTAssertGreaterThan(scan, append * 10)
    }
  }

  /// Every strategy's enqueue path can be timed outside the run loop, leaving nothing behind.
  func testEveryStrategyIsMeasured() {
    MainActor.assumeIsolated {
      for kind in StrategyKind.allCases {
        let samples = EnqueueCost.strategy(kind, count: 200, repetitions: 2)
        XCTAssertEqual(samples.count, 2, "\(kind)")
        XCTAssertTrue(samples.allSatisfy { $0 > 0 && $0.isFinite }, "\(kind)")
      }
      RunLoopModes.run(mode: RunLoopModes.defaultCF, timeout: 0.01, until: { false })
    }
  }
}
