import Foundation

/// A `UITableView` simulated faithfully enough to compare scheduling policies: a viewport over the feed,
/// cells reused from a pool, `cellForRow` for rows entering the viewport, `didEndDisplaying` for rows
/// leaving it, image fade-ins, and the frame's fixed layout/render work — all on the real main run loop,
/// driven by the display link.
@MainActor
final class FeedView {
  /// How long a finished image fades in.
  static let fadeDuration: UInt64 = 300_000_000

  let model: FeedModel
  private let strategy: FeedStrategy
  private let recorder: Recorder
  private let displayLink: DisplayLink
  private let pool: CellPool
  /// Nanoseconds of fixed layout/render work per frame: a quarter of the refresh period.
  private let frameWork: UInt64
  /// Cells on screen, by row.
  private(set) var visibleCells: [Int: FeedCell] = [:]
  /// The content offset.
  private(set) var offset = 0.0
  private var motion: ScrollMotion?
  private var blankSampleTime: UInt64 = 0
  /// Kept so the frames' work is observable.
  private var sink: UInt64 = 0

  /// Creates the table at offset 0; call ``loadInitialScreen()`` before scrolling.
  init(model: FeedModel, strategy: FeedStrategy, recorder: Recorder, displayLink: DisplayLink) {
    self.model = model
    self.strategy = strategy
    self.recorder = recorder
    self.displayLink = displayLink
    self.pool = CellPool(imageCount: model.imagesPerRow)
    self.frameWork = displayLink.period / 4
  }

  /// Whether a scroll is in progress.
  var isScrolling: Bool { motion != nil }

  /// Rows on screen now.
  var visibleRows: ClosedRange<Int> { model.visibleRows(atOffset: offset) }

  /// Whether every visible cell shows all its images.
  var isVisibleContentComplete: Bool {
    visibleCells.values.allSatisfy { $0.imagesShown == model.imagesPerRow }
  }

  /// Visible cells' missing images, in cells (a cell missing all its images counts 1).
  var blankCells: Double {
    let missing = visibleCells.values.reduce(0) { $0 + (model.imagesPerRow - $1.imagesShown) }
    return Double(missing) / Double(model.imagesPerRow)
  }

  /// Shows the first screen with its images already drawn (not measured), as after the app's launch.
  func loadInitialScreen() {
    for row in visibleRows {
      let cell = pool.dequeue()
      cell.prepareForReuse()
      cell.currentIndexPath = IndexPath(indexes: [0, row])
      cell.displayedRow = row
      cell.layoutTitle(model.title(row: row))
      for image in 0..<model.imagesPerRow {
        cell.drawImage(index: image, row: row, seed: model.imageSeed(row: row, image: image), now: 0)
      }
      visibleCells[row] = cell
    }
  }

  /// Starts a scroll; the display link runs until it ends.
  func begin(_ kind: ScrollMotion.Kind) {
    motion = ScrollMotion(kind: kind, startOffset: offset, startTime: displayLink.nextTick(after: Clock.now))
    displayLink.start()
  }

  /// Starts integrating blank cells (the slow drag) from `time`.
  func startBlankMeter(at time: UInt64) { blankSampleTime = time }

  /// Adds the blank cells since the last sample to the slow drag's integral, if the drag is being measured.
  func sampleBlank(at time: UInt64) {
    guard recorder.phase == .slowDrag, time > blankSampleTime else { return }
    recorder.blankCellSeconds += blankCells * Double(time - blankSampleTime) / 1e9
    blankSampleTime = time
  }

  // MARK: Frames

  /// One display-link frame: advance the scroll, lay out (cellForRow for entering rows), fixed render
  /// work. Returns whether another frame is needed (scrolling, or a fade-in in flight).
  func frame(at start: UInt64) -> Bool {
    if let motion {
      let (position, finished) = motion.offset(at: start)
      sampleBlank(at: start)
      offset = min(max(0, position), model.maximumOffset)
      if finished { self.motion = nil }
      layoutVisibleRows()
    }
    sink &+= CPUWork.run(forNanoseconds: frameWork, seed: UInt64(truncatingIfNeeded: start))
    let now = Clock.now
    return isScrolling || visibleCells.values.contains { $0.isFading(now: now, duration: FeedView.fadeDuration) }
  }

  /// Recycles cells that left the viewport and configures rows that entered it. As in `UITableView`, a
  /// cell that leaves is removed from the visible cells, the delegate's `didEndDisplaying` is called, and
  /// the cell goes to the reuse pool — before the entering rows' `cellForRow` may dequeue it.
  private func layoutVisibleRows() {
    let rows = visibleRows
    for (row, cell) in visibleCells where !rows.contains(row) {
      visibleCells[row] = nil
      strategy.cellDidEndDisplaying(cell, forRowAt: IndexPath(indexes: [0, row]))
      pool.recycle(cell)
    }
    for row in rows where visibleCells[row] == nil {
      visibleCells[row] = cellForRow(row)
    }
  }

  /// `tableView(_:cellForRowAt:)`: dequeue, rebind, lay out the title, hand the three draws over.
  private func cellForRow(_ row: Int) -> FeedCell {
    let cell = pool.dequeue()
    let indexPath = IndexPath(indexes: [0, row])
    cell.prepareForReuse()
    cell.currentIndexPath = indexPath
    cell.displayedRow = row
    cell.layoutTitle(model.title(row: row))
    for image in 0..<model.imagesPerRow {
      strategy.schedule(DrawRequest(cell: cell, indexPath: indexPath, imageIndex: image, feed: self))
    }
    return cell
  }

  // MARK: Draws

  /// Rasterises a request's image into its cell now and records what it was worth, judged by the table's
  /// own record (`displayedRow`), not by `currentIndexPath`, which a strategy may have cleared: *stale* if
  /// the cell was configured for another row since (wrong content in a cell), *off screen* if the cell
  /// still holds this row but the row is outside the viewport (wasted work nobody sees).
  func performDraw(_ request: DrawRequest) {
    let start = Clock.now
    let row = request.indexPath[1]
    let stale = request.cell.displayedRow != row
    let offscreen = !stale && !visibleRows.contains(row)
    sampleBlank(at: start)
    request.cell.drawImage(
      index: request.imageIndex, row: row, seed: model.imageSeed(row: row, image: request.imageIndex), now: start)
    let end = Clock.now
    recorder.recordDraw(start: start, end: end, row: row, stale: stale, offscreen: offscreen)
    if !stale, !offscreen { displayLink.start() }
    if recorder.phase == .fill, recorder.contentComplete == nil, isVisibleContentComplete {
      recorder.contentComplete = end
    }
  }

  /// Records a request the strategy dropped because its queue was full.
  func recordEviction(_ request: DrawRequest) {
    recorder.evicted += 1
    let row = request.indexPath[1]
    if visibleRows.contains(row), request.cell.displayedRow == row {
      recorder.visibleEvicted += 1
    }
  }
}
