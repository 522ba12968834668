import Foundation
import IdleWork
import IdleWorkPreparation

/// IdleWork as its README's Quick start writes it, on an `IdleQueue` of its own (not `IdleQueue.main`, so
/// each run starts fresh): `queue.bind(cell, to: indexPath)` at the top of `cellForRow` (a new
/// configuration: the cell's earlier draws are stale, also after a reload of the same row), one
/// `addTask(for:at:)` per image draw, and `queue.cellDidEndDisplaying(cell, at:)` from
/// `didEndDisplaying`: the off-screen cell's draws wait, so they never run ahead of the visible rows'.
/// (The simulated table has no prefetching, so there is no `willDisplay` without `cellForRow`.)
///
/// All uses of the IdleWork API live in the IdleWork strategy files; `FeedCell` does not depend on the
/// library (IdleWork keeps its own record of each cell).
///
/// Evictions are found through the public API only: when an addition raises `statistics.evicted`, the
/// tasks that just stopped being pending without having run, and whose cell still shows their row, are
/// the evicted ones (stale tasks purged in the same trim show another row).
@MainActor
final class IdleWorkStrategy: FeedStrategy {
  /// The configurations measured.
  enum Variant {
    /// `IdleQueue()`'s defaults: default mode, `.tasks(1)`, 30 tasks.
    case defaults
    /// Defaults with a `.seconds(0.004)` budget.
    case milliseconds4
    /// The `.scrollingFeed(timeUntilNextFrame:)` preset, its frame clock the display link's time to the next vsync,
    /// each draw sliced into tiles (``FeedModel/tilesPerDraw``) that a slice draws while they fit before the
    /// deadline.
    case scrollingFeed
    /// The recommended background setup (``IdleWorkStrategy/addPreparedDraw(_:to:)``): the
    /// `.scrollingFeed(timeUntilNextFrame:)` preset, each image prepared off the main thread on `workers` worker
    /// threads (`nil`: the library's default) and applied in an idle pass.
    case prepare(workers: Int?)
    /// The `.scrollingFeed(timeUntilNextFrame:)` preset given each draw whole (``Granularity/whole``): one
    /// `addTask(for:at:estimatedCost:_:)` per draw, its estimated cost the draws' measured cost, so a pass
    /// starts a draw only if the whole of it fits before the deadline.
    case scrollingFeedWhole
    /// The main-thread setup for code that must stay on the main thread: the `.scrollingFeed(timeUntilNextFrame:)`
    /// preset, each draw a main-thread preparation in tiles (``IdleWorkStrategy/tileDraw(cost:)``), cached and
    /// prefetched; with `landing`, a fling's landing rows are prefetched first.
    case mainThreadPrepare(landing: Bool)
  }

  private let variant: Variant
  private(set) var queue: IdleQueue?
  /// The queue's preparer, for the prepared variants.
  private(set) var preparer: Preparer?
  private var tracked: [(handle: IdleTaskHandle, request: DrawRequest)] = []
  /// A tile's measured cost in seconds (moving average, weight 1/4), as the app measures it; `nil` until
  /// the first tile is drawn.
  private var tileCost: TimeInterval?
  /// A whole draw's measured cost in seconds (moving average, weight 1/4), as the app measures it; `nil`
  /// until the first draw (``Variant/scrollingFeedWhole``).
  private(set) var drawCost: TimeInterval?

  /// Whether rows about to appear are prefetched (the prepared variants).
  private let prefetching: Bool
  /// The main-thread variant's tile cost and its draw, made once per strategy as an app makes it once per screen.
  private let mainTileCost = TileCost()
  private(set) lazy var mainTileDraw = Self.tileDraw(cost: mainTileCost)

  /// Whether the frame clock always says a whole frame is left while the link runs: a diagnostic that shows what
  /// frame admission costs (the same queue with nothing held back for the deadline).
  private let roomyClock: Bool

  /// Creates the strategy for `variant`, prefetching or not.
  init(variant: Variant, prefetching: Bool = false, roomyClock: Bool = false) {
    self.variant = variant
    self.prefetching = prefetching
    self.roomyClock = roomyClock
  }

  var prefetches: Bool { prefetching }

  /// The preparation the rows' tasks and prefetches share; `nil` for the variants without one.
  func preparation(in feed: FeedView) -> Preparation<DrawContent, RenderedImage>? {
    switch variant {
    case .prepare: return Self.draw
    case .mainThreadPrepare: return mainTileDraw
    default: return nil
    }
  }

  /// `tableView(_:prefetchRowsAt:)`, one line as IdleWork documents it: each row's three images.
  func prefetchRows(_ rows: [Int], in feed: FeedView) {
    guard let preparation = preparation(in: feed) else { return }
    preparer?.prefetch(preparation, from: rows.flatMap { feed.drawContents(ofRow: $0) })
  }

  /// `tableView(_:cancelPrefetchingForRowsAt:)`, one line.
  func cancelPrefetchingRows(_ rows: [Int], in feed: FeedView) {
    guard let preparation = preparation(in: feed) else { return }
    preparer?.cancelPrefetching(preparation, from: rows.flatMap { feed.drawContents(ofRow: $0) })
  }

  /// The landing recipe, for the variant that follows it.
  func scrollWillEnd(atOffset offset: Double, in feed: FeedView) {
    guard case .mainThreadPrepare(landing: true) = variant else { return }
    prefetchLandingRows(atOffset: offset, in: feed)
  }

