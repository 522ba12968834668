/// A workload the feed runs under, selected with `--profile`. Each profile stresses a different part of
/// a scheduling policy, and each runs at 60 and 120 Hz.
public enum Profile: String, CaseIterable, Sendable {
  /// Issue 3's workload on the new pipeline: 135 pt rows (DWU's demo), ~2 ms draws, commit work a quarter
  /// of the period. The baseline every other profile is compared with.
  case light
  /// ~6 ms draws and commit work at half the period: a policy that draws while the list is tracked
  /// (Texture's common modes) now overruns frames, which the light profile could never show.
  case heavy
  /// 60 pt rows (~14 visible, 42 draws in view, more than a 30-task queue holds), a fling down ~40 rows
  /// then back up ~20: capacity limits evict draws of rows that are on screen.
  case dense
  /// The data changes for the visible index paths while images are still filling, and the rows are
  /// reconfigured in place (`reconfigureRows`, a diffable snapshot's reconfigure: each cell stays on its
  /// row): a draw of the old content that still runs is a stale execution, and an index-path guard cannot
  /// see it.
  case reload
  /// As `light`, then a fling back up over the same ~40 rows: rows shown again, where a strategy that keeps
  /// its rendered results (a cache) pays.
  case flingBack
  /// As `reload`, but the reloaded data is *unchanged*: the visible rows are reconfigured with the same
  /// content. A strategy that clears the image and draws the same content again flickers.
  case reloadSame
  /// As `light`, with a thread keeping a core half busy the whole time (``BackgroundLoad``): phones decode,
  /// download and sync in the background while the user scrolls, and the main thread and the workers compete
  /// with it for the cores.
  case busy
  /// `flingBack`'s motion (rows shown again, where a cache pays) with photo-sized results: each image a
  /// 512×512 px bitmap (1 MiB, four times the pixels of the others, rasterised for real: ~4× the draw, ~4 ms
  /// here), so the 141 images the run shows (47 rows × 3) make a working set of 141 MiB, over four times the
  /// 32 MiB that the strategies with a result cache keep (IdleWork's `.scrollingFeed()`,
  /// ``WorkItemPrefetchStrategy/cacheLimit``): the caches evict, and `peakResultBytes` shows whether each
  /// strategy stays within its limit (`resultByteLimit` in the JSON). In the full sweep (`--full`).
  case photos
  /// `heavy`'s draws and commit, no fling: a steady 3 s drag at 20 rows/s begun as soon as the first screen loaded.
  /// Every row fills while the finger moves, each apply competing with a half-period commit for the frame's time
  /// (a fling passes its rows too fast to fill, and its screen fills at rest, with no frame to fit).
  case drag

  /// The numbers that make up the profile.
  var settings: ProfileSettings {
    switch self {
    case .light:
      return ProfileSettings(rowHeight: 135, drawPasses: 1, commitFraction: 0.25, flingRows: 40.4, backRows: 0)
    case .heavy:
      return ProfileSettings(rowHeight: 135, drawPasses: 3, commitFraction: 0.5, flingRows: 40.4, backRows: 0)
    case .dense:
      return ProfileSettings(rowHeight: 60, drawPasses: 1, commitFraction: 0.25, flingRows: 40.4, backRows: 20)
    case .reload:
      var settings = ProfileSettings(
        rowHeight: 135, drawPasses: 1, commitFraction: 0.25, flingRows: 40.4, backRows: 0)
      settings.reloads = true
      return settings
    case .flingBack:
      return ProfileSettings(rowHeight: 135, drawPasses: 1, commitFraction: 0.25, flingRows: 40.4, backRows: 40)
    case .reloadSame:
      var settings = ProfileSettings(
        rowHeight: 135, drawPasses: 1, commitFraction: 0.25, flingRows: 40.4, backRows: 0)
      settings.reloads = true
      settings.reloadKeepsContent = true
      return settings
    case .busy:
      var settings = ProfileSettings(
        rowHeight: 135, drawPasses: 1, commitFraction: 0.25, flingRows: 40.4, backRows: 0)
      settings.backgroundLoad = 0.5
      return settings
    case .photos:
      var settings = ProfileSettings(
        rowHeight: 135, drawPasses: 1, commitFraction: 0.25, flingRows: 40.4, backRows: 40)
      settings.imagePixels = 512
      return settings
    case .drag:
      var settings = ProfileSettings(rowHeight: 135, drawPasses: 3, commitFraction: 0.5, flingRows: 0, backRows: 0)
      settings.dragRowsPerSecond = 20
      settings.dragSeconds = 3
      return settings
    }
  }

