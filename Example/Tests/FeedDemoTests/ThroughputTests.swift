import XCTest

@testable import FeedDemoKit

/// Throughput against its ideal, with drops counted over the window *and* the frames after it.
final class ThroughputTests: XCTestCase {
  private let period: UInt64 = 8_333_333

  private func frame(_ tick: Int64, commitAfterVsyncMs: Double, afterResume: Bool = false) -> FrameRecord {
    let vsync = UInt64(tick) * period
    return FrameRecord(
      tick: tick, start: vsync + 100_000, commitEnd: vsync + UInt64(commitAfterVsyncMs * 1e6), phase: .fill,
      afterResume: afterResume)
  }

  /// `sync`: 20,000 tasks run inside the first frame (0.4 s). The window ends with the last task, inside
  /// that frame — the drops show at the frames after it, and are counted. Its rate even beats the ideal
  /// (which leaves each period's nominal commit work out): only the drops show what it cost.
  func testOneLongFrameFails() {
    let frames = [frame(0, commitAfterVsyncMs: 402, afterResume: true), frame(48, commitAfterVsyncMs: 3)]
    let result = ThroughputResult.compute(
      strategy: .sync, mode: .oneFrame, refreshHz: 120, frames: frames, origin: 0, period: period,
      window: (100_000, 399_100_000), total: 20_000, executed: 20_000, taskNanos: 20_000,
      commitFraction: 0.25, offeredPerSecond: nil)
    XCTAssertEqual(result[.droppedFrames], 48)
    XCTAssertEqual(result[.droppedFramesAfterWindow], 47)
    XCTAssertEqual(result[.idealTasksPerSecond], 37_500, accuracy: 1e-6)
    XCTAssertGreaterThan(result[.ratioToIdeal], 1)
  }

  /// A strategy that uses a tenth of the spare time, dropping nothing: the ratio to ideal fails.
  func testSlowDrainFails() {
    let frames = (0..<120).map { frame(Int64($0), commitAfterVsyncMs: 3, afterResume: $0 == 0) }
    let result = ThroughputResult.compute(
      strategy: .dwu, mode: .oneFrame, refreshHz: 120, frames: frames, origin: 0, period: period,
      window: (0, 1_000_000_000), total: 20_000, executed: 3_750, taskNanos: 20_000,
      commitFraction: 0.25, offeredPerSecond: nil)
    XCTAssertEqual(result[.idealTasksPerSecond], 37_500, accuracy: 1)
    XCTAssertEqual(result[.ratioToIdeal], 0.1, accuracy: 1e-6)
    XCTAssertEqual(result[.timedOut], 1)
    XCTAssertEqual(result[.droppedFrames], 0)
  }

  /// Batches: the ideal is capped at what the producer offers (batch × refresh rate), so a strategy that
  /// keeps up comes out at 1 with no drops.
  func testBatchedKeepingUpIsClean() {
    let frames = (0..<30).map { frame(Int64($0), commitAfterVsyncMs: 6, afterResume: $0 == 0) }
    let result = ThroughputResult.compute(
      strategy: .idleWork, mode: .batched, refreshHz: 120, frames: frames, origin: 0, period: period,
      window: (0, 250_000_000), total: 6_000, executed: 6_000, taskNanos: 20_000,
      commitFraction: 0.25, offeredPerSecond: 24_000)
    XCTAssertEqual(result[.idealTasksPerSecond], 24_000, accuracy: 1e-6)
    XCTAssertEqual(result[.ratioToIdeal], 1, accuracy: 1e-6)
    XCTAssertEqual(result[.droppedFrames], 0)
  }

  /// The ideal is the same for every strategy: it comes from the task's isolated cost and the nominal
  /// commit fraction, not from what the strategy's own run did (its task times, its commits, its count).
  func testIdealIsStrategyIndependent() {
    let busy = (0..<120).map { frame(Int64($0), commitAfterVsyncMs: 7, afterResume: $0 == 0) }
    let a = ThroughputResult.compute(
      strategy: .dwu, mode: .oneFrame, refreshHz: 120, frames: busy, origin: 0, period: period,
      window: (0, 1_000_000_000), total: 20_000, executed: 500, taskNanos: 20_000, commitFraction: 0.25,
      offeredPerSecond: nil)
    let b = ThroughputResult.compute(
      strategy: .idleWork, mode: .oneFrame, refreshHz: 120, frames: [], origin: 0, period: period,
      window: (0, 600_000_000), total: 20_000, executed: 20_000, taskNanos: 20_000, commitFraction: 0.25,
      offeredPerSecond: nil)
    XCTAssertEqual(a[.idealTasksPerSecond], b[.idealTasksPerSecond])
    XCTAssertEqual(a[.idealTasksPerSecond], 37_500, accuracy: 1e-6)
  }

  /// The real workload, `sync` handing 2,000 tasks (~40 ms) over in one frame at 60 Hz: the frames it
  /// overran are counted at the first frame after the last task, which only the post-window tail records —
  /// with `throughputTailSeconds` at 0 the run would stop at the last task and this would fail.
  func testTailRecordsTheDropsAfterTheLastTask() {
    MainActor.assumeIsolated {
      let settings = ScenarioSettings.quick
      let iterations = CPUWork.iterations(forMicroseconds: settings.throughputTaskMicroseconds)
      let workload = ThroughputWorkload(settings: settings, taskIterations: iterations)
      let result = workload.run(.sync, mode: .oneFrame, refreshHz: 60)
      XCTAssertEqual(result[.tasksExecuted], Double(settings.oneFrameTasks))
      XCTAssertEqual(result[.timedOut], 0)
      XCTAssertGreaterThan(result[.droppedFramesAfterWindow], 0)
    }
  }
}
