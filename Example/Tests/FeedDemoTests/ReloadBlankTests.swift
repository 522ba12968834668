import Foundation
import XCTest

@testable import FeedDemoKit

/// `blankCellSecondsAfterReload`: blank cells counted from the reload (in the fill, where no frame runs) until
/// the visible content is complete — from hand-built samples, and from the real table reconfigured in place.
final class ReloadBlankTests: XCTestCase {
  /// A strategy that leaves the reloaded cells blank for a while gets their blank time; one that fills them at
  /// once gets ~0. Samples after the content was complete, or outside the reload, do not count.
  func testBlankTimeFromTheReloadUntilTheContentIsComplete() {
    MainActor.assumeIsolated {
      let slow = Recorder()
      slow.begin(.fill, at: 0)
      slow.beginAfterReload(at: 10_000_000, blank: 0)
      slow.sampleBlank(at: 10_000_000, blank: 6)  // the rows reconfigured: six cells' images are old
      slow.sampleBlank(at: 110_000_000, blank: 3)
      slow.sampleBlank(at: 210_000_000, blank: 0)
      slow.contentCompleted(at: 210_000_000)
      slow.sampleBlank(at: 300_000_000, blank: 5)  // after completion: not counted
      slow.end(at: 1_000_000_000)
      XCTAssertEqual(Self.result(slow.recording)[.blankCellSecondsAfterReload], 0.9, accuracy: 1e-9)

      let quick = Recorder()
      quick.begin(.fill, at: 0)
      quick.beginAfterReload(at: 10_000_000, blank: 0)
      quick.sampleBlank(at: 10_000_000, blank: 6)
      quick.sampleBlank(at: 10_100_000, blank: 0)
      quick.contentCompleted(at: 10_100_000)
      quick.end(at: 1_000_000_000)
      XCTAssertEqual(Self.result(quick.recording)[.blankCellSecondsAfterReload], 0.0006, accuracy: 1e-9)
    }
  }

  /// Content that never completes is counted until the fill ends, not beyond.
  func testTheIntegralEndsWithTheFill() {
    MainActor.assumeIsolated {
      let recorder = Recorder()
      recorder.begin(.fill, at: 0)
      recorder.beginAfterReload(at: 0, blank: 2)
      recorder.end(at: 500_000_000)
      recorder.begin(.slowDrag, at: 500_000_000)
      recorder.sampleBlank(at: 500_000_000, blank: 7)
      recorder.end(at: 900_000_000)
      let result = Self.result(recorder.recording)
      XCTAssertEqual(result[.blankCellSecondsAfterReload], 1.0, accuracy: 1e-9)
      XCTAssertEqual(result[.blankCellSecondsSlowDrag], 2.8, accuracy: 1e-9)
    }
  }

  /// A run without a reload has no such figure: not a number (JSON `null`), not a 0 that cannot fail.
  func testNoReloadNoFigure() {
    MainActor.assumeIsolated {
      let recorder = Recorder()
      recorder.begin(.fill, at: 0)
      recorder.sampleBlank(at: 0, blank: 4)
      recorder.end(at: 500_000_000)
      XCTAssertTrue(Self.result(recorder.recording)[.blankCellSecondsAfterReload].isNaN)
    }
  }

  /// The real path: the table reconfigures its visible rows with new content through
  /// ``ScenarioRunner/startContent(feed:recorder:reconfigure:newContent:)`` and a strategy that holds every draw
  /// (DWU, its loop not turning) leaves every visible cell blank until the fill ends — the figure is the visible
  /// rows × the fill's length; reloaded with unchanged content, DWU keeps the cells' images and the figure is 0.
  func testReconfiguredRowsCountBlankUntilTheirImagesCome() {
    MainActor.assumeIsolated {
      let hold: UInt64 = 50_000_000
      let changed = Self.blankAfterReload(newContent: true, hold: hold)
      XCTAssertEqual(changed.seconds, changed.visibleRows * 0.05, accuracy: changed.visibleRows * 0.05 * 0.02)
      let same = Self.blankAfterReload(newContent: false, hold: hold)
      XCTAssertEqual(same.seconds, 0)
    }
  }

  /// Reloads the first screen of a `reload` feed with DWU, ends the fill `hold` ns after the reload, and returns
  /// `blankCellSecondsAfterReload` and the visible rows.
  @MainActor
  private static func blankAfterReload(newContent: Bool, hold: UInt64) -> (seconds: Double, visibleRows: Double) {
    let fixture = FeedFixture(profile: .reload, strategy: DWUStrategy(variant: .faithful))
    defer { fixture.tearDown() }
    let (feed, recorder) = (fixture.feed, fixture.recorder)
    recorder.begin(.fill, at: Clock.now)
    ScenarioRunner.startContent(feed: feed, recorder: recorder, reconfigure: true, newContent: newContent)
    recorder.end(at: recorder.recording.contentStart! + hold)
    return (result(recorder.recording)[.blankCellSecondsAfterReload], Double(feed.visibleRows.count))
  }

  @MainActor
  private static func result(_ recording: Recording) -> ScenarioResult {
    ScenarioMetrics.result(kind: .dwu, profile: .reload, refreshHz: 60, recording: recording, origin: 0)
  }
}
