import XCTest

@testable import FeedDemoKit

/// The blank cell·s lower bound, on hand-built visibility traces: its value where it can be worked out by
/// hand, the cores it is given, the rows it does not charge, and a strategy's blank over it.
final class BlankBoundTests: XCTestCase {
  private static let ms: UInt64 = 1_000_000
  private var ms: UInt64 { Self.ms }

  /// One row appears at 0 with three 10 ms draws. On one core they finish at 10, 20 and 30 ms: blank images
  /// 10 + 20 + 30 ms = 60 image-ms = 20 cell-ms. On three cores all finish at 10 ms: 10 cell-ms.
  func testOneRowWorkedOutByHand() {
    let span = BlankBound.Span(samples: [.init(time: 0, rows: 5...5)], end: 100 * ms)
    let one = BlankBound.cellSeconds(spans: [span], initialRows: nil, imagesPerRow: 3, drawNanos: 10 * ms, workers: 1)
    XCTAssertEqual(one, 0.020, accuracy: 1e-9)
    let three = BlankBound.cellSeconds(
      spans: [span], initialRows: nil, imagesPerRow: 3, drawNanos: 10 * ms, workers: 3)
    XCTAssertEqual(three, 0.010, accuracy: 1e-9)
  }

  /// The first screen was drawn before the measurement, a row that left stops counting, and a row shown
  /// again keeps its first appearance as its release (a kept result needs no new draw).
  func testInitialRowsLeavingRowsAndRowsShownAgain() {
    let initial = BlankBound.cellSeconds(
      spans: [.init(samples: [.init(time: 0, rows: 0...2)], end: 100 * ms)], initialRows: 0...2, imagesPerRow: 3,
      drawNanos: 10 * ms, workers: 1)
    XCTAssertEqual(initial, 0)
    // Row 7 is on screen 0–5 ms only: 3 images × 5 ms = 15 image-ms = 5 cell-ms.
    let leaving = BlankBound.cellSeconds(
      spans: [.init(samples: [.init(time: 0, rows: 7...7), .init(time: 5 * ms, rows: 8...8)], end: 5 * ms)],
      initialRows: nil, imagesPerRow: 3, drawNanos: 10 * ms, workers: 3)
    XCTAssertEqual(leaving, 0.005, accuracy: 1e-9)
    // Row 7 again from 200 ms: released at 0, its draws could have finished at 10 ms: nothing blank.
    let again = BlankBound.cellSeconds(
      spans: [
        .init(samples: [.init(time: 0, rows: 7...7)], end: 20 * ms),
        .init(samples: [.init(time: 200 * ms, rows: 7...7)], end: 300 * ms),
      ], initialRows: nil, imagesPerRow: 3, drawNanos: 10 * ms, workers: 3)
    XCTAssertEqual(again, 0.010, accuracy: 1e-9)
  }

  /// The greedy schedule: equal jobs in release order, each on the core free first.
  func testGreedyFinishTimes() {
    XCTAssertEqual(
      BlankBound.greedyFinishTimes(releases: [0, 0, 25], copies: 2, drawNanos: 10, workers: 2),
      [10, 10, 20, 20, 35, 35])
  }

  /// Through the metrics: a strategy blank for 0.5 cell·s against a bound of 0.02 is 25 × the bound (it
  /// fails); with no bound and no blank the ratio is 1.
  func testBlankOverTheBoundThroughTheMetrics() {
    MainActor.assumeIsolated {
      let recorder = Recorder()
      recorder.recording.drawNanos = 10 * Self.ms
      recorder.recording.workerCores = 1
      recorder.begin(.fling, at: 0)
      recorder.sampleVisible(at: 0, rows: 5...5)
      recorder.sampleBlank(at: 0, blank: 1)
      recorder.end(at: 500 * Self.ms)
      let r = ScenarioMetrics.result(
        kind: .workItem, profile: .light, refreshHz: 60, recording: recorder.recording, origin: 0)
      XCTAssertEqual(r[.blankCellSeconds], 0.5, accuracy: 1e-9)
      XCTAssertEqual(r[.blankCellSecondsLowerBound], 0.02, accuracy: 1e-9)
      XCTAssertEqual(r[.blankRatio], 25, accuracy: 1e-6)
      let none = ScenarioMetrics.result(
        kind: .sync, profile: .light, refreshHz: 60, recording: Recording(), origin: 0)
      XCTAssertEqual(none[.blankRatio], 1)
    }
  }
}
