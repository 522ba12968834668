import CoreFoundation
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

  /// Reconfiguring the visible rows keeps each cell on its row and bumps the content version. DWU's
  /// index-path guard cannot see that: the old draws still queued pass it and put old content in the
  /// cells. IdleWork's `bind` at the top of `cellForRow` makes them stale, so none runs.
  func testReconfigureDefeatsTheIndexPathGuardButNotBind() {
    MainActor.assumeIsolated {
      let dwu = Self.drainAfterReconfigure(DWUStrategy(variant: .faithful))
      XCTAssertEqual(dwu.pending, 0)
      XCTAssertGreaterThan(dwu.result[.staleExecutions], 0)
      let idleWork = Self.drainAfterReconfigure(IdleWorkStrategy(variant: .defaults))
      XCTAssertEqual(idleWork.pending, 0)
      XCTAssertEqual(idleWork.result[.staleExecutions], 0)
      XCTAssertGreaterThan(idleWork.result[.drawsExecuted], 0)
      XCTAssertTrue(idleWork.complete)
    }
  }

  /// A light feed with its first screen in place: the visible rows are reconfigured (version 1: 21 draws
  /// queued), then reconfigured again before those drew (version 2), and the loop turns until the strategy
  /// holds nothing. A 1 ms timer keeps the loop waking, so that DWU (one draw per wake-up) drains quickly.
  @MainActor
  private static func drainAfterReconfigure(
    _ strategy: FeedStrategy
  ) -> (
    result: ScenarioResult, pending: Int, complete: Bool
  ) {
    let fixture = FeedFixture(profile: .reload, strategy: strategy)
    defer { fixture.tearDown() }
    let (feed, recorder) = (fixture.feed, fixture.recorder)
    fixture.reconfigureTwiceAndTurn(timerMode: kCFRunLoopDefaultMode, timeout: 5) { strategy.pendingCount == 0 }
    let result = ScenarioMetrics.result(
      kind: .dwu, profile: .reload, refreshHz: 60, recording: recorder.recording, origin: 0)
    return (result, strategy.pendingCount, feed.isVisibleContentComplete)
  }
}
