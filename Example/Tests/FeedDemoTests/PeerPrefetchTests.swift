import CoreFoundation
import Foundation
import XCTest

@testable import FeedDemoKit

/// The peers' own prefetch paths: Texture's display range (`textureAsyncPrefetch`), computed from the scroll
/// position and direction, and MSCachedAsyncViewDrawing's cache warmed in `prefetchRowsAt`
/// (`msCachedAsyncPrefetch`).
final class PeerPrefetchTests: XCTestCase {
  /// A light feed scrolled to row 30 (down) with Texture's ranges, once everything started has finished: the
  /// rows of the screen below the viewport hold their contents, and so do the rows of the half screen above;
  /// a row three quarters of a screen below does, one three quarters of a screen above does not. Turning back
  /// by a row flips the range: that row above displays, the one below is cancelled and cleared.
  func testTextureDisplaysItsDisplayRangeAheadInTheScrollDirectionAndClearsWhatLeavesIt() {
    MainActor.assumeIsolated {
      let strategy = TextureAsyncDisplayStrategy(ranges: true)
      let fixture = FeedFixture(profile: .light, strategy: strategy)
      defer { fixture.tearDown() }
      let feed = fixture.feed
      let (screen, rowHeight) = (feed.model.viewportHeight, feed.model.rowHeight)
      let start = 30 * rowHeight
      let row = { (position: Double) in Int((position / rowHeight).rounded(.down)) }
      feed.scroll(to: start)
      Self.turn(until: { strategy.pendingCount == 0 })
      let visible = feed.visibleRows
      let aheadEdge = row(start + 2 * screen)  // the leading screen ends in this row
      for ahead in (visible.upperBound + 1)...aheadEdge {
        XCTAssertEqual(strategy.contentsCount(ofRow: ahead), 3, "row \(ahead), a screen ahead at most")
      }
      XCTAssertEqual(strategy.contentsCount(ofRow: aheadEdge + 1), 0, "beyond the leading screen")
      XCTAssertEqual(strategy.contentsCount(ofRow: row(start - screen / 4)), 3, "a quarter of a screen behind")
      let below = row(start + screen * 1.75)
      let above = row(start - screen * 0.75)
      XCTAssertEqual(strategy.contentsCount(ofRow: below), 3, "three quarters of a screen ahead")
      XCTAssertEqual(strategy.contentsCount(ofRow: above), 0, "three quarters of a screen behind")

      feed.scroll(to: start - rowHeight)  // the user turns back: up is ahead now
      Self.turn(until: { strategy.pendingCount == 0 })
      XCTAssertEqual(strategy.contentsCount(ofRow: above), 3, "ahead now")
      XCTAssertEqual(strategy.contentsCount(ofRow: below), 0, "out of the range now: cleared")
    }
  }

  /// A row of the display range whose display finished shows its images in the layout pass that brings it on
  /// screen, before the loop turns; without ranges (`textureAsync`) the same row is blank then.
  func testTextureRowEnteringWithAFinishedDisplayShowsAtOnce() {
    MainActor.assumeIsolated {
      XCTAssertEqual(Self.imagesShownOnEntering(TextureAsyncDisplayStrategy(ranges: true)), 3)
      XCTAssertEqual(Self.imagesShownOnEntering(TextureAsyncDisplayStrategy(ranges: false)), 0)
    }
  }

  /// A row prefetched by `msCachedAsyncPrefetch` (the table's prefetch window handed it over, its draws
  /// finished) is a cache hit in `cellForRow`: its images show in the layout pass that brings it on screen,
  /// before the loop turns; without prefetching (`msCachedAsync`) the same row is blank then.
  func testMSCachedPrefetchedRowIsACacheHitInCellForRow() {
    MainActor.assumeIsolated {
      XCTAssertEqual(Self.imagesShownOnEntering(MSCachedAsyncViewDrawingStrategy(prefetching: true)), 3)
      XCTAssertEqual(Self.imagesShownOnEntering(MSCachedAsyncViewDrawingStrategy(prefetching: false)), 0)
    }
  }

  /// Texture's ranges with synchronous display draw the display range on the main thread: a row of it shows its
  /// images on entering, as with asynchronous display.
  func testTextureSynchronousRangesShowARowOnEntering() {
    MainActor.assumeIsolated {
      XCTAssertEqual(Self.imagesShownOnEntering(TextureAsyncDisplayStrategy(ranges: true, synchronous: true)), 3)
    }
  }

