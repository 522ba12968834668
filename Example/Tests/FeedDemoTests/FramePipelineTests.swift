import XCTest

@testable import FeedDemoKit

/// The frame pipeline as iOS runs it: the link's callback moves the offset, the commit lays the rows out
/// (`cellForRow`) and then does the frame's render work, a number of kernel rounds that varies per frame.
final class FramePipelineTests: XCTestCase {
  func testCellForRowRunsInTheCommitsLayoutPassNotInTheLinksCallback() {
    MainActor.assumeIsolated {
      let fixture = FeedFixture(profile: .light, strategy: SyncStrategy())
      defer { fixture.tearDown() }
      let feed = fixture.feed
      let before = Set(feed.visibleCells.keys)
      feed.begin(.drag(speed: 10_000, duration: 1))
      _ = feed.frame(at: Clock.now + 500_000_000)  // half a second into the drag: ~37 rows down
      XCTAssertEqual(Set(feed.visibleCells.keys), before, "the callback must not lay the rows out")
      feed.commit.flush()
      XCTAssertEqual(Set(feed.visibleCells.keys), Set(feed.visibleRows), "the commit lays out the moved rows")
      XCTAssertNotEqual(Set(feed.visibleCells.keys), before)
    }
  }

  func testEachFramesCommitWorkVariesWithinTheVariationAroundTheAverageTheSameForATick() {
    let average = 100_000
    let works = (0..<2_000).map { CommitObserver.iterations(average, tick: Int64($0)) }
    let low = Int(Double(average) * (1 - CommitObserver.variation))
    let high = Int(Double(average) * (1 + CommitObserver.variation))
    XCTAssertTrue(works.allSatisfy { (low...high).contains($0) })
    XCTAssertGreaterThan(Set(works).count, 1_000, "frames differ")
    XCTAssertLessThan(works.min()!, average * 85 / 100)
    XCTAssertGreaterThan(works.max()!, average * 115 / 100)
    let mean = Double(works.reduce(0, +)) / Double(works.count)
    XCTAssertEqual(mean, Double(average), accuracy: Double(average) * 0.01)
    XCTAssertEqual(CommitObserver.iterations(average, tick: 42), CommitObserver.iterations(average, tick: 42))
  }
}
