import Foundation

/// A `UITableView` simulated faithfully enough to compare scheduling policies: a viewport over the feed,
/// cells reused from a pool, `cellForRow` for rows entering the viewport, `didEndDisplaying` for rows
/// leaving it, and `reloadData` — all on the real main run loop, driven by the display link, whose frames
/// the commit observer commits.
@MainActor
final class FeedView {
  let model: FeedModel
  private let strategy: FeedStrategy
  private let recorder: Recorder
  private let displayLink: DisplayLink
  private let pool: CellPool
  /// Cells on screen, by row.
  private(set) var visibleCells: [Int: FeedCell] = [:]
  /// The content offset.
  private(set) var offset = 0.0
  /// The content version of every row; `reloadData()` bumps it for the visible rows.
  private var versions: [Int: Int] = [:]
  private var motion: ScrollMotion?

  /// Creates the table at `offset`; call ``loadInitialScreen()`` before scrolling.
  init(model: FeedModel, strategy: FeedStrategy, recorder: Recorder, displayLink: DisplayLink, offset: Double = 0) {
    self.model = model
    self.strategy = strategy
    self.recorder = recorder
    self.displayLink = displayLink
    self.pool = CellPool(imageCount: model.imagesPerRow)
    self.offset = offset
  }

  /// Whether a scroll is in progress.
  var isScrolling: Bool { motion != nil }

  /// Rows on screen now.
  var visibleRows: ClosedRange<Int> { model.visibleRows(atOffset: offset) }

  /// The content version of `row`.
  func version(of row: Int) -> Int { versions[row] ?? 0 }

  /// Whether every visible cell shows all its images.
  var isVisibleContentComplete: Bool {
    visibleCells.values.allSatisfy { $0.imagesShown == model.imagesPerRow }
  }

  /// Visible cells' missing images, in cells (a cell missing all its images counts 1).
  var blankCells: Double {
    let missing = visibleCells.values.reduce(0) { $0 + (model.imagesPerRow - $1.imagesShown) }
    return Double(missing) / Double(model.imagesPerRow)
  }

  /// Shows the first screen with its images in place (drawn before the measurement, as after launch).
  func loadInitialScreen() {
    for row in visibleRows {
      let cell = configure(pool.dequeue(), row: row)
      for image in 0..<model.imagesPerRow { cell.setImageUnmeasured(index: image, row: row, version: version(of: row)) }
      visibleCells[row] = cell
    }
  }

  /// Starts a scroll; the display link runs until it ends.
  func begin(_ kind: ScrollMotion.Kind) {
    motion = ScrollMotion(kind: kind, startOffset: offset, startTime: displayLink.nextTick(after: Clock.now))
    displayLink.start()
  }

  // MARK: Frames

  /// One display-link frame: advance the scroll, lay out (`cellForRow` for entering rows). Returns whether
  /// another frame is needed (only while scrolling: fades run in the render server).
  func frame(at start: UInt64) -> Bool {
    if let motion {
      let (position, finished) = motion.offset(at: start)
      offset = min(max(0, position), model.maximumOffset)
      if finished { self.motion = nil }
      layoutVisibleRows()
      recorder.sampleBlank(at: Clock.now, blank: blankCells)
    }
    return isScrolling
  }

  /// `reloadData()` after the visible rows' data changed: their content version goes up; every visible cell
  /// gets `didEndDisplaying` and goes back to the pool, then `cellForRow` runs again for every visible row.
  func reloadData() {
    let rows = visibleRows
    for row in rows { versions[row] = version(of: row) + 1 }
    for row in rows.sorted() {
      guard let cell = visibleCells[row] else { continue }
      visibleCells[row] = nil
      strategy.cellDidEndDisplaying(cell, forRowAt: IndexPath(indexes: [0, row]))
      pool.recycle(cell)
    }
    for row in rows { visibleCells[row] = cellForRow(row) }
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

  /// Dequeues and binds a cell for `row` (the app's part of `cellForRow`, before the images).
  private func configure(_ cell: FeedCell, row: Int) -> FeedCell {
    cell.prepareForReuse()
    cell.currentIndexPath = IndexPath(indexes: [0, row])
    cell.displayedRow = row
    cell.displayedVersion = version(of: row)
    cell.layoutTitle(model.title(row: row))
    return cell
  }

  /// `tableView(_:cellForRowAt:)`: dequeue, rebind, lay out the title, hand the three draws over.
  private func cellForRow(_ row: Int) -> FeedCell {
    let cell = configure(pool.dequeue(), row: row)
    let indexPath = IndexPath(indexes: [0, row])
    strategy.cellWillConfigure(cell, at: indexPath)
    for image in 0..<model.imagesPerRow {
      strategy.schedule(
        DrawRequest(cell: cell, indexPath: indexPath, version: version(of: row), imageIndex: image, feed: self))
    }
    return cell
  }

  // MARK: Draws

  /// Rasterises a request's image into its cell now and records what it was worth (``DrawJudge``).
  func performDraw(_ request: DrawRequest) {
    let start = Clock.now
    let row = request.row
    let verdict = DrawJudge.judge(
      row: row, version: request.version, cellRow: request.cell.displayedRow,
      cellVersion: request.cell.displayedVersion, visible: visibleRows)
    recorder.sampleBlank(at: start, blank: blankCells)
    let model = self.model
    let version = request.version
    let image = request.imageIndex
    request.cell.setImage(index: image, row: row, version: version) { buffer in
      model.draw(row: row, image: image, version: version, into: &buffer)
    }
    let end = Clock.now
    recorder.sampleBlank(at: end, blank: blankCells)
    recorder.recordDraw(start: start, end: end, row: row, verdict: verdict)
    checkContentComplete(at: end)
  }

  /// Records the moment the visible content became complete, once the content to show is known.
  func checkContentComplete(at time: UInt64) {
    if recorder.recording.contentStart != nil, recorder.recording.contentComplete == nil, !isScrolling,
      isVisibleContentComplete
    {
      recorder.recording.contentComplete = time
    }
  }

  /// Records a request the strategy dropped because its queue was full.
  func recordEviction(_ request: DrawRequest) {
    recorder.recording.evicted += 1
    if DrawJudge.isVisibleEviction(
      row: request.row, version: request.version, cellRow: request.cell.displayedRow,
      cellVersion: request.cell.displayedVersion, visible: visibleRows)
    {
      recorder.recording.visibleEvicted += 1
    }
  }
}