  /// IdleWork's main-thread preparations, prefetched in the main thread's slack: a row about to appear is a cache
  /// hit in `cellForRow`; the same setup without prefetching (`idleWorkFeed`) shows the row blank then.
  func testIdleWorkMainThreadPrefetchedRowIsACacheHitInCellForRow() {
    MainActor.assumeIsolated {
      XCTAssertEqual(
        Self.imagesShownOnEntering(IdleWorkStrategy(variant: .mainThreadPrepare(landing: false), prefetching: true)), 3)
      XCTAssertEqual(Self.imagesShownOnEntering(IdleWorkStrategy(variant: .scrollingFeed)), 0)
    }
  }

  /// The landing recipe: told where a fling will stop, the strategy prefetches the rows on screen there, which
  /// show at once when the feed gets there; without the recipe they are blank.
  func testTheLandingRecipePrefetchesTheRowsWhereAFlingStops() {
    MainActor.assumeIsolated {
      for landing in [true, false] {
        let strategy = IdleWorkStrategy(variant: .mainThreadPrepare(landing: landing), prefetching: true)
        let fixture = FeedFixture(profile: .light, strategy: strategy)
        defer { fixture.tearDown() }
        let feed = fixture.feed
        let target = 30 * feed.model.rowHeight
        strategy.scrollWillEnd(atOffset: target, in: feed)
        Self.turn(until: { strategy.pendingCount == 0 })
        feed.scroll(to: target)
        let row = feed.visibleRows.lowerBound + 1
        let shown = feed.visibleCells[row].map { $0.imagesShown(row: row, version: feed.version(of: row)) }
        XCTAssertEqual(shown, landing ? 3 : 0, "landing: \(landing)")
      }
    }
  }

  /// A light feed scrolled down to row 30 (its ranges, or the table's prefetch window, ahead below); once the
  /// strategy holds nothing, the feed moves down a row. Returns the images the entering row shows at once.
  @MainActor
  private static func imagesShownOnEntering(_ strategy: FeedStrategy) -> Int {
    let fixture = FeedFixture(profile: .light, strategy: strategy)
    defer { fixture.tearDown() }
    let feed = fixture.feed
    let start = 30 * feed.model.rowHeight
    feed.scroll(to: start)
    let next = feed.visibleRows.upperBound + 1
    turn(until: { strategy.pendingCount == 0 })
    feed.scroll(to: start + feed.model.rowHeight)
    XCTAssertTrue(feed.visibleRows.contains(next))
    guard let cell = feed.visibleCells[next] else { return -1 }
    return cell.imagesShown(row: next, version: feed.version(of: next))
  }

  /// Turns the main loop until `done` holds (10 s at most); a 1 ms timer keeps it waking meanwhile.
  @MainActor
  private static func turn(until done: @escaping @MainActor () -> Bool) {
    let timer = CFRunLoopTimerCreateWithHandler(nil, CFAbsoluteTimeGetCurrent() + 0.001, 0.001, 0, 0) { _ in }
    CFRunLoopAddTimer(CFRunLoopGetMain(), timer, kCFRunLoopCommonModes)
    defer { CFRunLoopTimerInvalidate(timer) }
    let gate = PhaseGate()
    defer { gate.invalidate() }
    XCTAssertTrue(gate.run(mode: RunLoopModes.defaultCF, timeout: 10, until: done), "the strategy drained")
  }

  /// The JSON says which strategies draw rows before they appear — prefetching, or Texture's display range —
  /// so that check-json does not hold them to the blank bound, which assumes draws start once a row appeared.
  func testStrategiesThatDrawAheadSayItInTheJSON() throws {
    let expected: [(StrategyKind, Bool)] = [
      (.textureAsyncPrefetch, true), (.textureAsync, false), (.msCachedAsyncPrefetch, true), (.msCachedAsync, false),
      (.workItemPrefetch, true), (.workItem, false), (.idleWorkPreparePrefetch, true), (.idleWorkPrepare, false),
      (.idleWorkMainPrefetch, true), (.idleWorkMainPrefetchLanding, true), (.textureSyncRanges, true),
      (.idleWorkFeed, false),
    ]
    for (kind, drawsAhead) in expected {
      let rendered = MainActor.assumeIsolated { JSONReport.strategy(kind).rendered() }
      let entry = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(rendered.utf8)) as? [String: Any])
      XCTAssertEqual(entry["prefetches"] as? Bool, drawsAhead, kind.rawValue)
    }
  }
}
