import XCTest

@testable import FeedDemoKit

/// Visible draws evicted: a queue limit that drops the draw of a row on screen, whose cell still shows it,
/// leaves that cell blank.
final class VisibleEvictionTests: XCTestCase {
  /// Dropping the draw of a visible row whose cell still shows it counts.
  func testEvictingAVisibleDrawFails() {
    XCTAssertTrue(DrawJudge.isVisibleEviction(row: 3, version: 0, cellRow: 3, cellVersion: 0, visible: 0...13))
  }

  /// Dropping the draw of a row scrolled away, or of a cell since reused, costs the screen nothing.
  func testEvictingInvisibleOrReusedIsClean() {
    XCTAssertFalse(DrawJudge.isVisibleEviction(row: 3, version: 0, cellRow: 3, cellVersion: 0, visible: 20...33))
    XCTAssertFalse(DrawJudge.isVisibleEviction(row: 3, version: 0, cellRow: 25, cellVersion: 0, visible: 20...33))
  }

  /// DWU's policy with its limit of 30, fed 42 draws (a dense screen): the 12 oldest are dropped, and the
  /// metric reports them as visible evictions.
  func testDenseScreenOverflowsDWU() {
    MainActor.assumeIsolated {
      let model = FeedModel.make(Profile.dense.settings, seed: 1)
      let recorder = Recorder()
      let link = DisplayLink(refreshHz: 60, commitFraction: 0.25)
      defer { link.invalidate() }
      let strategy = DWUStrategy(variant: .faithful)
      strategy.install(for: .feed, displayLink: link)
      defer { strategy.uninstall() }
      let feed = FeedView(model: model, strategy: strategy, recorder: recorder, displayLink: link)
      feed.reconfigureVisibleRows()  // configures the 14 visible rows: 42 draws handed over
      XCTAssertEqual(feed.visibleRows.count, 14)
      XCTAssertEqual(strategy.pendingCount, 30)
      XCTAssertEqual(recorder.recording.visibleEvicted, 12)
      let result = ScenarioMetrics.result(
        kind: .dwu, profile: .dense, refreshHz: 60, recording: recorder.recording, origin: 0)
      XCTAssertEqual(result[.visibleTasksEvicted], 12)
    }
  }
}
