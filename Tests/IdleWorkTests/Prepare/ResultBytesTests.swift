import Foundation
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// A picture as an app would return it from `prepare`: a reference, whose inline size says nothing of its pixels.
private final class Picture: Sendable {}

/// What a prepared result counts against the cache's limit: the sizes the tasks sharing its render report.
final class ResultBytesTests: XCTestCase {
  /// A prefetch that gives no `resultBytes` starts the render, and a cell's task that gives the real size
  /// joins it: the result is cached at the real size, so two 1 MB results do not both stay under 1.5 MB.
  func testAPrefetchWithoutResultBytesDoesNotSizeTheResultItsJoinerSizes() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver, configuration: .init(resultCacheLimit: 1_500_000))
      for content in 0..<2 {
        queue.addTask(key: content, content: content, discardable: true) { _ in
          Picture()
        } apply: { _ in
        }
        queue.addTask(key: content, content: content, resultBytes: { _ in 1_000_000 }) { _ in
          Picture()
        } apply: { _ in
        }
      }
      XCTAssertEqual(driver.runPreparations(), 2, "one render per content: the second task joined the first's")
      driver.drain()
      let cache = queue.core.preparation!.cache
      XCTAssertEqual(cache.bytes, 1_000_000)
      XCTAssertEqual(cache.count, 1, "the second 1 MB result pushed out the first")
      XCTAssertTrue(queue.statistics.isBalanced, queue.statistics.summary)
    }
  }

  /// Tasks sharing a render that all give `resultBytes`: the largest size counts, whichever joined first.
  func testTheLargestSizeAJoinedTaskReportsCounts() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver, configuration: .init(resultCacheLimit: 1 << 20))
      @MainActor func request(_ content: String, bytes: Int) {
        queue.addTask(key: content, content: content, resultBytes: { _ in bytes }) { _ in
          Picture()
        } apply: { _ in
        }
      }
      request("small first", bytes: 10)
      request("small first", bytes: 1_000)
      request("large first", bytes: 2_000)
      request("large first", bytes: 20)
      request("large first", bytes: 200)
      XCTAssertEqual(driver.runPreparations(), 2)
      driver.drain()
      XCTAssertEqual(queue.core.preparation!.cache.bytes, 3_000)
    }
  }
}
