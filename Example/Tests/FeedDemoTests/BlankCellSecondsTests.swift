import Foundation
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

  /// The real sampling path: a `FeedView` flung ~15 rows in one frame, with a strategy that holds every
  /// draw (DWU, its loop not turning), samples the rows that entered blank in `frame(at:)`, and the
  /// recorder integrates them until the phase ends; with `sync` (drawn in `cellForRow`) nothing is blank.
  func testFeedViewSamplesRowsEnteringBlank() {
    MainActor.assumeIsolated {
      let held = Self.blankSecondsOfOneFling(DWUStrategy(variant: .faithful), holdSeconds: 0.05)
      XCTAssertGreaterThan(held.seconds, held.visibleRows * 0.05 * 0.9)
      let sync = Self.blankSecondsOfOneFling(SyncStrategy(), holdSeconds: 0.05)
      XCTAssertEqual(sync.seconds, 0)
    }
  }

  /// Flings a light feed with `strategy` through `FeedView.frame(at:)`, holds the landed screen for
  /// `holdSeconds`, and returns the fling's blank cell-seconds (through ``ScenarioMetrics``) and the
  /// number of visible rows.
  @MainActor
  private static func blankSecondsOfOneFling(
    _ strategy: FeedStrategy, holdSeconds: Double
  ) -> (
    seconds: Double, visibleRows: Double
  ) {
    let fixture = FeedFixture(profile: .light, strategy: strategy)
    defer { fixture.tearDown() }
    let (feed, recorder) = (fixture.feed, fixture.recorder)
    recorder.begin(.fling, at: Clock.now)
    recorder.sampleBlank(at: Clock.now, blank: feed.blankCells)
    feed.begin(.fling(velocity: 20_000, rate: 0.99, stopVelocity: 50))
    _ = feed.frame(at: Clock.now + 10_000_000_000)  // past the fling's end: it lands ~15 rows down
    feed.layoutIfNeeded()  // the commit's layout pass
    XCTAssertFalse(feed.isScrolling)
    Thread.sleep(forTimeInterval: holdSeconds)
    recorder.end(at: Clock.now)
    let result = ScenarioMetrics.result(
      kind: .dwu, profile: .light, refreshHz: 60, recording: recorder.recording, origin: 0)
    return (result[.blankCellSecondsFling], Double(feed.visibleRows.count))
  }
}
