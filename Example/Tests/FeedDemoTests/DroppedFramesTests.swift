import XCTest

@testable import FeedDemoKit

/// Dropped frames under the iOS rule, over hand-built frame traces: a late commit and a skipped vsync
/// each count; a trace whose commits all end before the next vsync counts none.
final class DroppedFramesTests: XCTestCase {
  private let period: UInt64 = 16_000_000

  /// A frame serving `tick`, starting 0.5 ms after its vsync and committing `commitMs` after the vsync.
  private func frame(
    _ tick: Int64, commitMs: Double, phase: Phase = .fling, afterResume: Bool = false
  )
    -> FrameRecord
  {
    let vsync = UInt64(tick) * period
    return FrameRecord(
      tick: tick, start: vsync + 500_000, commitEnd: vsync + UInt64(commitMs * 1e6), phase: phase,
      afterResume: afterResume)
  }

  /// Every commit ends before the next vsync: nothing is dropped.
  func testCleanTraceDropsNothing() {
    let frames = (0..<10).map { frame($0, commitMs: 8, afterResume: $0 == 0) }
    XCTAssertEqual(DroppedFrames.perFrame(frames, origin: 0, period: period).reduce(0, +), 0)
  }

  /// A commit that ends after the next vsync drops its frame; a vsync no frame served is dropped too;
  /// the drops land in the phase of the frame they are counted at.
  func testLateCommitAndSkippedVsyncFail() {
    let frames = [
      frame(0, commitMs: 8, afterResume: true), frame(1, commitMs: 17), frame(3, commitMs: 8, phase: .slowDrag),
    ]
    XCTAssertEqual(DroppedFrames.perFrame(frames, origin: 0, period: period), [0, 1, 1])
    let byPhase = DroppedFrames.byPhase(frames, origin: 0, period: period)
    XCTAssertEqual(byPhase[.fling], 1)
    XCTAssertEqual(byPhase[.slowDrag], 1)
  }

  /// The same trace through the figures the report shows: a ``Recording`` turned into a result by
  /// ``ScenarioMetrics`` (which takes its per-phase split from ``DroppedFrames/byPhase(_:origin:period:)``)
  /// gives the total and each motion phase's share.
  func testLateCommitAndSkippedVsyncFailThroughTheMetrics() {
    var recording = Recording()
    recording.origin = 0
    recording.period = period
    recording.frames = [
      frame(0, commitMs: 8, afterResume: true), frame(1, commitMs: 17), frame(4, commitMs: 8),
      frame(10, commitMs: 8, phase: .flingBack, afterResume: true), frame(11, commitMs: 20, phase: .flingBack),
      frame(20, commitMs: 8, phase: .slowDrag, afterResume: true), frame(22, commitMs: 8, phase: .slowDrag),
    ]
    let result = ScenarioMetrics.result(
      kind: .sync, profile: .dense, refreshHz: 60, recording: recording, origin: 0)
    XCTAssertEqual(result[.droppedFramesFling], 3)  // frame 1 late, vsyncs 2 and 3 skipped
    XCTAssertEqual(result[.droppedFramesFlingBack], 1)  // frame 11 late
    XCTAssertEqual(result[.droppedFramesSlowDrag], 1)  // vsync 21 skipped
    XCTAssertEqual(result[.droppedFrames], 5)
  }

  /// A clean trace through the metrics: every figure 0.
  func testCleanTraceIsCleanThroughTheMetrics() {
    var recording = Recording()
    recording.period = period
    recording.frames = (0..<10).map { frame($0, commitMs: 8, afterResume: $0 == 0) }
    let result = ScenarioMetrics.result(
      kind: .idleWork, profile: .light, refreshHz: 60, recording: recording, origin: 0)
    XCTAssertEqual(result[.droppedFrames], 0)
    XCTAssertEqual(result[.droppedFramesFling], 0)
    XCTAssertEqual(result[.p99CommitLatencyMs], 8, accuracy: 1e-6)
  }

  /// p99 commit latency: two frames in a hundred committing 30 ms after their vsync (past the 16 ms
  /// period) put the 99th percentile (nearest rank: the 99th of 100) at 30 ms, through the metrics.
  func testP99CommitLatencyFailsOnALateCommit() {
    var recording = Recording()
    recording.period = period
    let late: Set<Int> = [50, 75]
    recording.frames = (0..<100).map { (index: Int) -> FrameRecord in
      let commitMs: Double = late.contains(index) ? 30 : 8
      return frame(Int64(index * 3), commitMs: commitMs, afterResume: true)
    }
    let result = ScenarioMetrics.result(
      kind: .runLoopQueue, profile: .heavy, refreshHz: 60, recording: recording, origin: 0)
    XCTAssertEqual(result[.p99CommitLatencyMs], 30, accuracy: 1e-6)
    XCTAssertGreaterThan(result[.p99CommitLatencyMs], Double(period) / 1e6)
    XCTAssertEqual(result[.droppedFrames], 2)
  }

  /// No vsync counts as missed across a pause of the display link.
  func testResumeIsNotADrop() {
    let frames = [frame(0, commitMs: 8, afterResume: true), frame(50, commitMs: 8, afterResume: true)]
    XCTAssertEqual(DroppedFrames.perFrame(frames, origin: 0, period: period), [0, 0])
  }
}
