import Foundation

/// What the benchmark runs a strategy for.
enum Workload: Sendable {
  /// The feed scenario: image draws for cells, with the strategy's own queue limits.
  case feed
  /// The throughput workloads and the enqueue-cost measurement: thousands of small cell-less tasks; queue
  /// limits are lifted where the strategy has a setting for it (DWU's `maximumQueueLength`, IdleWork's
  /// `maximumQueueLength`).
  case throughput
}

/// A scheduling policy under test: how `cellForRow` gets its image draws done.
@MainActor
protocol FeedStrategy: AnyObject {
  /// Sets the strategy up on the main run loop (observers, timers, sources).
  func install(for workload: Workload, displayLink: DisplayLink?)
  /// The top of `cellForRow`: `cell` is being configured for `indexPath` (before its draws are handed over).
  func cellWillConfigure(_ cell: FeedCell, at indexPath: IndexPath)
  /// Hands over one image draw from `cellForRow`.
  func schedule(_ request: DrawRequest)
  /// `tableView(_:didEndDisplaying:forRowAt:)`: `cell` stopped showing `indexPath` on screen; it goes to
  /// the reuse pool next, still bound to the row. What each strategy does here is part of its policy.
  func cellDidEndDisplaying(_ cell: FeedCell, forRowAt indexPath: IndexPath)
  /// Hands over one small task of the throughput workloads (its enqueue path is what `addTaskCost` times).
  func scheduleTask(key: Int, _ task: @escaping @MainActor () -> Void)
  /// Drops every pending task without running it (DWU's `removeAllTasks`, IdleWork's `cancelAllTasks`; the
  /// harness empties the queues that have no such call). Used once, before the idle window.
  func discardPending()
  /// Tasks handed over and not yet run or dropped.
  var pendingCount: Int { get }
  /// Removes everything the strategy put on the run loop and drops what it still holds.
  func uninstall()
  /// Whether the strategy prefetches (`UITableViewDataSourcePrefetching`): the table then calls
  /// ``prefetchRows(_:in:)`` and ``cancelPrefetchingRows(_:in:)``.
  var prefetches: Bool { get }
  /// Whether the strategy draws rows before they appear — through the table's prefetching or a mechanism of its
  /// own (Texture's display range): the blank bound, which assumes draws start once a row appeared, is not its.
  var drawsAhead: Bool { get }
  /// `tableView(_:prefetchRowsAt:)`: rows about to appear in the scroll direction, nearest first.
  func prefetchRows(_ rows: [Int], in feed: FeedView)
  /// `tableView(_:cancelPrefetchingForRowsAt:)`: rows prefetched that are no longer about to appear (the user
  /// turned back).
  func cancelPrefetchingRows(_ rows: [Int], in feed: FeedView)
  /// The most bytes of rendered results the strategy's real library keeps by its configuration (a result
  /// cache's limit), against which `peakResultBytes` is read; `nil`: no limit — the library bounds nothing
  /// (MSCachedAsyncViewDrawing's `NSCache` with no limits set), keeps no results beyond those in flight
  /// (YYAsyncLayer, Texture, AsyncDraw, `DispatchWorkItem`), or the strategy draws on the main thread.
  var resultByteLimit: Int? { get }
  /// The table laid its rows out at a new offset during a scroll (`UIScrollView`'s `layoutSubviews`), after
  /// `didEndDisplaying` and `cellForRow` for the rows that left and entered: where a library computes its own
  /// ranges from the scroll position (Texture's `ASTableView` ends `layoutSubviews` with
  /// `[_rangeController updateIfNeeded]`), it reads ``FeedView/offset`` and ``FeedView/visibleRows`` here.
  func feedDidLayout(_ feed: FeedView)
  /// `scrollViewWillEndDragging(_:withVelocity:targetContentOffset:)`: a fling begins, and will stop at `offset`.
  func scrollWillEnd(atOffset offset: Double, in feed: FeedView)
}

