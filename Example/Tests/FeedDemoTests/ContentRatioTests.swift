import XCTest

@testable import FeedDemoKit

/// Content-complete time over the strategy-independent lower bound, from hand-built recordings.
final class ContentRatioTests: XCTestCase {
  private func recording(completeMs: Double?, boundMs: Double) -> Recording {
    var recording = Recording()
    recording.contentStart = 1_000_000_000
    recording.contentComplete = completeMs.map { 1_000_000_000 + UInt64($0 * 1e6) }
    recording.contentLowerBoundMs = boundMs
    return recording
  }

  private func result(_ recording: Recording) -> ScenarioResult {
    ScenarioMetrics.result(kind: .dwu, profile: .light, refreshHz: 60, recording: recording, origin: 0)
  }

  /// A strategy that fills at a fraction of the main thread's capacity (idle gaps between draws) comes out
  /// at several times the bound.
  func testSlowFillFails() {
    let r = result(recording(completeMs: 6_300, boundMs: 126))
    XCTAssertEqual(r[.contentCompleteMs], 6_300, accuracy: 1e-6)
    XCTAssertEqual(r[.contentRatio], 50, accuracy: 1e-6)
  }

  /// A screen that never completes is infinitely far from the bound (JSON `null`).
  func testNeverCompleteFails() {
    let r = result(recording(completeMs: nil, boundMs: 126))
    XCTAssertEqual(r[.contentCompleteMs], .infinity)
    XCTAssertEqual(r[.contentRatio], .infinity)
    XCTAssertEqual(JSONReport.stat(Stat([.infinity]), 1).rendered().contains("null"), true)
  }

  /// Draws back to back with a little overhead come out just above 1.
  func testBackToBackFillIsClean() {
    XCTAssertEqual(result(recording(completeMs: 130, boundMs: 126))[.contentRatio], 130.0 / 126, accuracy: 1e-9)
  }

  /// The bound is the sum of the visible rows' draws measured in isolation: more rows, a larger bound.
  func testBoundGrowsWithTheVisibleRows() {
    MainActor.assumeIsolated {
      let model = FeedModel.make(Profile.light.settings, seed: 1)
      let bound = ContentBound()
      let one = bound.milliseconds(model: model, rows: 0...0, version: 0)
      let three = bound.milliseconds(model: model, rows: 0...2, version: 0)
      XCTAssertGreaterThan(one, 0)
      XCTAssertGreaterThan(three, one * 2)
    }
  }
}