  /// One line for the report.
  var summary: String {
    let s = settings
    var text =
      "\(Int(s.rowHeight)) pt rows, draw ×\(s.drawPasses), commit \(Int(s.commitFraction * 100))% of the period"
    if s.flingRows > 0 { text += ", fling \(fmt(s.flingRows, 1)) rows down" }
    if s.backRows > 0 { text += " then \(fmt(s.backRows, 0)) up" }
    if let speed = s.dragRowsPerSecond, let seconds = s.dragSeconds {
      text += ", a steady drag at \(fmt(speed, 0)) rows/s for \(fmt(seconds, 0)) s"
    }
    if s.imagePixels != ImageRasterizer.pixelSize {
      let megabytes = Double(ImageRasterizer.byteCount(pixels: s.imagePixels)) / Double(1 << 20)
      text += ", \(s.imagePixels)×\(s.imagePixels) px images (\(fmt(megabytes, 1)) MiB each)"
    }
    if s.backgroundLoad > 0 { text += ", a thread keeping a core \(Int(s.backgroundLoad * 100))% busy" }
    if s.reloads {
      text +=
        ", the visible rows reconfigured with \(s.reloadKeepsContent ? "unchanged" : "new") content during the fill"
    }
    return text
  }
}

/// The numbers of a ``Profile``: geometry, cost of a draw and of a frame's commit, and the motion.
public struct ProfileSettings: Sendable {
  /// Row height in points (the viewport is 812 pt, an iPhone's).
  var rowHeight: Double
  /// How many times one image is rasterised per draw: 1 is ~2 ms here, 3 is ~6 ms.
  var drawPasses: Int
  /// The commit observer's work per frame as a fraction of the refresh period (layout and commit).
  var commitFraction: Double
  /// Rows the first fling travels downwards (ending mid-row, so rows enter during the slow drag).
  var flingRows: Double
  /// Rows a second fling travels back up right after the first (0: none).
  var backRows: Double
  /// Whether the visible rows' data changes (reconfigured in place) while their images are still filling.
  var reloads = false
  /// With `reloads`: whether the reloaded data is the same (the content version does not change).
  var reloadKeepsContent = false
  /// How busy a background thread keeps one core through the scenario (0: no such thread).
  var backgroundLoad = 0.0
  /// Side of each image's bitmap in pixels: ``ImageRasterizer/pixelSize`` (85 pt at 3×, 260 KB), or 512 in
  /// `photos` (1 MiB, a photo decoded for display; the draw costs in proportion to the pixels).
  var imagePixels = ImageRasterizer.pixelSize
  /// The speed in rows per second and the length in seconds of a drag that is the profile's motion, begun as the
  /// first screen loads (`nil`: none).
  var dragRowsPerSecond: Double?
  var dragSeconds: Double?

  /// The content version the visible rows show at the fill: 1 after a reload that changed them, else 0.
  var versionAtFill: Int { reloads && !reloadKeepsContent ? 1 : 0 }

  /// Creates profile settings.
  init(rowHeight: Double, drawPasses: Int, commitFraction: Double, flingRows: Double, backRows: Double) {
    self.rowHeight = rowHeight
    self.drawPasses = drawPasses
    self.commitFraction = commitFraction
    self.flingRows = flingRows
    self.backRows = backRows
  }
}