extension FeedStrategy {
  /// Nothing: the baselines have no call at the top of `cellForRow` (their users set the cell's own
  /// `currentIndexPath`, which the table view's `configure` does for every strategy).
  func cellWillConfigure(_ cell: FeedCell, at indexPath: IndexPath) {}

  /// No prefetching: strategies without a prefetch path (as their real libraries have none).
  var prefetches: Bool { false }

  /// Whether the table prefetches for it: a strategy with a mechanism of its own says so itself.
  var drawsAhead: Bool { prefetches }

  /// Nothing, for a strategy that does not prefetch.
  func prefetchRows(_ rows: [Int], in feed: FeedView) {}

  /// Nothing, for a strategy that does not prefetch.
  func cancelPrefetchingRows(_ rows: [Int], in feed: FeedView) {}

  /// No limit (see the requirement): the default for every strategy whose real library sets none.
  var resultByteLimit: Int? { nil }
  /// Nothing: only a strategy with ranges of its own (Texture's) follows the layout.
  func feedDidLayout(_ feed: FeedView) {}
  /// Nothing: only the landing recipe uses where a fling stops.
  func scrollWillEnd(atOffset offset: Double, in feed: FeedView) {}
}

/// The strategies the benchmark knows, in report order.
enum StrategyKind: String, CaseIterable, Sendable {
  /// Draws inside `cellForRow`.
  case sync
  /// `DispatchQueue.main.async` per draw, with the user's stale guard.
  case mainQueue
  /// DWURunLoopWorkDistribution's policy, as its demo uses it (nothing in `didEndDisplaying`).
  case dwu
  /// DWU as a careful user writes it: `cell.currentIndexPath = nil` in `didEndDisplaying`.
  case dwuUnbind
  /// Texture's `ASRunLoopQueue` with its defaults: batch size 1, `ensureExclusiveMembership = YES`.
  case runLoopQueue
  /// Texture's queue tuned for throughput: batch size 16, `ensureExclusiveMembership = NO`.
  case runLoopQueueTuned
  /// IdleWork with its defaults (`IdleQueue()`), `bind` and `cellDidEndDisplaying`.
  case idleWork
  /// IdleWork with a 4 ms budget per pass.
  case idleWork4ms
  /// IdleWork's `.scrollingFeed(timeUntilNextFrame:)` preset fed by the display link — the recommended setup:
  /// deadline-aware passes (a draw starts only if its predicted cost fits before the next frame), in idle
  /// time and during scrolls.
  case idleWorkFeed
  /// Canary: DWU's policy with *no* stale guard at all; it must show stale executions.
  case noGuard
  /// YYAsyncLayer + YYTransaction as its README uses it (no clear on set): sentinel, `min(cores, 16)` serial
  /// queues round-robin, `main.async` apply.
  case yyAsyncLayer
  /// Texture's asynchronous display: its transaction queue (2 × cores threads), per-node sentinel,
  /// completions per container at BeforeWaiting.
  case textureAsync
  /// AsyncDraw: `min(cores, 6)` serial queues least-loaded first, its cancel flag as written.
  case asyncDraw
  /// MSCachedAsyncViewDrawing: one concurrent queue, an unbounded cache by key, the caller's check.
  case msCachedAsync
  /// A `DispatchWorkItem` per draw on the global queue, cancelled in `didEndDisplaying`, index-path check; the
  /// image cleared once, in `prepareForReuse` (the careful user).
  case workItem
  /// Canary of the background kind: a thread per draw and no stale check at all.
  case noGuardBackground
  /// IdleWork's recommended background setup: `.scrollingFeed` with prepared tasks (draw off the main
  /// thread on the library's default worker count, apply in idle passes), results cached by content.
  case idleWorkPrepare
  /// The same with 1, 2 or 4 worker threads, to choose the default by measurement.
  case idleWorkPrepare1, idleWorkPrepare2, idleWorkPrepare4
  /// IdleWork's background setup with prefetching: the draw said once as a `Preparation`, rows about to appear
  /// prefetched with it (`prefetch(_:with:)`, `cancelPrefetching(_:with:)`).
  case idleWorkPreparePrefetch
  /// `workItem` with the prefetching its users write: a `DispatchWorkItem` started in `prefetchRowsAt` that
  /// draws into an `NSCache`-like cache (32 MB, as IdleWork's preset), cancelled in `cancelPrefetchingForRowsAt`;
  /// `cellForRow` applies a cached image at once, or waits for the row's prefetch under way, or starts its own.
  case workItemPrefetch
  /// `runLoopQueue` given the app's draws as tiles (``Granularity/tiles``): one `ASRunLoopQueue` item per tile,
  /// each with the guard — one tile per `BeforeWaiting` at its batch size of 1.
  case runLoopQueueTiles
  /// `dwu` given the app's draws as tiles: one DWU task per tile, each with the demo's guard; its 30-task
  /// limit then counts tiles.
  case dwuTiles
  /// `mainQueue` given the app's draws as tiles: one `DispatchQueue.main.async` per tile, each with the guard.
  case mainQueueTiles
  /// `idleWorkFeed` given each draw whole (``Granularity/whole``): one `addTask(for:at:estimatedCost:_:)` per
  /// draw, its estimated cost the draws' measured cost.
  case idleWorkFeedWhole
  /// YYAsyncLayer as YYText's `YYLabel` drives it (`-setTextLayout:`): the setter clears the contents and calls
  /// `setNeedsDisplay` at once (no `YYTransaction`); `yyAsyncLayer` is the README's use.
  case yyAsyncLayerLabel
  /// `workItem` as a careless user writes it: `image = nil` again at the top of `cellForRow`, after
  /// `prepareForReuse` did it. Canary of the flicker metric: a reload of unchanged content must flicker.
  case workItemCareless
  /// `textureAsync` with Texture's ranges (`ASRangeController`, `ASLayoutRangeModeFull`): nodes within the
  /// display range — a screen ahead in the scroll direction, half a screen behind — display before they appear
  /// and keep their contents while in it; leaving it cancels the display and clears the contents.
  case textureAsyncPrefetch
  /// `msCachedAsync` with the cache warmed ahead: `prefetchRowsAt` calls the same draw with each image's cache
  /// key and a completion that ignores it, so `cellForRow` finds the image cached; no cancellation.
  case msCachedAsyncPrefetch
  /// IdleWork's main-thread setup for code that must stay there: `idleWorkFeed`'s tiles as a main-thread
  /// `Preparation` (cached by content), rows about to appear prefetched in the main thread's slack.
  case idleWorkMainPrefetch
  /// `idleWorkMainPrefetch` with the landing recipe: a fling's landing rows prefetched first
  /// (`scrollViewWillEndDragging`'s target offset).
  case idleWorkMainPrefetchLanding
  /// Texture's ranges with synchronous display (`displaysAsynchronously = NO`): nodes entering the display range
  /// draw on the main thread, one node per run-loop turn (the render queue), before they appear; a visible node
  /// without contents draws in the commit's display pass.
  case textureSyncRanges
  /// Diagnostic: `idleWorkPreparePrefetch` with a frame clock that always says a whole frame is left while the
  /// list moves, so nothing is held back for a deadline: what frame admission costs in blank time and saves in
  /// dropped frames.
  case idleWorkPreparePrefetchRoomy
  /// Diagnostic: `idleWorkPrepare` with that clock.
  case idleWorkPrepareRoomy
  /// A careful GCD user's `workItem`: visible draws on the `userInitiated` global queue, a draw that checks
  /// `isCancelled` between its passes, `didEndDisplaying` cancelling running items too (unless another cell
  /// waits for the image), one item per image shared by the cells that need it.
  case workItemCareful
  /// `workItemCareful` with prefetching: items started in `prefetchRowsAt` at `utility` (re-submitted at
  /// `userInitiated` when a visible row needs one not yet started), cancelled, running or not, in
  /// `cancelPrefetchingForRowsAt`; results cached (32 MB, the oldest out) as `workItemPrefetch`'s.
  case workItemCarefulPrefetch
  /// An image library's pipeline modelled on Nuke's `ImagePipeline` and `NukeExtensions.loadImage(with:into:)`:
  /// a 32 MB memory cache read in `cellForRow`, one task per image shared by its requests at their highest
  /// priority, draws on a priority queue of 2, a task per image view cancelled on reuse, main-queue completions.
  case nukePipeline
  /// `nukePipeline` with Nuke's `ImagePrefetcher` driven by the table's prefetching: at most 2 prefetches at
  /// once at `.low` (`utility`), skipping cached or prefetching images, joined by display requests,
  /// `stopPrefetching` in the cancel.
  case nukePrefetch

