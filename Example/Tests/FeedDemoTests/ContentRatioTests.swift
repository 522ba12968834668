import XCTest

@testable import FeedDemoKit

/// Content-complete time over the strategy-independent lower bound, from hand-built recordings.
final class ContentRatioTests: XCTestCase {
  private static func recording(completeMs: Double?, boundMs: Double) -> Recording {
    var recording = Recording()
    recording.contentStart = 1_000_000_000
    recording.contentComplete = completeMs.map { 1_000_000_000 + UInt64($0 * 1e6) }
    recording.contentLowerBoundMs = boundMs
    return recording
  }

  private static func result(_ recording: Recording) -> ScenarioResult {
    ScenarioMetrics.result(kind: .dwu, profile: .light, refreshHz: 60, recording: recording, origin: 0)
  }

  /// A strategy that fills at a fraction of the main thread's capacity (idle gaps between draws) comes out
  /// at several times the bound.
  func testSlowFillFails() {
    let r = Self.result(Self.recording(completeMs: 6_300, boundMs: 126))
    XCTAssertEqual(r[.contentCompleteMs], 6_300, accuracy: 1e-6)
    XCTAssertEqual(r[.contentRatio], 50, accuracy: 1e-6)
  }

  /// A screen that never completes is infinitely far from the bound (JSON `null`).
  func testNeverCompleteFails() {
    let r = Self.result(Self.recording(completeMs: nil, boundMs: 126))
    XCTAssertEqual(r[.contentCompleteMs], .infinity)
    XCTAssertEqual(r[.contentRatio], .infinity)
    XCTAssertEqual(JSONReport.stat(Stat([.infinity]), 1).rendered().contains("null"), true)
  }

  /// Draws back to back with a little overhead come out just above 1.
  func testBackToBackFillIsClean() {
    XCTAssertEqual(
      Self.result(Self.recording(completeMs: 130, boundMs: 126))[.contentRatio], 130.0 / 126, accuracy: 1e-9)
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

  /// Each draw keeps the fastest time any measurement saw, so two measurements each slow in a different
  /// draw (the machine changing speed under them) give the sum of the fast times — not the smaller of two
  /// slow sums, which a strategy drawing in the machine's fast moments would beat (a ratio below 1 for a
  /// strategy that drew nothing early).
  func testEachDrawKeepsItsFastestTimeAcrossMeasurements() {
    MainActor.assumeIsolated {
      let model = FeedModel.make(Profile.light.settings, seed: 1)
      XCTAssertEqual(model.imagesPerRow, 3)
      // Row 0's three draws, each timed three times: image 0 fast in the first measurement, images 1 and 2
      // fast in the second.
      var script: [Double] = [1, 1, 1, 5, 5, 5, 5, 5, 5] + [5, 5, 5, 1, 1, 1, 1, 1, 1]
      var timed = 0
      let bound = ContentBound { draw in
        draw()
        timed += 1
        return script.removeFirst()
      }
      XCTAssertEqual(bound.milliseconds(model: model, rows: 0...0, version: 0), 11, accuracy: 1e-9)
      XCTAssertEqual(bound.milliseconds(model: model, rows: 0...0, version: 0), 11, accuracy: 1e-9)
      XCTAssertEqual(timed, 9, "without a refresh the known minima are summed, nothing is timed again")
      bound.refresh()
      XCTAssertEqual(bound.milliseconds(model: model, rows: 0...0, version: 0), 3, accuracy: 1e-9)
      XCTAssertEqual(timed, 18)
    }
  }

  /// Reload profile, `sync`: the clock starts immediately *before* the rows are reconfigured, so the draws
  /// `sync` makes inside `cellForRow` count — the content takes about as long as the bound, not 0 ms.
  func testSyncReconfigureIsChargedForItsDraws() {
    MainActor.assumeIsolated {
      let model = FeedModel.make(Profile.reload.settings, seed: 1)
      let recorder = Recorder()
      let link = DisplayLink(refreshHz: 60, commitFraction: 0.25)
      defer { link.invalidate() }
      let strategy = SyncStrategy()
      let feed = FeedView(model: model, strategy: strategy, recorder: recorder, displayLink: link)
      feed.loadInitialScreen()
      recorder.begin(.fill, at: Clock.now)
      ScenarioRunner.startContent(feed: feed, recorder: recorder, reconfigure: true)
      recorder.recording.contentLowerBoundMs = ContentBound().milliseconds(
        model: model, rows: feed.visibleRows, version: 1)
      let r = Self.result(recorder.recording)
      XCTAssertGreaterThan(r[.contentCompleteMs], 0)
      XCTAssertGreaterThan(r[.contentRatio], 0.5)
    }
  }

  /// Completion is recorded only in the fill phase: a screen that completes in `rest` (after the fill
  /// timed out) stays "never".
  func testCompletionAfterTheFillDoesNotCount() {
    MainActor.assumeIsolated {
      let model = FeedModel.make(Profile.light.settings, seed: 1)
      let recorder = Recorder()
      let link = DisplayLink(refreshHz: 60, commitFraction: 0.25)
      defer { link.invalidate() }
      let feed = FeedView(model: model, strategy: SyncStrategy(), recorder: recorder, displayLink: link)
      feed.loadInitialScreen()
      recorder.recording.contentStart = Clock.now
      recorder.begin(.rest, at: Clock.now)
      feed.checkContentComplete(at: Clock.now)
      XCTAssertNil(recorder.recording.contentComplete)
      XCTAssertEqual(Self.result(recorder.recording)[.contentCompleteMs], .infinity)
      recorder.begin(.fill, at: Clock.now)
      feed.checkContentComplete(at: Clock.now)
      XCTAssertNotNil(recorder.recording.contentComplete)
    }
  }

  /// The bound is measured before the runs for the rows the flings will stop on: a fling travels exactly
  /// its launch distance, so the predicted rows are the rows the motion lands on.
  func testRowsAtStopArePredicted() {
    let s = ScenarioSettings.full
    for profile in Profile.allCases {
      let p = profile.settings
      let model = FeedModel.make(p, seed: s.seed)
      var offset = 0.0
      for rows in [p.flingRows, -p.backRows] where rows != 0 {
        let velocity = ScrollMotion.flingVelocity(
          distance: rows * model.rowHeight, rate: s.decelerationRate, stopVelocity: s.stopVelocity)
        let motion = ScrollMotion(
          kind: .fling(velocity: velocity, rate: s.decelerationRate, stopVelocity: s.stopVelocity),
          startOffset: offset, startTime: 0)
        let (position, finished) = motion.offset(at: 60_000_000_000)
        XCTAssertTrue(finished)
        offset = min(max(0, position), model.maximumOffset)
      }
      if let speed = p.dragRowsPerSecond, let seconds = p.dragSeconds {
        let drag = ScrollMotion(
          kind: .drag(speed: speed * model.rowHeight, duration: seconds), startOffset: offset, startTime: 0)
        let (position, finished) = drag.offset(at: 60_000_000_000)
        XCTAssertTrue(finished)
        offset = min(max(0, position), model.maximumOffset)
      }
      XCTAssertEqual(
        ScenarioRunner.rowsAtStop(profile, seed: s.seed), model.visibleRows(atOffset: offset), "\(profile)")
    }
  }
}
