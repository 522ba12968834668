import Foundation
import XCTest

@testable import FeedDemoKit

/// The simulated table's prefetching, as UIKit drives `UITableViewDataSourcePrefetching`: rows a screen ahead in
/// the scroll direction, nearest first; cancelled when the user turns back before they appear.
final class PrefetchWindowTests: XCTestCase {
  /// A strategy that draws at once and records the prefetch calls.
  @MainActor
  final class RecordingStrategy: FeedStrategy {
    var calls: [String] = []
    var prefetches: Bool { true }
    func install(for workload: Workload, displayLink: DisplayLink?) {}
    func schedule(_ request: DrawRequest) { request.run() }
    func cellDidEndDisplaying(_ cell: FeedCell, forRowAt indexPath: IndexPath) {}
    func scheduleTask(key: Int, _ task: @escaping @MainActor () -> Void) { task() }
    func discardPending() {}
    var pendingCount: Int { 0 }
    func uninstall() {}
    func prefetchRows(_ rows: [Int], in feed: FeedView) { calls.append("prefetch \(rows)") }
    func cancelPrefetchingRows(_ rows: [Int], in feed: FeedView) { calls.append("cancel \(rows)") }
  }

  func testRowsAScreenAheadAreprefetchedNearestFirstAndCancelledWhenTheUserTurnsBack() {
    MainActor.assumeIsolated {
      let strategy = RecordingStrategy()
      let fixture = FeedFixture(profile: .light, strategy: strategy)
      defer { fixture.tearDown() }
      let feed = fixture.feed
      let screen = feed.visibleRows
      let rowHeight = feed.model.rowHeight
      feed.scroll(to: rowHeight / 2)  // down: the screen below the visible rows, nearest first
      let visible = feed.visibleRows
      let below = Array((visible.upperBound + 1)...(visible.upperBound + visible.count))
      XCTAssertEqual(strategy.calls, ["prefetch \(below)"])
      feed.scroll(to: rowHeight)  // further down by less than a row: only the row newly in the window
      XCTAssertEqual(strategy.calls.count, 1 + (feed.visibleRows.upperBound > visible.upperBound ? 1 : 0))
      strategy.calls = []
      feed.scroll(to: 0)  // the user turns back at the top: nothing above, every row prefetched below is cancelled
      XCTAssertEqual(feed.visibleRows, screen)
      XCTAssertEqual(strategy.calls.count, 1)
      XCTAssertTrue(strategy.calls[0].hasPrefix("cancel "), "\(strategy.calls)")
      strategy.calls = []
      feed.scroll(to: rowHeight * 20)  // a long way down: rows prefetched on the way that appeared are not cancelled
      feed.scroll(to: rowHeight * 20 + 1)
      XCTAssertFalse(strategy.calls.contains { $0.hasPrefix("cancel") }, "\(strategy.calls)")
    }
  }
}