  /// Whether the strategy draws off the main thread (the apply is on it).
  var isBackground: Bool {
    switch self {
    case .yyAsyncLayer, .textureAsync, .asyncDraw, .msCachedAsync, .workItem, .noGuardBackground, .idleWorkPrepare,
      .idleWorkPrepare1, .idleWorkPrepare2, .idleWorkPrepare4, .idleWorkPreparePrefetch, .workItemPrefetch,
      .idleWorkPreparePrefetchRoomy, .idleWorkPrepareRoomy, .yyAsyncLayerLabel, .workItemCareless,
      .textureAsyncPrefetch, .msCachedAsyncPrefetch, .workItemCareful,
      .workItemCarefulPrefetch, .nukePipeline, .nukePrefetch:
      return true
    default: return false
    }
  }

  /// `"mainThread"` or `"background"`, for the JSON.
  var kindName: String { isBackground ? "background" : "mainThread" }

  /// A new instance of the strategy.
  @MainActor
  func make() -> FeedStrategy {
    switch self {
    case .sync: return SyncStrategy()
    case .mainQueue: return MainQueueStrategy()
    case .dwu: return DWUStrategy(variant: .faithful)
    case .dwuUnbind: return DWUStrategy(variant: .unbindOnEndDisplaying)
    case .noGuard: return DWUStrategy(variant: .noGuard)
    case .runLoopQueue:
      return RunLoopQueueStrategy(batchSize: RunLoopQueueStrategy.defaultBatchSize, ensureExclusiveMembership: true)
    case .runLoopQueueTuned: return RunLoopQueueStrategy(batchSize: 16, ensureExclusiveMembership: false)
    case .idleWork: return IdleWorkStrategy(variant: .defaults)
    case .idleWork4ms: return IdleWorkStrategy(variant: .milliseconds4)
    case .idleWorkFeed: return IdleWorkStrategy(variant: .scrollingFeed)
    case .yyAsyncLayer: return YYAsyncLayerStrategy()
    case .textureAsync: return TextureAsyncDisplayStrategy()
    case .asyncDraw: return AsyncDrawStrategy()
    case .msCachedAsync: return MSCachedAsyncViewDrawingStrategy()
    case .workItem: return WorkItemStrategy()
    case .noGuardBackground: return BackgroundNoGuardStrategy()
    case .idleWorkPrepare: return IdleWorkStrategy(variant: .prepare(workers: nil))
    case .idleWorkPrepare1: return IdleWorkStrategy(variant: .prepare(workers: 1))
    case .idleWorkPrepare2: return IdleWorkStrategy(variant: .prepare(workers: 2))
    case .idleWorkPrepare4: return IdleWorkStrategy(variant: .prepare(workers: 4))
    case .idleWorkPreparePrefetch: return IdleWorkStrategy(variant: .prepare(workers: nil), prefetching: true)
    case .workItemPrefetch: return WorkItemPrefetchStrategy()
    case .runLoopQueueTiles:
      return RunLoopQueueStrategy(
        batchSize: RunLoopQueueStrategy.defaultBatchSize, ensureExclusiveMembership: true, granularity: .tiles)
    case .dwuTiles: return DWUStrategy(variant: .faithful, granularity: .tiles)
    case .mainQueueTiles: return MainQueueStrategy(granularity: .tiles)
    case .idleWorkFeedWhole: return IdleWorkStrategy(variant: .scrollingFeedWhole)
    case .yyAsyncLayerLabel: return YYAsyncLayerStrategy(variant: .label)
    case .workItemCareless: return WorkItemStrategy(variant: .careless)
    case .textureAsyncPrefetch: return TextureAsyncDisplayStrategy(ranges: true)
    case .msCachedAsyncPrefetch: return MSCachedAsyncViewDrawingStrategy(prefetching: true)
    case .idleWorkMainPrefetch: return IdleWorkStrategy(variant: .mainThreadPrepare(landing: false), prefetching: true)
    case .idleWorkMainPrefetchLanding:
      return IdleWorkStrategy(variant: .mainThreadPrepare(landing: true), prefetching: true)
    case .textureSyncRanges: return TextureAsyncDisplayStrategy(ranges: true, synchronous: true)
    case .idleWorkPreparePrefetchRoomy:
      return IdleWorkStrategy(variant: .prepare(workers: nil), prefetching: true, roomyClock: true)
    case .idleWorkPrepareRoomy: return IdleWorkStrategy(variant: .prepare(workers: nil), roomyClock: true)
    case .workItemCareful: return CarefulWorkItemStrategy()
    case .workItemCarefulPrefetch: return CarefulWorkItemStrategy(prefetching: true)
    case .nukePipeline: return NukeLikeStrategy()
    case .nukePrefetch: return NukeLikeStrategy(prefetching: true)
    }
  }

