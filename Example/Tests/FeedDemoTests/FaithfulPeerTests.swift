import CoreFoundation
import XCTest

@testable import FeedDemoKit

/// Each peer's real use, careful and careless: what a reload of unchanged content (`reloadSame`: the visible rows
/// reconfigured in place, same cells, no `prepareForReuse`) does to the images they show.
final class FaithfulPeerTests: XCTestCase {
  /// YYAsyncLayer's README view keeps its contents when given content and asks for display only when its
  /// `YYTransaction` drains; YYLabel's `setTextLayout:` clears them and asks at once.
  func testTheReadmeViewKeepsItsContentsUntilTheDrainAndTheLabelClearsAndAsksAtOnce() {
    MainActor.assumeIsolated {
      let readme = YYAsyncLayerStrategy(variant: .transaction)
      var readmePending = 0
      let (readmeShown, readmeImages) = Self.shownRightAfterReloadSame(readme) {
        readmePending = readme.transactionsPending
      }
      XCTAssertEqual(readmeShown, readmeImages, "no clear on set")
      XCTAssertEqual(readmePending, readmeImages, "setNeedsDisplay waits for the transaction's drain")

      let label = YYAsyncLayerStrategy(variant: .label)
      var labelPending = -1
      let (labelShown, _) = Self.shownRightAfterReloadSame(label) { labelPending = label.transactionsPending }
      XCTAssertEqual(labelShown, 0, "_clearContents in the setter")
      XCTAssertEqual(labelPending, 0, "setNeedsDisplay at once, no YYTransaction")
    }
  }

  /// The careful `DispatchWorkItem` user clears only in `prepareForReuse`, so a reconfigured cell keeps its
  /// images; the careless one clears again in `cellForRow`.
  func testTheCarefulWorkItemDoesNotClearAReconfiguredCellAndTheCarelessOneDoes() {
    MainActor.assumeIsolated {
      let (carefulShown, images) = Self.shownRightAfterReloadSame(WorkItemStrategy(variant: .careful))
      XCTAssertEqual(carefulShown, images)
      let (carelessShown, _) = Self.shownRightAfterReloadSame(WorkItemStrategy(variant: .careless))
      XCTAssertEqual(carelessShown, 0)
      let (prefetchShown, _) = Self.shownRightAfterReloadSame(WorkItemPrefetchStrategy())
      XCTAssertEqual(prefetchShown, images, "the prefetching user clears in prepareForReuse only, as workItem")
    }
  }

  /// A reload of unchanged content, run until every draw landed: the uses that keep the images flicker nowhere;
  /// those that clear them (YYLabel, the careless work item, Texture's new node on reload) flicker once per
  /// image the commit showed blank. Every visible image shows its row again at the end.
  func testReloadSameFlickersOnlyWhereTheUseClears() {
    MainActor.assumeIsolated {
      XCTAssertEqual(Self.flickerAfterReloadSame(YYAsyncLayerStrategy(variant: .transaction)), 0)
      XCTAssertEqual(Self.flickerAfterReloadSame(WorkItemStrategy(variant: .careful)), 0)
      XCTAssertEqual(Self.flickerAfterReloadSame(WorkItemPrefetchStrategy()), 0)
      XCTAssertGreaterThan(Self.flickerAfterReloadSame(YYAsyncLayerStrategy(variant: .label)), 0)
      XCTAssertGreaterThan(Self.flickerAfterReloadSame(WorkItemStrategy(variant: .careless)), 0)
      XCTAssertGreaterThan(Self.flickerAfterReloadSame(TextureAsyncDisplayStrategy()), 0)
    }
  }

  /// The new kinds are registered as the brief's variants: background, out of the default set, the careless
  /// work item a canary.
  func testTheVariantsAreRegistered() {
    MainActor.assumeIsolated {
      XCTAssertEqual((StrategyKind.yyAsyncLayerLabel.make() as? YYAsyncLayerStrategy)?.variant, .label)
      XCTAssertEqual((StrategyKind.yyAsyncLayer.make() as? YYAsyncLayerStrategy)?.variant, .transaction)
      XCTAssertEqual((StrategyKind.workItemCareless.make() as? WorkItemStrategy)?.variant, .careless)
      XCTAssertEqual((StrategyKind.workItem.make() as? WorkItemStrategy)?.variant, .careful)
    }
    for kind in [StrategyKind.yyAsyncLayerLabel, .workItemCareless] {
      XCTAssertTrue(kind.isBackground)
      XCTAssertFalse(Sweep.newcomer.strategies.contains(kind))
    }
    XCTAssertTrue(StrategyKind.workItemCareless.isCanary)
    XCTAssertFalse(StrategyKind.yyAsyncLayerLabel.isCanary)
    XCTAssertFalse(StrategyKind.workItem.isCanary)
  }

  /// Reconfigures the first screen with unchanged content and counts, before the loop turns, the visible
  /// images still showing their row; returns that and the visible images' count. `inspect` runs then too,
  /// before the strategy is uninstalled.
  @MainActor
  private static func shownRightAfterReloadSame(
    _ strategy: FeedStrategy, inspect: @MainActor () -> Void = {}
  ) -> (shown: Int, images: Int) {
    let fixture = FeedFixture(profile: .reloadSame, strategy: strategy)
    defer { fixture.tearDown() }
    let feed = fixture.feed
    let images = feed.visibleRows.count * feed.model.imagesPerRow
    XCTAssertEqual(shown(feed), images, "the first screen shows every image")
    feed.reconfigureVisibleRows(newContent: false)
    inspect()
    return (shown(feed), images)
  }

  /// Reconfigures the first screen with unchanged content and turns the loop until the strategy holds
  /// nothing; returns the flicker counted.
  @MainActor
  private static func flickerAfterReloadSame(_ strategy: FeedStrategy) -> Double {
    let fixture = FeedFixture(profile: .reloadSame, strategy: strategy)
    defer { fixture.tearDown() }
    let (feed, recorder) = (fixture.feed, fixture.recorder)
    recorder.begin(.fill, at: Clock.now)
    feed.reconfigureVisibleRows(newContent: false)
    fixture.turn(timerMode: kCFRunLoopCommonModes, timeout: 10) {
      strategy.pendingCount == 0 && feed.ledger.outstandingJobs == 0 && feed.isVisibleContentComplete
    }
    XCTAssertEqual(strategy.pendingCount, 0, "\(type(of: strategy)) drained")
    XCTAssertTrue(feed.isVisibleContentComplete, "\(type(of: strategy)) shows every image again")
    return Double(recorder.recording.flicker)
  }

  /// Visible images showing their row's current content.
  @MainActor
  private static func shown(_ feed: FeedView) -> Int {
    feed.visibleCells.reduce(0) { $0 + $1.value.imagesShown(row: $1.key, version: feed.version(of: $1.key)) }
  }
}
