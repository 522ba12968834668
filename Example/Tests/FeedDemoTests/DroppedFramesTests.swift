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

  /// No vsync counts as missed across a pause of the display link.
  func testResumeIsNotADrop() {
    let frames = [frame(0, commitMs: 8, afterResume: true), frame(50, commitMs: 8, afterResume: true)]
    XCTAssertEqual(DroppedFrames.perFrame(frames, origin: 0, period: period), [0, 0])
  }
}
