import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkPreparation

/// Each run reaches its worker lane as one block at the QoS of what it is: a prefetch at `utility`, a visible
/// row's at `userInitiated`; a visible row joining a running prefetch sends that lane one `userInitiated` block (the
/// override on Apple's platforms). Renders driven straight on a pool of their own, with real lanes.
final class WorkerQoSTests: XCTestCase {
  /// A run driven straight on a pool, with the counts `addPreparedTask` sets: a visible row's, or a prefetch's
  /// (discardable: wanted, not urgent).
  private static func makeRun(
    _ line: PreparationLine, prefetch: Bool, _ work: @escaping @Sendable () -> Int
  ) -> PreparationRun {
    let run = PreparationRun(line: line, content: nil, resultBytes: nil, prepare: .worker { _ in work() })
    run.life = PreparationLife(requests: .init(live: 1, wanted: 1, urgent: prefetch ? 0 : 1))
    return run
  }

  /// A pool that logs each block it sends, as "lane QoS", and sends it for real.
  private static func loggingPool(_ log: TextLog) -> WorkerPool {
    WorkerPool(byHand: false) { lane, qos, block in
      log.append("\(lane.label) \(qos == .utility ? "utility" : qos == .userInitiated ? "userInitiated" : "other")")
      WorkerPool.dispatch(lane, qos, block)
    }
  }

  /// Runs `works` on `line` one after another, each as a prefetch's run or a visible row's, waiting for each to
  /// arrive (the line's wake-up signals `done`).
  private static func runInTurn(
    on line: PreparationLine, _ done: DispatchSemaphore, _ works: [(prefetch: Bool, work: @Sendable () -> Void)]
  ) {
    for (prefetch, work) in works {
      line.submit(
        makeRun(line, prefetch: prefetch) {
          work()
          return 0
        })
      XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
      _ = line.takeArrivals()
    }
  }

  func testAPrefetchIsSentAtUtilityAndAVisibleRowsPreparationAtUserInitiated() {
    let log = TextLog()
    let done = DispatchSemaphore(value: 0)
    let line = PreparationLine(pool: Self.loggingPool(log), limit: 1, wake: { done.signal() }, checkCells: { _ in })
    Self.runInTurn(
      on: line, done,
      [(prefetch: true, work: { log.append("prefetch") }), (prefetch: false, work: { log.append("visible") })])
    XCTAssertEqual(
      log.entries, ["IdleWork worker 1, prefetch utility", "prefetch", "IdleWork worker 1 userInitiated", "visible"])
    let closed = line.close()
    withExtendedLifetime(closed) {}
  }

  /// A visible row joins a running prefetch: its lane gets one `userInitiated` block at once, while the prefetch
  /// runs; a second row joining sends nothing more.
  func testAVisibleRowJoiningARunningPrefetchRaisesItsLaneOnce() {
    let log = TextLog()
    let done = DispatchSemaphore(value: 0)
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let line = PreparationLine(pool: Self.loggingPool(log), limit: 1, wake: { done.signal() }, checkCells: { _ in })
    let prefetch = Self.makeRun(line, prefetch: true) {
      started.signal()
      release.wait()
      return 0
    }
    line.submit(prefetch)
    XCTAssertEqual(started.wait(timeout: .now() + 10), .success)
    XCTAssertEqual(log.entries, ["IdleWork worker 1, prefetch utility"])
    line.adjust(prefetch, live: 1, wanted: 1, urgent: 1)  // a visible row's task joins it
    XCTAssertEqual(log.entries, ["IdleWork worker 1, prefetch utility", "IdleWork worker 1, prefetch userInitiated"])
    line.adjust(prefetch, live: 1, wanted: 1, urgent: 1)  // and another
    XCTAssertEqual(log.entries.count, 2, "a second join raised the lane again")
    release.signal()
    XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
    _ = line.takeArrivals()
    let closed = line.close()
    withExtendedLifetime(closed) {}
  }

  /// A visible row joining a visible row's running run sends its lane nothing: it already runs at
  /// `userInitiated`.
  func testJoiningAVisibleRowsRenderSendsNothing() {
    let log = TextLog()
    let done = DispatchSemaphore(value: 0)
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let line = PreparationLine(pool: Self.loggingPool(log), limit: 1, wake: { done.signal() }, checkCells: { _ in })
    let visible = Self.makeRun(line, prefetch: false) {
      started.signal()
      release.wait()
      return 0
    }
    line.submit(visible)
    XCTAssertEqual(started.wait(timeout: .now() + 10), .success)
    line.adjust(visible, live: 1, wanted: 1, urgent: 1)
    release.signal()
    XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
    XCTAssertEqual(log.entries, ["IdleWork worker 1 userInitiated"])
    _ = line.takeArrivals()
    let closed = line.close()
    withExtendedLifetime(closed) {}
  }

  /// Two runs at once on a pool of two: two lanes; the next run goes to a lane already made.
  func testLanesAreMadeUpToTheLimitAndReused() {
    let log = TextLog()
    let done = DispatchSemaphore(value: 0)
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let line = PreparationLine(pool: Self.loggingPool(log), limit: 2, wake: { done.signal() }, checkCells: { _ in })
    for _ in 0..<2 {
      line.submit(
        Self.makeRun(line, prefetch: false) {
          started.signal()
          release.wait()
          return 0
        })
    }
    for _ in 0..<2 { XCTAssertEqual(started.wait(timeout: .now() + 10), .success) }
    XCTAssertEqual(line.pool.threadCounts.now, 2)
    release.signal()
    release.signal()
    var arrived = 0  // (the line wakes once until its arrivals are taken)
    let deadline = Date().addingTimeInterval(10)
    while arrived < 2, Date() < deadline {
      _ = done.wait(timeout: .now() + 0.05)
      arrived += line.takeArrivals().count
    }
    XCTAssertEqual(arrived, 2)
    MainActor.assumeIsolated { spin(until: { line.pool.threadCounts.now == 0 }, timeout: 5) }
    Self.runInTurn(on: line, done, [(prefetch: false, work: {})])
    XCTAssertEqual(
      Set(log.entries), ["IdleWork worker 1 userInitiated", "IdleWork worker 2 userInitiated"],
      "a third lane was made for a run while two were free")
    XCTAssertEqual(line.pool.threadCounts.peak, 2)
    let closed = line.close()
    withExtendedLifetime(closed) {}
  }

  /// With the real dispatch, a prefetch runs at the priority of the global `utility` queue's threads and a visible
  /// row's run at the `userInitiated` one's (on Linux their niceness, 2 and −2).
  func testThePrioritiesAreTheGlobalQueuesOnes() {
    let expected = [DispatchQoS.QoSClass.utility, .userInitiated].map { qos in
      let read = LockedBox(Int.min)
      let done = DispatchSemaphore(value: 0)
      DispatchQueue.global(qos: qos).async {
        read.value = WorkerPoolTests.currentPriority()
        done.signal()
      }
      done.wait()
      return read.value
    }
    let seen = LockedBox<[Int]>([])
    let done = DispatchSemaphore(value: 0)
    let line = PreparationLine(pool: WorkerPool(byHand: false), limit: 1, wake: { done.signal() }, checkCells: { _ in })
    Self.runInTurn(
      on: line, done,
      [
        (prefetch: true, work: { seen.update { $0.append(WorkerPoolTests.currentPriority()) } }),
        (prefetch: false, work: { seen.update { $0.append(WorkerPoolTests.currentPriority()) } }),
      ])
    XCTAssertEqual(seen.value, expected)
    let closed = line.close()
    withExtendedLifetime(closed) {}
  }
}
