import Foundation
import XCTest

@testable import IdleWork
@testable import IdleWorkPreparation
@testable import IdleWorkTesting

/// A picture as an app would return it from `prepare`: a reference, whose inline size says nothing of its pixels.
private final class Picture: Sendable {}

/// A value of 64 bytes inline: its size, not the 32 bytes of the existential box it travels in.
private struct SixtyFourBytes: Sendable {
  var words: (Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64) = (0, 0, 0, 0, 0, 0, 0, 0)
}

/// A value of no inline size.
private struct Nothing: Sendable {}

/// What a prepared result counts against the cache's limit: the sizes the tasks sharing its render report.
final class ResultBytesTests: XCTestCase {
  /// A prefetch that gives no `resultBytes` starts the render, and a cell's task that gives the real size
  /// joins it: the result is cached at the real size, so two 1 MB results do not both stay under 1.5 MB.
  func testAPrefetchWithoutResultBytesDoesNotSizeTheResultItsJoinerSizes() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver, configuration: .init())
      _ = Preparer(queue: queue, configuration: .init(resultCacheLimit: 1_500_000))
      for content in 0..<2 {
        queue.addTask(key: content, content: content, droppable: true) { _ in
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
      XCTAssertTrue(queue.counts.isBalanced, queue.counts.summary)
    }
  }

  /// A queue's cache keeps room for two results per worker (one being prepared, one finished and not yet taken
  /// in), reckoned at the largest result seen: with 1 worker and 100-byte results, a 1,000-byte limit keeps 8,
  /// with 2 workers 7 (the room capped at a quarter of the limit). Results already taken in are what it keeps.
  func testTheCacheKeepsRoomForTwoResultsPerWorker() {
    MainActor.assumeIsolated {
      for (workers, kept) in [(1, 8), (2, 7)] {
        let driver = ManualPassDriver()
        let queue = IdleQueue(driver: driver, configuration: .init())
        _ = Preparer(queue: queue, configuration: .init(workers: workers, resultCacheLimit: 1_000))
        for content in 0..<12 {
          queue.addTask(key: content, content: content, resultBytes: { _ in 100 }) { _ in
            Picture()
          } apply: { _ in
          }
        }
        XCTAssertEqual(driver.runPreparations(), 12)
        driver.drain()
        let cache = queue.core.preparation!.cache
        XCTAssertEqual(cache.count, kept, "workers: \(workers)")
        XCTAssertEqual(cache.bytes, kept * 100, "workers: \(workers)")
        XCTAssertTrue(queue.counts.isBalanced, queue.counts.summary)
      }
    }
  }

  /// Tasks sharing a render that all give `resultBytes`: the largest size counts, whichever joined first.
  func testTheLargestSizeAJoinedTaskReportsCounts() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver, configuration: .init())
      _ = Preparer(queue: queue, configuration: .init(resultCacheLimit: 1 << 20))
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

  /// Without `resultBytes`, a result counts by its type: a `Data` its `count`, a `String` its UTF-8 bytes, any
  /// other type its inline size (at least 1): a 64-byte struct 64, a class its reference. `resultBytes` given
  /// replaces the default; a task without it, joining, reports the default, and the largest counts.
  func testWithoutResultBytesAResultCountsByItsType() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver, configuration: .init())
      _ = Preparer(queue: queue, configuration: .init(resultCacheLimit: 1 << 20))
      @MainActor func cachedBytes<Value: Sendable>(
        of value: Value, content: Int, resultBytes: (@Sendable (Value) -> Int)? = nil, joinedWithout: Bool = false
      ) -> Int {
        let before = queue.core.preparation?.cache.bytes ?? 0
        queue.addTask(key: content, content: content, resultBytes: resultBytes) { _ in
          value
        } apply: { _ in
        }
        if joinedWithout {
          queue.addTask(key: content, content: content) { _ in
            value
          } apply: { _ in
          }
        }
        XCTAssertEqual(driver.runPreparations(), 1)
        driver.drain()
        return queue.core.preparation!.cache.bytes - before
      }
      XCTAssertEqual(cachedBytes(of: Data(count: 5_000), content: 0), 5_000)
      XCTAssertEqual(cachedBytes(of: "héllo", content: 1), 6)
      XCTAssertEqual(cachedBytes(of: SixtyFourBytes(), content: 2), 64)
      XCTAssertEqual(cachedBytes(of: Picture(), content: 3), MemoryLayout<Picture>.size)
      XCTAssertEqual(cachedBytes(of: Nothing(), content: 4), 1)
      XCTAssertEqual(cachedBytes(of: Data(count: 5_000), content: 5, resultBytes: { _ in 7 }), 7)
      XCTAssertEqual(
        cachedBytes(of: Data(count: 5_000), content: 6, resultBytes: { _ in 7 }, joinedWithout: true), 5_000)
      XCTAssertEqual(queue.core.preparation!.cache.count, 7)
    }
  }
}
