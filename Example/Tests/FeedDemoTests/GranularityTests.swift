import CoreFoundation
import Foundation
import XCTest

@testable import FeedDemoKit

/// Like for like (issue 26, item 1): every main-thread strategy is given the app's work at both granularities.
/// At `tiles` a peer gets each tile as an item of its own, guarded per tile; IdleWork's `whole` setup gets one
/// task per draw.
final class GranularityTests: XCTestCase {
  /// Texture's queue, DWU and the main queue given tiles: a draw becomes `tilesPerDraw` items, and its image
  /// shows only once the last of them has run (Texture and DWU run one tile per `BeforeWaiting`, so the state
  /// before the last tile can be seen; the main queue drains them all in one turn).
  func testAPeerAtTilesEnqueuesEveryTileAndShowsTheImageAfterTheLast() {
    MainActor.assumeIsolated {
      for kind in [StrategyKind.runLoopQueueTiles, .dwuTiles, .mainQueueTiles] {
        let scene = Scene(kind)
        defer { scene.fixture.tearDown() }
        let (strategy, request, tiles) = (scene.strategy, scene.request, scene.tiles)
        XCTAssertEqual(tiles, 12, "heavy: 3 rasterisations of 4 bands")
        XCTAssertEqual(strategy.pendingCount, 0)
        strategy.schedule(request)
        XCTAssertEqual(strategy.pendingCount, tiles, "\(kind): one item per tile")
        if kind != .mainQueueTiles {
          XCTAssertTrue(Self.turn { request.tilesDrawn == tiles - 1 }, "\(kind)")
          XCTAssertEqual(strategy.pendingCount, 1, "\(kind): one tile a pass")
          XCTAssertEqual(scene.shown, 2, "\(kind): not shown before its last tile")
          XCTAssertTrue(scene.fixture.recorder.recording.draws.isEmpty, "\(kind)")
        }
        XCTAssertTrue(Self.turn { strategy.pendingCount == 0 }, "\(kind)")
        XCTAssertTrue(request.hasRun, "\(kind)")
        XCTAssertEqual(request.tilesDrawn, tiles, "\(kind)")
        XCTAssertEqual(scene.shown, 3, "\(kind): the last tile shows the image")
        XCTAssertEqual(scene.fixture.recorder.recording.draws.count, 1, "\(kind): recorded as one draw")
      }
    }
  }

  /// A tile whose cell now shows another row is skipped, and the rest of its draw with it: Texture and DWU
  /// after two tiles were drawn, the main queue before any.
  func testATileOfACellShowingAnotherRowIsSkippedWithTheRestOfItsDraw() {
    MainActor.assumeIsolated {
      for kind in [StrategyKind.runLoopQueueTiles, .dwuTiles, .mainQueueTiles] {
        let scene = Scene(kind)
        defer { scene.fixture.tearDown() }
        let (strategy, request) = (scene.strategy, scene.request)
        strategy.schedule(request)
        let drawnBefore = kind == .mainQueueTiles ? 0 : 2
        if drawnBefore > 0 { XCTAssertTrue(Self.turn { request.tilesDrawn == drawnBefore }, "\(kind)") }
        request.cell.currentIndexPath = IndexPath(indexes: [0, request.row + 100])  // reused for another row
        XCTAssertTrue(Self.turn { strategy.pendingCount == 0 }, "\(kind)")
        XCTAssertEqual(request.tilesDrawn, drawnBefore, "\(kind): no tile drawn into the other row's cell")
        XCTAssertFalse(request.hasRun, "\(kind)")
        XCTAssertEqual(scene.shown, 2, "\(kind)")
        XCTAssertTrue(scene.fixture.recorder.recording.draws.isEmpty, "\(kind)")
      }
    }
  }

