/// The selections FeedDemo makes when `--profile`, `--hz`, `--strategies` and `--runs` do not say: the
/// newcomer's run (no flag), the full sweep (`--full`) and CI's smoke run (`--quick`).
enum Sweep: Sendable, CaseIterable {
  /// The README's run command: each kind's IdleWork setup with prefetching against a peer that prefetches too, of
  /// the same kind and granularity (Texture's display range with synchronous display; the careful GCD user), in the
  /// baseline profile and the two that stress it, nine runs each so that the verdict can say better, level or worse
  /// — in about six minutes.
  case newcomer
  /// Every profile, both rates, the contests with prefetching: each kind's IdleWork setup with prefetching against
  /// every peer of its kind that prefetches (with Texture's queue given the same tiles), about 16 minutes on 2
  /// cores; three such sweeps give the nine runs a verdict needs.
  case full
  /// CI's smoke run: the reload profiles at 60 Hz, once, the strategies check-json checks.
  case quick

  /// The profiles run.
  var profiles: [Profile] {
    switch self {
    case .newcomer: return [.light, .heavy, .busy]
    case .full: return Profile.allCases
    case .quick: return [.reload, .reloadSame]
    }
  }

  /// The refresh rates run at.
  var refreshRates: [Int] { self == .quick ? [60] : [60, 120] }

  /// Runs per figure.
  var runs: Int {
    switch self {
    case .newcomer: return RankTest.minimumRuns
    case .full: return 3
    case .quick: return 1
    }
  }

  /// The strategies run, in report order.
  var strategies: [StrategyKind] {
    let kinds: Set<StrategyKind>
    switch self {
    case .newcomer:
      kinds = [.idleWorkMainPrefetch, .textureSyncRanges, .idleWorkPreparePrefetch, .workItemCarefulPrefetch]
    case .full:
      kinds = [
        .idleWorkMainPrefetch, .runLoopQueueTiles, .textureSyncRanges, .idleWorkPreparePrefetch,
        .workItemCarefulPrefetch, .nukePrefetch,
        .workItemPrefetch, .textureAsyncPrefetch, .msCachedAsyncPrefetch,
      ]
    case .quick:
      kinds = [
        .sync, .mainQueue, .dwu, .runLoopQueue, .runLoopQueueTiles, .idleWorkFeed, .noGuard, .yyAsyncLayer,
        .textureAsync, .asyncDraw, .msCachedAsync, .workItem, .workItemCareless, .noGuardBackground,
        .idleWorkPrepare, .idleWorkPreparePrefetch, .workItemPrefetch,
      ]
    }
    return StrategyKind.allCases.filter { kinds.contains($0) }
  }

  /// One line for the usage text.
  var summary: String {
    "\(profiles.map(\.rawValue).joined(separator: ", ")) at \(refreshRates.map(String.init).joined(separator: " and ")) Hz, "
      + "\(strategies.count) strategies, \(runs) run\(runs == 1 ? "" : "s")"
  }
}
