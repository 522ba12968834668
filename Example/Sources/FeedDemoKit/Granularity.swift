/// How finely the app cuts its main-thread work before handing it to the strategy (issue 26, item 1: like for
/// like). A queue that runs a whole image draw as one item cannot stop before the frame deadline in the middle of
/// it; one given the draw's tiles can. Which cut an app uses is the app's choice, not the library's, so every
/// main-thread strategy is measured at both.
enum Granularity: String, Sendable, CaseIterable {
  /// One task per image draw: the draw runs whole when its turn comes (``DrawRequest/run()``).
  case whole
  /// The app cuts each draw into its tiles (``FeedModel/tilesPerDraw``: 4 a rasterisation) and hands each tile
  /// over as its own task, in order; the image shows when its last tile is drawn (``DrawRequest/runTile(_:)``).
  /// IdleWork's users write it as one resumable task per draw, which draws tiles while they fit before the
  /// frame deadline (`addResumableTask(for:at:estimatedCost:_:)`).
  case tiles
}

extension StrategyKind {
  /// The granularity the app hands this strategy its main-thread work at: `.tiles` for `idleWorkFeed` (its
  /// resumable task) and the peers' `…Tiles` kinds, `.whole` for every other kind (the background strategies
  /// draw each image whole off the main thread).
  var granularity: Granularity {
    switch self {
    case .idleWorkFeed, .runLoopQueueTiles, .dwuTiles, .mainQueueTiles, .idleWorkMainPrefetch,
      .idleWorkMainPrefetchLanding:
      return .tiles
    default: return .whole
    }
  }
}

extension DrawRequest {
  /// The app's tasks for this draw at `granularity`, each with the user's index-path guard: the whole draw as
  /// one task, or its ``tileTasks(guarded:)`` — what a queue that takes plain closures (the main queue, Texture's
  /// `ASRunLoopQueue`) is handed.
  func guardedTasks(at granularity: Granularity) -> [@MainActor () -> Void] {
    switch granularity {
    case .whole:
      return [
        { [self] in
          guard cellStillShowsRow else { return }
          run()
        }
      ]
    case .tiles:
      return tileTasks().map { tile in { _ = tile() } }
    }
  }

  /// The app's tiles of this draw as tasks for a peer's queue, in order, each guarded as the library's user
  /// writes it: tile `k` draws only if the cell still shows the row (`guarded`: the index-path check the
  /// whole draw's task makes) and the draw has reached it (``runTile(_:)``), so a tile skipped as stale skips
  /// the rest of its draw too, even if the cell shows the row again by their turn. Each task returns whether
  /// it drew (DWU's `YES`/`NO`).
  func tileTasks(guarded: Bool = true) -> [@MainActor () -> Bool] {
    (0..<tileCount).map { tile in
      { [self] in
        guard !guarded || cellStillShowsRow else { return false }
        return runTile(tile)
      }
    }
  }
}
