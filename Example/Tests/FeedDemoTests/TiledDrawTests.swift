import Foundation
import XCTest

@testable import FeedDemoKit

/// The recommended strategy's draws sliced into tiles (issue 11, item 4): the tiles in order are exactly
/// the whole draw's work, and the image shows only when the last tile is drawn.
final class TiledDrawTests: XCTestCase {
  func testTilesInOrderAreTheWholeDraw() {
    let model = FeedModel.make(Profile.heavy.settings, seed: 7)
    XCTAssertEqual(model.tilesPerDraw, 3 * FeedModel.bandsPerRasterisation)
    var whole: [UInt8] = []
    _ = model.draw(row: 5, image: 1, version: 0, into: &whole)
    var tiled: [UInt8] = []
    for tile in 0..<model.tilesPerDraw { _ = model.drawTile(tile, row: 5, image: 1, version: 0, into: &tiled) }
    XCTAssertEqual(tiled, whole, "every pass, band by band: the same pixels")
    var partial: [UInt8] = []
    for tile in 0..<model.tilesPerDraw - 1 { _ = model.drawTile(tile, row: 5, image: 1, version: 0, into: &partial) }
    XCTAssertNotEqual(partial, whole, "the last band is missing")
  }

  func testTheImageShowsOnlyWhenItsLastTileIsDrawn() {
    MainActor.assumeIsolated {
      let fixture = FeedFixture(profile: .light, strategy: IdleWorkStrategy(variant: .scrollingFeed))
      defer { fixture.tearDown() }
      let feed = fixture.feed
      feed.reconfigureVisibleRows()  // new content: every visible image is missing
      let row = feed.visibleRows.lowerBound
      let cell = try! XCTUnwrap(feed.visibleCells[row])
      let version = feed.version(of: row)
      XCTAssertEqual(cell.imagesShown(row: row, version: version), 0)
      let request = DrawRequest(
        cell: cell, indexPath: IndexPath(indexes: [0, row]), version: version, imageIndex: 0, feed: feed)
      for _ in 0..<feed.model.tilesPerDraw - 1 { XCTAssertFalse(request.runNextTile()) }
      XCTAssertEqual(cell.imagesShown(row: row, version: version), 0, "tiles are drawn off screen")
      XCTAssertFalse(request.hasRun)
      XCTAssertTrue(request.runNextTile(), "the last tile")
      XCTAssertTrue(request.hasRun)
      XCTAssertEqual(cell.imagesShown(row: row, version: version), 1, "the image shows")
      XCTAssertEqual(fixture.recorder.recording.draws.count, 1, "recorded as one draw")
    }
  }
}