  /// Once a tile was skipped, the draw's later tiles are skipped even if the cell shows the row again by their
  /// turn (they would draw the wrong bands): Texture's queue, one tile a pass, lets the cell come back between.
  func testTheRestOfADrawStaysSkippedWhenTheCellShowsTheRowAgain() {
    MainActor.assumeIsolated {
      let scene = Scene(.runLoopQueueTiles)
      defer { scene.fixture.tearDown() }
      let (strategy, request, tiles) = (scene.strategy, scene.request, scene.tiles)
      let indexPath = request.indexPath
      strategy.schedule(request)
      XCTAssertTrue(Self.turn { request.tilesDrawn == 2 })
      request.cell.currentIndexPath = IndexPath(indexes: [0, request.row + 100])
      XCTAssertTrue(Self.turn { strategy.pendingCount == tiles - 3 }, "the third tile skipped")
      request.cell.currentIndexPath = indexPath
      XCTAssertTrue(Self.turn { strategy.pendingCount == 0 })
      XCTAssertEqual(request.tilesDrawn, 2)
      XCTAssertFalse(request.hasRun)
      XCTAssertTrue(scene.fixture.recorder.recording.draws.isEmpty)
    }
  }

  /// DWU's 30-task limit counts tiles: three heavy draws are 36 tiles, so adding them drops the first draw's
  /// first 6 tiles. That draw is counted evicted once, its later tiles are skipped and its image never shows;
  /// the other two draw whole.
  func testDWUAtTilesDropsTilesAndCountsTheirDrawEvictedOnce() {
    MainActor.assumeIsolated {
      let scene = Scene(.dwuTiles)
      defer { scene.fixture.tearDown() }
      let strategy = scene.strategy
      let requests = [scene.request, scene.request(image: 1), scene.request(image: 2)]
      for request in requests { strategy.schedule(request) }
      XCTAssertEqual(strategy.pendingCount, DWUStrategy.defaultMaximumQueueLength)
      XCTAssertEqual(scene.fixture.recorder.recording.evicted, 1, "one draw lost, counted once")
      XCTAssertTrue(Self.turn { strategy.pendingCount == 0 })
      XCTAssertEqual(requests.map(\.hasRun), [false, true, true])
      XCTAssertEqual(requests[0].tilesDrawn, 0, "its tiles after the dropped ones are skipped")
      XCTAssertEqual(scene.fixture.recorder.recording.draws.count, 2)
    }
  }

  /// `idleWorkFeedWhole` hands IdleWork one task per draw, which draws the image whole (no tile), and
  /// measures the draws' cost for the next tasks' `estimatedCost`.
  func testIdleWorkFeedWholeRunsOneTaskPerDraw() {
    MainActor.assumeIsolated {
      let scene = Scene(.idleWorkFeedWhole)
      defer { scene.fixture.tearDown() }
      let strategy = try! XCTUnwrap(scene.strategy as? IdleWorkStrategy)
      let queue = try! XCTUnwrap(strategy.queue)
      let requests = (0..<3).map { scene.request(image: $0) }
      for request in requests { strategy.schedule(request) }
      XCTAssertEqual(queue.statistics.added, 3, "one task per draw")
      XCTAssertNil(strategy.drawCost)
      XCTAssertTrue(Self.turn { strategy.pendingCount == 0 })
      XCTAssertEqual(queue.statistics.executed, 3, "each task ran once")
      for request in requests {
        XCTAssertTrue(request.hasRun)
        XCTAssertEqual(request.tilesDrawn, 0, "drawn whole, not tile by tile")
      }
      XCTAssertEqual(scene.fixture.recorder.recording.draws.count, 3)
      XCTAssertNotNil(strategy.drawCost, "the measured cost for the next estimatedCost")
    }
  }

