/// The names a reader sees on the console and in the markdown report: the README's (`Example/readme-tables.py`'s
/// chart legend where it names a strategy, else its table's names without the markdown). The JSON keeps the raw
/// identifiers, which `--strategies` takes.
extension StrategyKind {
  /// The strategy as the README names it, e.g. "IdleWork, main thread" for `idleWorkFeed`.
  var displayName: String { Self.displayNames[rawValue] ?? rawValue }

  /// Keyed by the raw identifier, so that a strategy added without a name here still prints (as its identifier).
  private static let displayNames: [String: String] = [
    "sync": "sync (draw in cellForRow)",
    "mainQueue": "DispatchQueue.main.async",
    "dwu": "DWU (faithful)",
    "dwuUnbind": "DWU + currentIndexPath = nil in didEndDisplaying",
    "runLoopQueue": "Texture ASRunLoopQueue",
    "runLoopQueueTuned": "Texture, batch 16, no membership scan",
    "idleWork": "IdleWork defaults",
    "idleWork4ms": "IdleWork, .seconds(0.004)",
    "idleWorkFeed": "IdleWork, main thread",
    "noGuard": "noGuard (canary)",
    "yyAsyncLayer": "YYAsyncLayer",
    "textureAsync": "Texture async display",
    "asyncDraw": "AsyncDraw",
    "msCachedAsync": "MSCachedAsyncViewDrawing",
    "workItem": "DispatchWorkItem per draw",
    "noGuardBackground": "noGuardBackground (canary)",
    "idleWorkPrepare": "IdleWork, background",
    "idleWorkPrepare1": "IdleWork prepared, 1 worker",
    "idleWorkPrepare2": "IdleWork prepared, 2 workers",
    "idleWorkPrepare4": "IdleWork prepared, 4 workers",
    "idleWorkPreparePrefetch": "IdleWork, background, prefetching",
    "workItemPrefetch": "DispatchWorkItem per draw, prefetching",
    "runLoopQueueTiles": "Texture ASRunLoopQueue, tiles",
    "dwuTiles": "DWU (faithful), tiles",
    "mainQueueTiles": "DispatchQueue.main.async, tiles",
    "idleWorkFeedWhole": "IdleWork, main thread, whole draws",
    "yyAsyncLayerLabel": "YYAsyncLayer as YYLabel (clear on set)",
    "workItemCareless": "DispatchWorkItem, image = nil in cellForRow (canary)",
    "textureAsyncPrefetch": "Texture async display, ranges",
    "msCachedAsyncPrefetch": "MSCachedAsyncViewDrawing, cache warmed ahead",
    "idleWorkMainPrefetch": "IdleWork, main thread, prefetching",
    "idleWorkMainPrefetchLanding": "IdleWork, main thread, prefetching + landing rows",
    "textureSyncRanges": "Texture ranges, synchronous display",
    "workItemCareful": "DispatchWorkItem, careful",
    "workItemCarefulPrefetch": "DispatchWorkItem, careful, prefetching",
    "nukePipeline": "Nuke-like pipeline",
    "nukePrefetch": "Nuke-like, prefetching",
  ]

  /// The markdown report's name: the README's, then the identifier `--strategies` and the JSON use.
  var reportName: String { "\(displayName) · `\(rawValue)`" }
}
