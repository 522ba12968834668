import Foundation

/// A rendered image: what a background strategy's draw produces off the main thread and hands to the main
/// thread to set on a cell (a `UIImage`/`CGImage` on iOS). It owns its pixels (a bitmap the size of one feed
/// image, ``FeedModel/imageByteCount`` bytes) and tells the scenario's ``RenderLedger`` when it is created
/// and freed, so the ledger knows how many bytes of rendered results are alive at every moment.
///
/// Immutable, so it crosses threads freely.
final class RenderedImage: Sendable {
  /// A number unique within the scenario: a result applied twice (a cache hit) is one render.
  let id: Int
  /// The content drawn: the row, its content version and which of its images.
  let row: Int
  let version: Int
  let imageIndex: Int
  /// The bitmap.
  let pixels: [UInt8]
  private let ledger: RenderLedger

  /// Bytes of the bitmap.
  var byteCount: Int { pixels.count }

  /// Wraps `pixels` (a finished render) and counts it in `ledger`.
  init(row: Int, version: Int, imageIndex: Int, pixels: [UInt8], ledger: RenderLedger) {
    self.row = row
    self.version = version
    self.imageIndex = imageIndex
    self.pixels = pixels
    self.ledger = ledger
    self.id = ledger.imageCreated(bytes: pixels.count)
  }

  deinit { ledger.imageReleased(bytes: pixels.count) }
}

/// Everything a worker thread needs to draw one image, captured on the main thread from a ``DrawRequest``:
/// the feed's model (a value), the content to draw and the ledger. `Sendable`, unlike the request (which
/// holds the cell).
struct RenderJob: Sendable {
  let model: FeedModel
  let row: Int
  let version: Int
  let imageIndex: Int
  let ledger: RenderLedger

  /// Draws the image into a new bitmap — the same rasterisation work as a main-thread draw, band by band —
  /// polling `isCancelled` before each band (YYAsyncLayer's and Texture's `isCancelled` blocks are polled
  /// inside the draw); returns `nil` if it was cancelled part-way (the work done so far is burned CPU, not a
  /// render).
  func render(isCancelled: () -> Bool = { false }) -> RenderedImage? {
    ledger.renderBegan()
    defer { ledger.renderEnded() }
    var buffer = [UInt8](repeating: 0, count: model.imageByteCount)
    var checksum: UInt32 = 0
    for tile in 0..<model.tilesPerDraw {
      if isCancelled() { return nil }
      checksum &+= model.drawTile(tile, row: row, image: imageIndex, version: version, into: &buffer)
    }
    // The checksum lands in the bitmap's last byte (its alpha, always 255 otherwise), so the work is kept.
    buffer[buffer.count - 1] = UInt8(truncatingIfNeeded: checksum | 1)
    return RenderedImage(row: row, version: version, imageIndex: imageIndex, pixels: buffer, ledger: ledger)
  }
}

/// One image drawn a tile at a time (a main-thread preparation's slices): the same work as ``RenderJob/render(isCancelled:)``,
/// band by band, with the image made when the last band is drawn.
struct TileRender {
  let job: RenderJob
  private var buffer: [UInt8]
  private var checksum: UInt32 = 0
  private var next = 0

  init(_ job: RenderJob) {
    self.job = job
    buffer = [UInt8](repeating: 0, count: job.model.imageByteCount)
  }

  /// Draws the next tile; returns the image once the last is drawn.
  mutating func drawNext() -> RenderedImage? {
    let job = job
    checksum &+= job.model.drawTile(next, row: job.row, image: job.imageIndex, version: job.version, into: &buffer)
    next += 1
    guard next == job.model.tilesPerDraw else { return nil }
    // The checksum lands in the bitmap's last byte (its alpha, always 255 otherwise), so the work is kept.
    buffer[buffer.count - 1] = UInt8(truncatingIfNeeded: checksum | 1)
    return RenderedImage(
      row: job.row, version: job.version, imageIndex: job.imageIndex, pixels: buffer, ledger: job.ledger)
  }
}