  /// The configuration this strategy's queue is created with.
  func configuration(for workload: Workload, displayLink: DisplayLink? = nil) -> IdleQueue.Configuration {
    var configuration = IdleQueue.Configuration()
    switch variant {
    case .defaults: break
    case .milliseconds4: configuration.budget = .seconds(0.004)
    case .scrollingFeed, .scrollingFeedWhole, .mainThreadPrepare:
      // The simulated CADisplayLink's targetTimestamp - now: what the preset reads on iOS.
      configuration = .scrollingFeed(timeUntilNextFrame: { [weak displayLink] in displayLink?.timeUntilNextFrame })
    case .prepare where roomyClock:
      configuration = .scrollingFeed(timeUntilNextFrame: { [weak displayLink] in
        displayLink.flatMap { $0.isRunning ? Double($0.period) / 1e9 : nil }
      })
    case .prepare:
      configuration = .scrollingFeed(timeUntilNextFrame: { [weak displayLink] in displayLink?.timeUntilNextFrame })
    }
    if workload == .throughput { configuration.maximumQueueLength = Int.max }
    return configuration
  }

  /// The configuration of the prepared variants' preparer; `nil` for the others.
  var preparerConfiguration: Preparer.Configuration? {
    switch variant {
    case .prepare(let workers):
      var configuration = Preparer.Configuration()
      if let workers { configuration.workers = workers }
      return configuration
    case .mainThreadPrepare: return Preparer.Configuration()
    default: return nil
    }
  }

  /// The prepared variants' result cache: their preparer's `resultCacheLimit` (32 MB); the other variants hold no
  /// rendered results (`nil`).
  var resultByteLimit: Int? { preparerConfiguration?.resultCacheLimit }

  func install(for workload: Workload, displayLink: DisplayLink?) {
    let queue = IdleQueue(configuration: configuration(for: workload, displayLink: displayLink))
    self.queue = queue
    preparer = preparerConfiguration.map { Preparer(queue: queue, configuration: $0) }
  }

  func schedule(_ request: DrawRequest) {
    guard let queue else { return }
    tracked.removeAll { !$0.handle.isPending }
    let evictedBefore = queue.statistics.evicted
    let handle: IdleTaskHandle
    switch variant {
    case .scrollingFeed: handle = addTiledDraw(request, to: queue)
    case .scrollingFeedWhole: handle = addWholeDraw(request, to: queue)
    case .prepare: handle = addPreparedDraw(request, to: preparer!)
    case .mainThreadPrepare:
      handle = preparer!.addTask(
        for: request.cell, at: request.indexPath, prepare: mainTileDraw, from: DrawContent(request.job)
      ) { cell, image in request.apply(image, to: cell) }
    case .defaults, .milliseconds4:
      handle = queue.addTask(for: request.cell, at: request.indexPath) { _ in request.run() }
    }
    tracked.append((handle, request))
    guard queue.statistics.evicted > evictedBefore else { return }
    for entry in tracked where !entry.handle.isPending && !entry.request.hasRun && entry.request.cellStillShowsRow {
      entry.request.reportEvicted()
    }
  }

  /// The draw as a resumable task sliced to the deadline, as `requestIdleCallback` work is: each slice
  /// draws a tile, then more while `timeRemaining()` exceeds a tile's cost; the image shows when the last
  /// tile is drawn. Its estimated cost is one tile's (the least a slice does), once measured.
  private func addTiledDraw(_ request: DrawRequest, to queue: IdleQueue) -> IdleTaskHandle {
    queue.addResumableTask(for: request.cell, at: request.indexPath, estimatedCost: tileCost) {
      [weak self] _, timeRemaining in
      guard let self else { return true }
      repeat {
        let start = Clock.now
        let done = request.runNextTile()
        let seconds = Double(Clock.now - start) / 1e9
        tileCost = tileCost.map { $0 + 0.25 * (seconds - $0) } ?? seconds
        if done { return true }
      } while timeRemaining() > tileCost ?? .infinity
      return false
    }
  }

  /// The draw as one task (``Granularity/whole``), its estimated cost a whole draw's, once measured: a pass
  /// starts it only if all of it fits before the frame deadline.
  private func addWholeDraw(_ request: DrawRequest, to queue: IdleQueue) -> IdleTaskHandle {
    queue.addTask(for: request.cell, at: request.indexPath, estimatedCost: drawCost) { [weak self] _ in
      let start = Clock.now
      request.run()
      let seconds = Double(Clock.now - start) / 1e9
      guard let self else { return }
      drawCost = drawCost.map { $0 + 0.25 * (seconds - $0) } ?? seconds
    }
  }

  /// The top of the app's `cellForRowAt`: one line, as IdleWork documents it.
  func cellWillConfigure(_ cell: FeedCell, at indexPath: IndexPath) {
    queue?.bind(cell, to: indexPath)
  }

  /// The app's `tableView(_:didEndDisplaying:forRowAt:)`: one line, as IdleWork documents it.
  func cellDidEndDisplaying(_ cell: FeedCell, forRowAt indexPath: IndexPath) {
    queue?.cellDidEndDisplaying(cell, at: indexPath)
  }

  func scheduleTask(key: Int, _ task: @escaping @MainActor () -> Void) {
    queue?.addTask(key: key, task)
  }

  func discardPending() { queue?.cancelAllTasks() }

  var pendingCount: Int { (queue?.statistics.pending ?? 0) + (preparer?.statistics.prefetchesPending ?? 0) }

  func uninstall() {
    queue?.invalidate()
    queue = nil
    tracked.removeAll()
  }
}
