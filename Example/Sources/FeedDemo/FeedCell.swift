import Foundation

/// A reusable feed cell: a title and three image views, each with its own fade-in.
///
/// It has its own `currentIndexPath`, as a cell of an app coming from DWURunLoopWorkDistribution would:
/// the index path it shows now, rebound on every reuse, read by the baselines' guards. IdleWork does not
/// use it (it keeps its own record of each cell's configuration).
@MainActor
final class FeedCell {
  /// One image view's content.
  struct ImageSlot {
    /// The row whose image this slot holds, or `nil` while it is blank.
    var row: Int?
    /// When the image was set (its 0.3 s fade-in starts then), in clock nanoseconds.
    var fadeStart: UInt64 = 0
  }

  /// The index path the cell shows now, for the strategies' stale checks: set in `cellForRow` (DWU's
  /// category property); UIKit never clears it, but IdleWork's `cellDidEndDisplaying(_:)` sets it to `nil`.
  var currentIndexPath: IndexPath?
  /// The row the table last configured this cell for — the table's own record, which no strategy touches.
  /// The cell keeps showing that row's content (also while it waits in the reuse pool) until it is
  /// configured again; the metrics judge every draw against it, not against `currentIndexPath`.
  var displayedRow: Int?
  /// The three image views.
  private(set) var slots: [ImageSlot]
  /// The pixel buffers the images are rasterised into, reused across rows.
  var buffers: [[UInt8]]
  /// Checksums of the title layout and images, kept so the work is observable.
  private(set) var checksum: UInt64 = 0

  /// Creates a blank cell with `imageCount` image views.
  init(imageCount: Int) {
    slots = Array(repeating: ImageSlot(), count: imageCount)
    buffers = Array(repeating: [], count: imageCount)
  }

  /// Clears the images, as `prepareForReuse` does.
  func prepareForReuse() {
    for index in slots.indices { slots[index] = ImageSlot() }
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

  /// Rasterises image `index` for `row` into the cell and starts its fade-in at `now`.
  func drawImage(index: Int, row: Int, seed: UInt64, now: UInt64) {
    checksum &+= UInt64(ImageRasterizer.draw(seed: seed, into: &buffers[index]))
    slots[index] = ImageSlot(row: row, fadeStart: now)
  }

  /// Images this cell shows for its current row.
  var imagesShown: Int {
    guard let row = displayedRow else { return 0 }
    return slots.reduce(0) { $0 + ($1.row == row ? 1 : 0) }
  }

  /// Whether an image of the current row is still fading in at `now`.
  func isFading(now: UInt64, duration: UInt64) -> Bool {
    guard let row = displayedRow else { return false }
    return slots.contains { $0.row == row && now < $0.fadeStart &+ duration }
  }
}