  /// The strategy's ``FeedStrategy/resultByteLimit`` (from a new instance, never installed), for the JSON.
  @MainActor
  var resultByteLimit: Int? { make().resultByteLimit }

  /// The recommended IdleWork setup of its kind (main-thread: `idleWorkFeed`; background: `idleWorkPreparePrefetch`,
  /// prepared tasks with prefetching, as every real feed prefetches): flagged in the JSON.
  var isRecommended: Bool { self == .idleWorkFeed || self == .idleWorkPreparePrefetch }

  /// A canary: a strategy built to fail a metric, proving the metric can (`workItemCareless`: flicker).
  var isCanary: Bool { self == .noGuard || self == .noGuardBackground || self == .workItemCareless }

  /// The policy in one line, for the JSON and the report.
  var policy: String {
    switch self {
    case .sync: return "draws inside cellForRow"
    case .mainQueue: return "DispatchQueue.main.async per draw, index-path guard"
    case .dwu:
      return "DWU: BeforeWaiting, default mode, order Int.max-999, pop until YES, 30 dropping the oldest, 0.1 s timer"
    case .dwuUnbind: return "DWU plus cell.currentIndexPath = nil in didEndDisplaying"
    case .runLoopQueue:
      return "Texture ASRunLoopQueue: BeforeWaiting, common modes, order 0, batch 1, exclusive-membership scan"
    case .runLoopQueueTuned: return "Texture ASRunLoopQueue, batchSize 16, ensureExclusiveMembership NO"
    case .idleWork: return "IdleWork defaults (default mode, .tasks(1), 30), cellDidEndDisplaying"
    case .idleWork4ms: return "IdleWork, 4 ms budget per pass, cellDidEndDisplaying"
    case .idleWorkFeed: return "IdleWork .scrollingFeed preset, frame deadline from the display link"
    case .noGuard: return "canary: DWU's policy with no stale guard"
    case .yyAsyncLayer:
      return
        "YYAsyncLayer+YYTransaction as its README: set at BeforeWaiting|Exit 0xFFFFFF, no clear, sentinel, min(cores,16) serial queues round-robin, main.async apply"
    case .textureAsync:
      return
        "Texture async display: sentinel per node, 2 x cores threads (-1 tracking), completions per cell at BeforeWaiting INT_MAX, new node on reload"
    case .asyncDraw:
      return
        "AsyncDraw: task set at BeforeWaiting|Exit 0xFFFFFF, min(cores,6) serial queues least-loaded, cancel flag reset by display, main.async apply unchecked"
    case .msCachedAsync:
      return
        "MSCachedAsyncViewDrawing: unbounded cache by key, one concurrent queue, no cancellation, caller's configuration check"
    case .workItem:
      return
        "DispatchWorkItem per draw on the global queue, image = nil in prepareForReuse only, cancel in didEndDisplaying, index-path check"
    case .noGuardBackground: return "canary: a Thread per draw, main.async apply with no check"
    case .idleWorkPrepare:
      return
        "IdleWork .scrollingFeed, prepared tasks: draw on the default workers (the active cores, at most 6), apply in idle passes, cache by content 32 MB"
    case .idleWorkPrepare1: return "idleWorkPrepare with 1 worker thread"
    case .idleWorkPrepare2: return "idleWorkPrepare with 2 worker threads"
    case .idleWorkPrepare4: return "idleWorkPrepare with 4 worker threads"
    case .idleWorkPreparePrefetch:
      return "idleWorkPrepare with prefetching: prefetch(_:with:) in prefetchRowsAt, cancelPrefetching in the cancel"
    case .workItemPrefetch:
      return
        "DispatchWorkItem per draw, also started in prefetchRowsAt into a 32 MB cache, cancelled in cancelPrefetchingForRowsAt"
    case .runLoopQueueTiles:
      return "runLoopQueue given tiles: one item per tile (4 a rasterisation), index-path guard each"
    case .dwuTiles: return "dwu given tiles: one task per tile (4 a rasterisation), the 30-task limit counting tiles"
    case .mainQueueTiles:
      return "mainQueue given tiles: one main.async per tile (4 a rasterisation), index-path guard each"
    case .idleWorkFeedWhole:
      return "idleWorkFeed given whole draws: one addTask(for:at:) per draw, estimatedCost the measured draw cost"
    case .yyAsyncLayerLabel:
      return
        "YYAsyncLayer as YYLabel's setTextLayout: clear contents and setNeedsDisplay at once, sentinel, min(cores,16) serial queues, main.async apply"
    case .workItemCareless:
      return "canary: workItem plus image = nil again in cellForRow (a reconfigured row flickers)"
    case .textureAsyncPrefetch:
      return
        "textureAsync with ASRangeController's Full display range (1 screen leading, 0.5 trailing): off-screen nodes display through the render queue, keep contents in range, cancel and clear on leaving it"
    case .msCachedAsyncPrefetch:
      return "msCachedAsync with the cache warmed in prefetchRowsAt (same draw, completion ignored), no cancellation"
    case .idleWorkMainPrefetch:
      return
        "IdleWork .scrollingFeed, main-thread preparation in tiles, cached by content 32 MB, prefetched in the main thread's slack"
    case .idleWorkMainPrefetchLanding:
      return "idleWorkMainPrefetch plus the fling's landing rows prefetched first (scrollViewWillEndDragging)"
    case .textureSyncRanges:
      return
        "Texture ranges, displaysAsynchronously NO: display-range nodes draw on the main thread via the render queue (one a turn), visible ones without contents in the commit's display pass"
    case .idleWorkPreparePrefetchRoomy:
      return "diagnostic: idleWorkPreparePrefetch with a frame clock that always has a whole frame left while scrolling"
    case .idleWorkPrepareRoomy:
      return "diagnostic: idleWorkPrepare with a frame clock that always has a whole frame left while scrolling"
    case .workItemCareful:
      return
        "DispatchWorkItem per image at userInitiated, isCancelled checked between passes, running items cancelled in didEndDisplaying unless another cell waits, index-path check"
    case .workItemCarefulPrefetch:
      return
        "workItemCareful plus prefetches at utility (re-submitted at userInitiated when a visible row needs one not started), cancelled running or not in cancelPrefetchingForRowsAt, 32 MB cache"
    case .nukePipeline:
      return
        "Nuke-like pipeline: 32 MB LRU memory cache read in cellForRow, coalesced tasks at their subscribers' highest priority, draws on a priority queue of 2, a task per view cancelled on reuse, main.async completion"
    case .nukePrefetch:
      return
        "nukePipeline plus ImagePrefetcher: 2 prefetches at once at .low (utility), cached or prefetching images skipped, stopPrefetching in the cancel"
    }
  }
}