  /// The kinds, their granularity and the like-for-like pairing the report uses; the JSON names the granularity.
  func testKindsPairAtTheSameGranularity() throws {
    XCTAssertEqual(StrategyKind.idleWorkFeed.granularity, .tiles)
    XCTAssertEqual(StrategyKind.idleWorkFeedWhole.granularity, .whole)
    XCTAssertEqual(StrategyKind.runLoopQueue.granularity, .whole)
    XCTAssertEqual(StrategyKind.runLoopQueueTiles.granularity, .tiles)
    XCTAssertEqual(StrategyKind.idleWorkPrepare.granularity, .whole)
    // The contests pair each main-thread IdleWork setup with Texture's queue given the same granularity, and
    // every peer of a contest shares its IdleWork setup's granularity.
    let peers = Dictionary(uniqueKeysWithValues: Verdict.allContests.map { ($0.idleWork, $0.peers) })
    XCTAssertEqual(peers[.idleWorkFeed]?.first, .runLoopQueueTiles)
    XCTAssertEqual(peers[.idleWorkFeedWhole]?.first, .runLoopQueue)
    // (Texture's synchronous display draws a node whole: its library has no smaller cut.)
    for contest in Verdict.allContests {
      for peer in contest.peers where peer != .textureSyncRanges {
        XCTAssertEqual(peer.granularity, contest.idleWork.granularity, "\(peer)")
      }
    }
    XCTAssertEqual(StrategyKind.textureSyncRanges.granularity, .whole)
    for kind in [StrategyKind.runLoopQueueTiles, .dwuTiles, .mainQueueTiles, .idleWorkFeedWhole] {
      XCTAssertFalse(kind.isBackground)
    }
    let rendered = MainActor.assumeIsolated { JSONReport.strategy(.runLoopQueueTiles).rendered() }
    let entry = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(rendered.utf8)) as? [String: Any])
    XCTAssertEqual(entry["granularity"] as? String, "tiles")
  }

  /// A heavy feed (12 tiles a draw) with `kind` installed, and a draw of image 0 of the first visible row,
  /// whose image view was cleared so that the draw's image showing can be seen.
  @MainActor
  private struct Scene {
    let fixture: FeedFixture
    let strategy: FeedStrategy
    let row: Int
    let cell: FeedCell
    let request: DrawRequest

    init(_ kind: StrategyKind) {
      strategy = kind.make()
      fixture = FeedFixture(profile: .heavy, strategy: strategy)
      row = fixture.feed.visibleRows.lowerBound
      cell = fixture.feed.visibleCells[row]!
      fixture.feed.clearImage(index: 0, of: cell)
      request = DrawRequest(
        cell: cell, indexPath: IndexPath(indexes: [0, row]), version: fixture.feed.version(of: row), imageIndex: 0,
        feed: fixture.feed)
    }

    /// Tiles a draw is cut into.
    var tiles: Int { fixture.feed.model.tilesPerDraw }

    /// A draw of image `image` of the scene's row.
    func request(image: Int) -> DrawRequest {
      DrawRequest(
        cell: cell, indexPath: request.indexPath, version: request.version, imageIndex: image, feed: fixture.feed)
    }

    /// The row's images the cell shows.
    var shown: Int { cell.imagesShown(row: row, version: fixture.feed.version(of: row)) }
  }

  /// Turns the main loop until `done` holds (checked each time it is about to sleep), a 1 ms timer keeping it
  /// waking (DWU draws once per wake-up); `false` if 5 s pass first.
  @MainActor
  private static func turn(until done: @escaping @MainActor () -> Bool) -> Bool {
    let timer = CFRunLoopTimerCreateWithHandler(nil, CFAbsoluteTimeGetCurrent() + 0.001, 0.001, 0, 0) { _ in }
    CFRunLoopAddTimer(CFRunLoopGetMain(), timer, kCFRunLoopDefaultMode)
    defer { CFRunLoopTimerInvalidate(timer) }
    let gate = PhaseGate()
    defer { gate.invalidate() }
    return gate.run(mode: RunLoopModes.defaultCF, timeout: 5, until: done)
  }
}
