import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkPreparation

/// The process's one worker pool under several queues at once: queues made, fed, rebinding and releasing
/// cells, invalidated or released while their renders run, on real workers. Every queue's tasks must be
/// accounted for, no queue may run more renders at once than its `workers`, the pool never more threads than
/// the largest `workers`, no render's capture may be freed off the main thread, and the pool's threads end
/// once no queue uses it. Run under TSan: `swift test --sanitize=thread --scratch-path .build-tsan --filter
/// SharedPoolStress`.
final class SharedPoolStressTests: XCTestCase {
  /// What a render captures: counts where it is freed.
  final class Capture: Sendable {
    let freedOffMain: Counter
    init(_ freedOffMain: Counter) { self.freedOffMain = freedOffMain }
    deinit { if !Thread.isMainThread { freedOffMain.increment() } }
  }

  func testQueuesComeAndGoOnOnePool() {
    MainActor.assumeIsolated {
      var rng = SeededGenerator(seed: 24)
      let freedOffMain = Counter()
      let running = Counter()
      let peakRunning = LockedBox(0)
      let threadsBefore = WorkerPool.shared.threadCounts.now
      var queues: [IdleQueue] = []
      var lines: [PreparationLine] = []
      var finished: [PreparedCounts] = []
      let cells = (0..<16).map { _ in PreparedTaskTests.Cell() }
      for round in 0..<60 {
        if queues.count < 3 || rng.chance(20) {
          let queue = IdleQueue(
            configuration: .init(maximumQueueLength: 64))
          _ = Preparer(queue: queue, configuration: .init(workers: rng.int(1...3), resultCacheLimit: 1 << 16))
          queues.append(queue)
        }
        for _ in 0..<20 {
          let queue = rng.pick(queues)
          let cell = rng.pick(cells)
          let row = rng.int(0...40)
          let capture = Capture(freedOffMain)
          let steps = rng.int(1...20)
          if rng.chance(50) { queue.bind(cell, to: row) }
          queue.addTask(
            for: cell, at: row, content: rng.chance(30) ? Optional(row % 8) : nil, droppable: rng.chance(20)
          ) { isCancelled in
            running.increment()
            peakRunning.value = max(peakRunning.value, running.value)
            for _ in 0..<steps where !isCancelled() { _ = (0..<200).reduce(0, &+) }
            running.decrement()
            return withExtendedLifetime(capture) { "row \(row)" }
          } apply: { cell, value in
            cell.shown.append(value)
          }
        }
        if lines.count < queues.count { lines = queues.compactMap { $0.core.preparation?.line } }
        _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.002))
        if rng.chance(15), queues.count > 1 {
          let gone = queues.remove(at: rng.int(0...queues.count - 1))
          if round % 2 == 0 { gone.invalidate() }
          finished.append(gone.counts)
        }
      }
      for queue in queues { spin(until: { queue.pendingTaskCount == 0 }, timeout: 20) }
      for queue in queues {
        finished.append(queue.counts)
        queue.invalidate()
      }
      queues = []
      spin(until: { WorkerPool.shared.threadCounts.now <= threadsBefore }, timeout: 15)
      XCTAssertEqual(freedOffMain.value, 0, "a render's capture was freed off the main thread")
      XCTAssertLessThanOrEqual(peakRunning.value, 3, "more renders ran at once than the largest workers")
      for line in lines { XCTAssertLessThanOrEqual(line.peakRunningCount, line.limit) }
      for statistics in finished { XCTAssertTrue(statistics.isBalanced, statistics.summary) }
      XCTAssertLessThanOrEqual(
        WorkerPool.shared.threadCounts.now, threadsBefore, "a worker outlived every queue that used the pool")
    }
  }
}
