import XCTest

@testable import FeedDemoKit

/// Blank-cell seconds over the whole motion, from hand-built samples: blank cells in the fling's slow
/// tail count as well as in the slow drag; a screen that stays complete counts nothing.
final class BlankCellSecondsTests: XCTestCase {
  /// Three blank cells held for half a second are 1.5 cell-seconds; the integral stops at `stop`.
  func testIntegralHoldsEachSampleUntilTheNext() {
    var integral = BlankIntegral()
    integral.sample(at: 0, blank: 3)
    integral.sample(at: 500_000_000, blank: 1)
    integral.stop(at: 750_000_000)
    integral.sample(at: 2_000_000_000, blank: 5)
    XCTAssertEqual(integral.cellSeconds, 1.75, accuracy: 1e-9)
  }

  /// A fling whose tail leaves rows blank, then a slow drag that does too: both phases count, and the
  /// metric (their sum) comes out bad; fill-phase samples are ignored.
  func testFlingTailAndSlowDragFail() {
    MainActor.assumeIsolated {
      let recorder = Recorder()
      recorder.begin(.fling, at: 0)
      recorder.sampleBlank(at: 0, blank: 0)
      recorder.sampleBlank(at: 600_000_000, blank: 2)  // the slow tail: two rows entered blank
      recorder.end(at: 800_000_000)
      recorder.begin(.fill, at: 800_000_000)
      recorder.sampleBlank(at: 800_000_000, blank: 9)
      recorder.end(at: 900_000_000)
      recorder.begin(.slowDrag, at: 900_000_000)
      recorder.sampleBlank(at: 900_000_000, blank: 1)
      recorder.end(at: 1_400_000_000)
      let result = ScenarioMetrics.result(
        kind: .idleWork, profile: .light, refreshHz: 60, recording: recorder.recording, origin: 0)
      XCTAssertEqual(result[.blankCellSecondsFling], 0.4, accuracy: 1e-9)
      XCTAssertEqual(result[.blankCellSecondsSlowDrag], 0.5, accuracy: 1e-9)
      XCTAssertEqual(result[.blankCellSeconds], 0.9, accuracy: 1e-9)
    }
  }

  /// A screen that never has a blank cell while moving counts zero.
  func testCompleteScreenIsClean() {
    MainActor.assumeIsolated {
      let recorder = Recorder()
      recorder.begin(.fling, at: 0)
      recorder.sampleBlank(at: 0, blank: 0)
      recorder.sampleBlank(at: 500_000_000, blank: 0)
      recorder.end(at: 800_000_000)
      let result = ScenarioMetrics.result(
        kind: .sync, profile: .light, refreshHz: 60, recording: recorder.recording, origin: 0)
      XCTAssertEqual(result[.blankCellSeconds], 0)
    }
  }
}
