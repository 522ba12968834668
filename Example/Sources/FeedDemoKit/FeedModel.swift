import Foundation

/// The feed's content and geometry — DWURunLoopWorkDistribution's demo table (399 rows, a title and three
/// images each) seen through an iPhone-sized viewport of 812 pt — with a content version that a reload
/// bumps, so that a draw of a row's old content can be told from one of its new content.
struct FeedModel: Sendable {
  /// Rows in the feed.
  let rowCount: Int
  /// Row height in points.
  let rowHeight: Double
  /// Viewport height in points.
  let viewportHeight: Double
  /// Images per row.
  let imagesPerRow: Int
  /// Rasterisations per image draw (the profile's draw cost).
  let drawPasses: Int
  /// Side of one image's bitmap in pixels (``ImageRasterizer/pixelSize`` but in the `photos` profile).
  let imagePixels: Int
  /// The seed every strategy's feed is built from.
  let seed: UInt64

  /// The feed of `profile`.
  static func make(_ profile: ProfileSettings, seed: UInt64) -> FeedModel {
    FeedModel(
      rowCount: 399, rowHeight: profile.rowHeight, viewportHeight: 812, imagesPerRow: 3,
      drawPasses: profile.drawPasses, imagePixels: profile.imagePixels, seed: seed)
  }

  /// Bytes of one image's RGBA8 bitmap: what a rendered result holds.
  var imageByteCount: Int { ImageRasterizer.byteCount(pixels: imagePixels) }

  /// The largest scroll offset.
  var maximumOffset: Double { max(0, Double(rowCount) * rowHeight - viewportHeight) }

  /// Rows whose frame intersects the viewport at `offset`.
  func visibleRows(atOffset offset: Double) -> ClosedRange<Int> {
    let first = max(0, Int((offset / rowHeight).rounded(.down)))
    let last = min(rowCount - 1, Int(((offset + viewportHeight) / rowHeight).rounded(.up)) - 1)
    return first...max(first, last)
  }

  /// The seed of image `image` of `row` in content `version`.
  func imageSeed(row: Int, image: Int, version: Int) -> UInt64 {
    var rng = SplitMix(
      seed: seed ^ (UInt64(row) &* 0x1000_0001) ^ (UInt64(image) &* 0x9E37) ^ (UInt64(version) &* 0x51_7CC1))
    return rng.next()
  }

  /// The title of `row`, laid out synchronously in `cellForRow`.
  func title(row: Int) -> String { "Row \(row) · a short caption for the feed item number \(row)" }

  /// Horizontal bands each rasterisation is cut into when a draw is sliced into tiles.
  static let bandsPerRasterisation = 4

  /// Tiles one image draw is sliced into: every rasterisation pass, band by band.
  var tilesPerDraw: Int { drawPasses * Self.bandsPerRasterisation }

  /// Draws tile `tile` (`0..<tilesPerDraw`) of image `image` of `row` (content `version`) into `buffer`: the
  /// tiles in order are the work of ``draw(row:image:version:into:)``, band by band.
  func drawTile(_ tile: Int, row: Int, image: Int, version: Int, into buffer: inout [UInt8]) -> UInt32 {
    precondition((0..<tilesPerDraw).contains(tile), "tile must lie in 0..<\(tilesPerDraw)")
    let bands = Self.bandsPerRasterisation
    let (pass, band) = tile.quotientAndRemainder(dividingBy: bands)
    let size = imagePixels
    return ImageRasterizer.draw(
      seed: imageSeed(row: row, image: image, version: version) &+ UInt64(pass), size: size,
      rows: band * size / bands..<(band + 1) * size / bands, into: &buffer)
  }

  /// Draws image `image` of `row` (content `version`) into `buffer`: the profile's real rasterisation work.
  func draw(row: Int, image: Int, version: Int, into buffer: inout [UInt8]) -> UInt32 {
    var checksum: UInt32 = 0
    for pass in 0..<drawPasses {
      checksum &+= ImageRasterizer.draw(
        seed: imageSeed(row: row, image: image, version: version) &+ UInt64(pass), size: imagePixels, into: &buffer)
    }
    return checksum
  }
}
