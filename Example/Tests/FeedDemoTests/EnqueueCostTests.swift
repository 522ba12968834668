import XCTest

@testable import FeedDemoKit

/// The addTask cost, in ns per enqueue, beside `Array.append`: an enqueue that scans the queue (Texture's
/// `ensureExclusiveMembership`) costs orders of magnitude more than an append once the queue is long.
final class EnqueueCostTests: XCTestCase {
  /// A linear membership scan per enqueue, over 4,000 enqueues, fails against the append.
  func testLinearScanFails() {
    MainActor.assumeIsolated {
      var queue: [Int] = []
      let scan = EnqueueCost.measure(
        count: 4_000, repetitions: 3, prepare: { queue = [] },
        enqueue: { value in
          if !queue.contains(-1 - value) { queue.append(value) }
        })
      let append = EnqueueCost.arrayAppend(count: 4_000, repetitions: 3)
      XCTAssertGreaterThan(Stat(scan).median, Stat(append).median * 10)
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
