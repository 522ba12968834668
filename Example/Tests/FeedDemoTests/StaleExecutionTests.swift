import XCTest

@testable import FeedDemoKit

/// Stale executions: a draw that shows a row's old content — another row's, or the same row's content
/// from before a reload — judged against the table's record, not against `currentIndexPath`.
final class StaleExecutionTests: XCTestCase {
  /// A reload bumps the row's version: a queued draw of the old version into the same row's cell is stale,
  /// although an index-path guard would let it through.
  func testDrawOfOldContentAfterReloadFails() {
    XCTAssertEqual(DrawJudge.judge(row: 5, version: 0, cellRow: 5, cellVersion: 1, visible: 0...10), .stale)
  }

  /// A draw into a cell reused for another row is stale.
  func testDrawIntoReusedCellFails() {
    XCTAssertEqual(DrawJudge.judge(row: 5, version: 0, cellRow: 9, cellVersion: 0, visible: 0...10), .stale)
  }

  /// A draw of the current content of a visible row is fresh; of a row scrolled away, off screen.
  func testCurrentContentIsClean() {
    XCTAssertEqual(DrawJudge.judge(row: 5, version: 1, cellRow: 5, cellVersion: 1, visible: 0...10), .fresh)
    XCTAssertEqual(DrawJudge.judge(row: 5, version: 0, cellRow: 5, cellVersion: 0, visible: 6...10), .offscreen)
  }

  /// The metric counts the stale draws of a trace.
  func testMetricCountsStaleDraws() {
    var recording = Recording()
    recording.draws = [
      .init(start: 0, end: 1, row: 1, verdict: .fresh), .init(start: 1, end: 2, row: 2, verdict: .stale),
      .init(start: 2, end: 3, row: 3, verdict: .offscreen), .init(start: 3, end: 4, row: 4, verdict: .stale),
    ]
    let result = ScenarioMetrics.result(
      kind: .noGuard, profile: .reload, refreshHz: 60, recording: recording, origin: 0)
    XCTAssertEqual(result[.staleExecutions], 2)
    XCTAssertEqual(result[.offscreenExecutions], 1)
    XCTAssertEqual(result[.drawsExecuted], 4)
  }

  /// The canary and the careful DWU differ only in the guard and `didEndDisplaying`: a cell that was
  /// reloaded for a new version keeps its index path, so the guard passes and only the table's record
  /// catches the stale draw.
  func testIndexPathGuardCannotSeeAReload() {
    MainActor.assumeIsolated {
      let cell = FeedCell(imageCount: 3)
      let indexPath = IndexPath(indexes: [0, 5])
      cell.currentIndexPath = indexPath
      cell.displayedRow = 5
      cell.displayedVersion = 1
      XCTAssertEqual(cell.currentIndexPath, indexPath)
      XCTAssertEqual(
        DrawJudge.judge(
          row: 5, version: 0, cellRow: cell.displayedRow, cellVersion: cell.displayedVersion, visible: 0...10),
        .stale)
    }
  }
}
