import Foundation

/// A reusable feed cell: a title and three image views.
///
/// `currentIndexPath` is the app's own property, as DWU's demo adds it to `UITableViewCell` through a
/// category: set in `cellForRow`, read by the baselines' stale guards. The cell does not depend on the
/// IdleWork library; the IdleWork strategies adapt it in their own files.
@MainActor
final class FeedCell {
  /// One image view's content.
  struct ImageSlot: Equatable {
    /// The row whose image this slot holds, or `nil` while it is blank.
    var row: Int?
    /// The content version of that image.
    var version = 0
  }

  /// The index path the cell shows now, for the stale guards: set in `cellForRow` (DWU's category
  /// property). UIKit never clears it; a strategy may (`dwuUnbind`, IdleWork's `cellDidEndDisplaying`).
  var currentIndexPath: IndexPath?
  /// The row and content version the table last configured this cell for — the table's own record, which
  /// no strategy touches. The metrics judge every draw against it, not against `currentIndexPath`.
  var displayedRow: Int?
  /// The content version of `displayedRow` the cell was configured with.
  var displayedVersion = 0
  /// The three image views.
  private(set) var slots: [ImageSlot]
  /// The pixel buffers the images are rasterised into, reused across rows.
  var buffers: [[UInt8]]
  /// What the render server holds for each image view: the commit copies each image set since the previous
  /// commit into it (``commitImage(index:pixels:)``).
  private var layerContents: [[UInt8]]
  /// Per image view, content it showed — its row's current content, while on screen — before it was
  /// cleared or set back to other content, and whether a commit showed it so (``FeedView`` counts flicker
  /// from these).
  var lost: [ImageSlot?]
  var lostSeen: [Bool]
  /// Checksums of the title layout and images, kept so the work is observable.
  private(set) var checksum: UInt64 = 0

  /// Creates a blank cell with `imageCount` image views.
  init(imageCount: Int) {
    slots = Array(repeating: ImageSlot(), count: imageCount)
    buffers = Array(repeating: [], count: imageCount)
    layerContents = Array(repeating: [], count: imageCount)
    lost = Array(repeating: nil, count: imageCount)
    lostSeen = Array(repeating: false, count: imageCount)
  }

  /// Image views in the cell.
  var imageCount: Int { slots.count }

  /// Clears the images, as `prepareForReuse` does.
  func prepareForReuse() {
    for index in slots.indices {
      slots[index] = ImageSlot()
      lost[index] = nil
    }
  }

  /// What image view `index` shows.
  func slot(_ index: Int) -> ImageSlot { slots[index] }

  /// Shows a rendered image (set from the main thread after a background draw); its pixels are copied at
  /// the next commit.
  func setRenderedImage(index: Int, row: Int, version: Int) {
    slots[index] = ImageSlot(row: row, version: version)
  }

  /// Clears image view `index` (`imageView.image = nil`, `layer.contents = nil`).
  func clearImage(index: Int) {
    slots[index] = ImageSlot()
  }

  /// The commit's copy of an image set since the previous commit into the render server's buffer: real
  /// work proportional to the image's bytes.
  func commitImage(index: Int, pixels: [UInt8]) {
    if layerContents[index].count != pixels.count {
      layerContents[index] = [UInt8](repeating: 0, count: pixels.count)
    }
    layerContents[index].withUnsafeMutableBytes { target in
      pixels.withUnsafeBytes { source in target.copyMemory(from: source) }
    }
    checksum &+= UInt64(layerContents[index].last ?? 0)
  }

  /// Sets the title: the synchronous, small part of `cellForRow` (text measurement and line breaking).
  func layoutTitle(_ title: String) {
    var hash: UInt64 = 1_469_598_103_934_665_603
    var width = 0.0
    for _ in 0..<4 {
      for scalar in title.unicodeScalars {
        hash = (hash ^ UInt64(scalar.value)) &* 1_099_511_628_211
        width += Double(hash & 0xF) * 0.37 + 5.5
        if width > 320 { width = 0 }
      }
    }
    checksum &+= hash ^ UInt64(width)
  }

  /// Shows image `index` of `row` in content `version`, rasterised by `draw` into the slot's buffer. The
  /// fade-in that follows runs in the render server and costs the main thread nothing.
  func setImage(index: Int, row: Int, version: Int, draw: (inout [UInt8]) -> UInt32) {
    checksum &+= UInt64(draw(&buffers[index]))
    slots[index] = ImageSlot(row: row, version: version)
  }

  /// Draws one tile of image `index` into the slot's buffer with `draw`; the slot shows nothing new until
  /// the last tile (``setImage(index:row:version:draw:)``), as an image drawn off screen is set when done.
  func drawTile(index: Int, draw: (inout [UInt8]) -> UInt32) {
    checksum &+= UInt64(draw(&buffers[index]))
  }

  /// Marks image `index` as shown without drawing it (the first screen, drawn before the measurement).
  func setImageUnmeasured(index: Int, row: Int, version: Int) {
    slots[index] = ImageSlot(row: row, version: version)
  }

  /// Images this cell shows of `row` in content `version`. The table asks with the row's *current*
  /// version, so a cell still showing old content (data changed, the cell not yet reconfigured) counts as
  /// missing its images.
  func imagesShown(row: Int, version: Int) -> Int {
    slots.reduce(0) { $0 + ($1 == ImageSlot(row: row, version: version) ? 1 : 0) }
  }
}
