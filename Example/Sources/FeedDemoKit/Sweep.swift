/// The selections FeedDemo makes when `--profile`, `--hz`, `--strategies` and `--runs` do not say: the
/// newcomer's run (no flag), the full sweep (`--full`) and CI's smoke run (`--quick`).
enum Sweep: Sendable, CaseIterable {
  /// The README's run command: each kind's recommended IdleWork setup against its strongest peer of the same
  /// kind and granularity, with prefetching, in the profiles that decide a feed — in about two minutes.
  case newcomer
  /// Every profile, both rates, the recommended setups and every faithful peer, each with and without its
  /// prefetch path and at both granularities where it has them: under 20 minutes on 2 cores.
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
  var runs: Int { self == .quick ? 1 : 3 }

  /// The strategies run, in report order.
  var strategies: [StrategyKind] {
    let kinds: Set<StrategyKind>
    switch self {
    case .newcomer:
      kinds = [.idleWorkFeed, .runLoopQueueTiles, .idleWorkPreparePrefetch, .workItemPrefetch]
    case .full:
      kinds = [
        .idleWorkFeed, .runLoopQueueTiles, .idleWorkFeedWhole, .runLoopQueue, .idleWorkPreparePrefetch,
        .workItemPrefetch, .textureAsyncPrefetch, .msCachedAsyncPrefetch, .idleWorkPrepare, .workItem,
        .textureAsync, .yyAsyncLayer, .asyncDraw, .msCachedAsync,
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
