import Foundation

/// A `UITableView` simulated faithfully enough to compare scheduling policies: a viewport over the feed,
/// cells reused from a pool, `cellForRow` for rows entering the viewport, `didEndDisplaying` for rows
/// leaving it, and `reconfigureRows` — all on the real main run loop, driven by the display link, whose frames
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
  /// The content version of every row; ``reconfigureVisibleRows()`` bumps it for the visible rows.
  private var versions: [Int: Int] = [:]
  private var motion: ScrollMotion?
  /// The scenario's background book-keeping (renders, result bytes, threads, outstanding jobs).
  let ledger: RenderLedger
  /// Images set since the previous commit, which the commit copies (``commitTransaction()``).
  private var pendingCommit: [(cell: FeedCell, index: Int, pixels: [UInt8])] = []

  /// Creates the table at `offset`; call ``loadInitialScreen()`` before scrolling.
  init(
    model: FeedModel, strategy: FeedStrategy, recorder: Recorder, displayLink: DisplayLink, offset: Double = 0,
    ledger: RenderLedger = RenderLedger()
  ) {
    self.model = model
    self.strategy = strategy
    self.recorder = recorder
    self.displayLink = displayLink
    self.pool = CellPool(imageCount: model.imagesPerRow)
    self.offset = offset
    self.ledger = ledger
    displayLink.commit.onTransaction = { [weak self] in self?.commitTransaction() }
    displayLink.commit.onLayout = { [weak self] in self?.layoutIfNeeded() }
  }

  /// Rows prefetched (``prefetchRows(_:in:)`` called) and not yet shown or cancelled.
  private var prefetched: Set<Int> = []
  /// The last scroll direction: +1 down (rows below appear), -1 up.
  private var direction = 1
  private var lastOffset: Double?

  /// The images of `row` as they are now, for a prefetch: what each shows and the job that draws it.
  func drawContents(ofRow row: Int) -> [DrawContent] {
    (0..<model.imagesPerRow).map {
      DrawContent(RenderJob(model: model, row: row, version: version(of: row), imageIndex: $0, ledger: ledger))
    }
  }

  /// Moves the content to `position` (clamped): lays the rows out (`cellForRow` for entering rows,
  /// `didEndDisplaying` for leaving ones), tells the strategy (``FeedStrategy/feedDidLayout(_:)``) and updates
  /// the prefetch window.
  func scroll(to position: Double) {
    offset = min(max(0, position), model.maximumOffset)
    layoutVisibleRows()
    strategy.feedDidLayout(self)
    updatePrefetching()
  }

  /// `UITableViewDataSourcePrefetching`, as UIKit drives it: while the list scrolls, the rows within a screen
  /// beyond the visible ones in the scroll direction are handed to `prefetchRowsAt` as they come into that
  /// window, nearest first; rows prefetched that leave the window without appearing — the user turned back —
  /// go to `cancelPrefetchingForRowsAt`; rows that appear are simply no longer prefetched.
  private func updatePrefetching() {
    guard strategy.prefetches else { return }
    if let lastOffset, offset != lastOffset { direction = offset > lastOffset ? 1 : -1 }
    lastOffset = offset
    let visible = visibleRows
    let window = visible.count
    let ahead: [Int] =
      direction > 0
      ? Array((visible.upperBound + 1)..<min(visible.upperBound + 1 + window, model.rowCount))
      : Array(stride(from: visible.lowerBound - 1, through: max(0, visible.lowerBound - window), by: -1))
    let wanted = Set(ahead)
    prefetched.subtract(visible)
    let cancelled = prefetched.subtracting(wanted).sorted()
    if !cancelled.isEmpty {
      prefetched.subtract(cancelled)
      strategy.cancelPrefetchingRows(cancelled, in: self)
    }
    let new = ahead.filter { !prefetched.contains($0) }
    if !new.isEmpty {
      prefetched.formUnion(new)
      strategy.prefetchRows(new, in: self)
    }
  }

  /// The commit observer (its display pass serves strategies that model `setNeedsDisplay`).
  var commit: CommitObserver { displayLink.commit }

  /// Whether a scroll is in progress.
  var isScrolling: Bool { motion != nil }

  /// Rows on screen now.
  var visibleRows: ClosedRange<Int> { model.visibleRows(atOffset: offset) }

  /// The content version of `row`.
  func version(of row: Int) -> Int { versions[row] ?? 0 }

  /// Whether every visible cell shows all its row's images in the row's current content version.
  var isVisibleContentComplete: Bool {
    visibleCells.allSatisfy { $0.value.imagesShown(row: $0.key, version: version(of: $0.key)) == model.imagesPerRow }
  }

  /// Visible cells' missing images (not showing the row's current content), in cells (a cell missing all
  /// its images counts 1).
  var blankCells: Double {
    let missing = visibleCells.reduce(0) {
      $0 + (model.imagesPerRow - $1.value.imagesShown(row: $1.key, version: version(of: $1.key)))
    }
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
    let motion = ScrollMotion(kind: kind, startOffset: offset, startTime: displayLink.nextTick(after: Clock.now))
    self.motion = motion
    if case .fling = kind {
      strategy.scrollWillEnd(atOffset: min(max(0, motion.endOffset), model.maximumOffset), in: self)
    }
    displayLink.start()
  }

  // MARK: Frames

  /// One display-link frame: the scroll view's animation advances the offset, and the table needs layout. Returns
  /// whether another frame is needed (only while scrolling: fades run in the render server). As on iOS, the rows
  /// are laid out (`didEndDisplaying`, `cellForRow`, the prefetch window) later in the same turn, in the commit's
  /// layout pass (``layoutIfNeeded()``), not in the link's callback.
  func frame(at start: UInt64) -> Bool {
    if let motion {
      let (position, finished) = motion.offset(at: start)
      if finished { self.motion = nil }
      offset = min(max(0, position), model.maximumOffset)
      needsLayout = true
    }
    return isScrolling
  }

  /// Whether the offset moved since the last layout pass.
  private var needsLayout = false

  /// `UITableView`'s `layoutSubviews` from Core Animation's commit (``CommitObserver/onLayout``): lays the rows out
  /// at the offset the last frame set, if it moved.
  func layoutIfNeeded() {
    guard needsLayout else { return }
    needsLayout = false
    scroll(to: offset)
    recorder.sampleBlank(at: Clock.now, blank: blankCells)
    recorder.sampleVisible(at: Clock.now, rows: visibleRows)
    ledger.sampleThreads()
  }

  /// The visible rows' data changed and they are reconfigured in place, as UIKit's `reconfigureRows(at:)`
  /// (`reconfigureItems(at:)`, a diffable snapshot's `reconfigureItems`) does: their content version goes
  /// up and `cellForRow` runs again for every visible row — and returns the *same* cell for the same row,
  /// without `didEndDisplaying` or `prepareForReuse`. The cell keeps its index path, so a queued draw of the
  /// old content still passes an index-path guard (`cell.currentIndexPath == indexPath`): only a guard that
  /// knows the cell was configured again (IdleWork's `bind` at the top of `cellForRow`) can drop it. A
  /// visible row without a cell (a table not yet laid out) gets one from the pool.
  ///
  /// `newContent: false` (the `reloadSame` profile): the data is reloaded but unchanged — the version stays,
  /// and a strategy that clears the image before drawing the same content again flickers.
  func reconfigureVisibleRows(newContent: Bool = true) {
    let rows = visibleRows
    if newContent { for row in rows { versions[row] = version(of: row) + 1 } }
    // The cells showing the old content are missing their images from now on, before any `cellForRow` draws.
    recorder.sampleBlank(at: Clock.now, blank: blankCells)
    for row in rows { visibleCells[row] = cellForRow(row, reusing: visibleCells[row]) }
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

  /// Binds a dequeued cell to `row` (the app's part of `cellForRow`, before the images); a cell from the
  /// pool is cleared first (`prepareForReuse`), a cell reconfigured in place keeps its old images on screen
  /// until the new ones are drawn.
  private func configure(_ cell: FeedCell, row: Int, clear: Bool = true) -> FeedCell {
    if clear { cell.prepareForReuse() }
    cell.currentIndexPath = IndexPath(indexes: [0, row])
    cell.displayedRow = row
    cell.displayedVersion = version(of: row)
    cell.layoutTitle(model.title(row: row))
    return cell
  }

  /// `tableView(_:cellForRowAt:)`: dequeue (or, reconfiguring, take the cell the row already has), rebind,
  /// lay out the title, hand the three draws over.
  private func cellForRow(_ row: Int, reusing existing: FeedCell? = nil) -> FeedCell {
    let cell = existing.map { configure($0, row: row, clear: false) } ?? configure(pool.dequeue(), row: row)
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
    let model = self.model
    let (row, version, image) = (request.row, request.version, request.imageIndex)
    show(request) { buffer in model.draw(row: row, image: image, version: version, into: &buffer) }
  }

  /// Draws tile `tile` of `request`'s image: an earlier tile only into the cell's buffer; the last one
  /// completes the image, which is then shown, judged and recorded as one draw (as ``performDraw(_:)``).
  func performTile(_ tile: Int, of request: DrawRequest) {
    let model = self.model
    let (row, version, image) = (request.row, request.version, request.imageIndex)
    let draw = { (buffer: inout [UInt8]) in
      model.drawTile(tile, row: row, image: image, version: version, into: &buffer)
    }
    if tile < model.tilesPerDraw - 1 {
      request.cell.drawTile(index: image, draw: draw)
    } else {
      show(request, draw: draw)
    }
  }

  /// Runs `draw` into `request`'s cell, shows the image, and records the draw with its verdict.
  private func show(_ request: DrawRequest, draw: (inout [UInt8]) -> UInt32) {
    let start = Clock.now
    let row = request.row
    let verdict = DrawJudge.judge(
      row: row, version: request.version, cellRow: request.cell.displayedRow,
      cellVersion: request.cell.displayedVersion, visible: visibleRows)
    recorder.sampleBlank(at: start, blank: blankCells)
    let cell = request.cell
    let index = request.imageIndex
    setSlot(cell, index, to: FeedCell.ImageSlot(row: row, version: request.version)) {
      cell.setImage(index: index, row: row, version: request.version, draw: draw)
    }
    pendingCommit.append((cell, index, cell.buffers[index]))
    let end = Clock.now
    recorder.sampleBlank(at: end, blank: blankCells)
    recorder.recordDraw(start: start, end: end, row: row, verdict: verdict)
    checkContentComplete(at: end)
  }

  /// Records the moment the visible content became complete, once the content to show is known — only in
  /// the fill phase, which the figure measures: a screen completed later (in the rest phase, after the fill
  /// timed out) counts as never, not as a late success.
  func checkContentComplete(at time: UInt64) {
    if recorder.phase == .fill, recorder.recording.contentStart != nil, recorder.recording.contentComplete == nil,
      !isScrolling, isVisibleContentComplete
    {
      recorder.contentCompleted(at: time)
    }
  }

  // MARK: Background results

  /// Sets a rendered image on `cell` (a background strategy's apply, on the main thread) and records what
  /// it was worth, judged like a draw: an image of another row or content version than the cell is
  /// configured for is a wrong-cell apply. The commit copies its pixels.
  func apply(_ image: RenderedImage, to cell: FeedCell) {
    let start = Clock.now
    let verdict = DrawJudge.judge(
      row: image.row, version: image.version, cellRow: cell.displayedRow, cellVersion: cell.displayedVersion,
      visible: visibleRows)
    recorder.sampleBlank(at: start, blank: blankCells)
    let index = image.imageIndex
    setSlot(cell, index, to: FeedCell.ImageSlot(row: image.row, version: image.version)) {
      cell.setRenderedImage(index: index, row: image.row, version: image.version)
    }
    pendingCommit.append((cell, index, image.pixels))
    let end = Clock.now
    recorder.sampleBlank(at: end, blank: blankCells)
    recorder.recordApply(start: start, end: end, row: image.row, verdict: verdict, renderID: image.id)
    checkContentComplete(at: end)
  }

  /// Clears image view `index` of `cell` (`imageView.image = nil`), as some strategies do before drawing.
  func clearImage(index: Int, of cell: FeedCell) {
    recorder.sampleBlank(at: Clock.now, blank: blankCells)
    setSlot(cell, index, to: FeedCell.ImageSlot()) { cell.clearImage(index: index) }
    recorder.sampleBlank(at: Clock.now, blank: blankCells)
  }

  /// Whether `cell` is on screen now.
  func isOnScreen(_ cell: FeedCell) -> Bool {
    cell.displayedRow.map { visibleCells[$0] === cell } ?? false
  }

  /// Changes what image view `index` of `cell` shows (`change` does it), counting flicker: an image view of
  /// a cell on screen that showed its row's current content and loses it (cleared, or set to other content)
  /// remembers it; if a commit showed the loss and the same content is then set again, that is one flicker.
  private func setSlot(_ cell: FeedCell, _ index: Int, to new: FeedCell.ImageSlot, change: () -> Void) {
    let old = cell.slot(index)
    change()
    guard let row = cell.displayedRow, visibleCells[row] === cell else { return }
    let current = FeedCell.ImageSlot(row: row, version: version(of: row))
    if let lost = cell.lost[index] {
      if new == lost {
        if cell.lostSeen[index] { recorder.recording.flicker += 1 }
        cell.lost[index] = nil
      } else if new == current {
        cell.lost[index] = nil
      }
    } else if old == current, new != current {
      cell.lost[index] = old
      cell.lostSeen[index] = false
    }
  }

  /// Core Animation's transaction at every commit: copies each image set since the previous commit (real
  /// work on the main thread, proportional to its bytes), and marks every lost image of a cell on screen as
  /// seen (the commit showed the loss).
  func commitTransaction() {
    if !pendingCommit.isEmpty {
      let images = pendingCommit
      pendingCommit = []
      for image in images { image.cell.commitImage(index: image.index, pixels: image.pixels) }
    }
    for cell in visibleCells.values {
      for index in cell.lost.indices where cell.lost[index] != nil { cell.lostSeen[index] = true }
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
