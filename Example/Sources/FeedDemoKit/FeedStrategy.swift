import Foundation

/// What the benchmark runs a strategy for.
enum Workload: Sendable {
  /// The feed scenario: image draws for cells, with the strategy's own queue limits.
  case feed
  /// The throughput workload: thousands of small cell-less tasks; queue limits are lifted where the
  /// strategy has a setting for it (DWU's `maximumQueueLength`, IdleWork's `maximumQueueLength`).
  case throughput
}

/// A scheduling policy under test: how `cellForRow` gets its image draws done.
@MainActor
protocol FeedStrategy: AnyObject {
  /// Sets the strategy up on the main run loop (observers, timers, sources).
  func install(for workload: Workload, displayLink: DisplayLink)
  /// Hands over one image draw from `cellForRow`.
  func schedule(_ request: DrawRequest)
  /// `tableView(_:didEndDisplaying:forRowAt:)`: `cell` stopped showing `indexPath` on screen; it goes to
  /// the reuse pool next, still bound to the row. IdleWork's strategies call
  /// `IdleQueue.cellDidEndDisplaying(_:)` here, as the library documents for UIKit apps; the baselines
  /// have no such API (DWU offers only `removeAllTasks`, a `DispatchQueue.main.async` block cannot be
  /// cancelled, Texture's queue has no removal) and do nothing, as their users' apps do.
  func cellDidEndDisplaying(_ cell: FeedCell, forRowAt indexPath: IndexPath)
  /// Hands over one small task of the throughput workload.
  func scheduleTask(key: Int, _ task: @escaping @MainActor () -> Void)
  /// Tasks handed over and not yet run or dropped.
  var pendingCount: Int { get }
  /// Removes everything the strategy put on the run loop and drops what it still holds.
  func uninstall()
}

/// The strategies the benchmark knows, in report order.
enum StrategyKind: String, CaseIterable, Sendable {
  /// Draws inside `cellForRow`.
  case sync
  /// `DispatchQueue.main.async` per draw, with the user's stale guard.
  case mainQueue
  /// DWURunLoopWorkDistribution's policy.
  case dwu
  /// Texture's `ASRunLoopQueue` policy.
  case runLoopQueue
  /// IdleWork with its defaults.
  case idleWork
  /// IdleWork with a `.milliseconds(4)` budget.
  case idleWork4ms
  /// IdleWork with its defaults plus `scrollingSlack` fed by the display link.
  case idleWorkSlack

  /// A new instance of the strategy.
  @MainActor
  func make() -> FeedStrategy {
    switch self {
    case .sync: return SyncStrategy()
    case .mainQueue: return MainQueueStrategy()
    case .dwu: return DWUStrategy()
    case .runLoopQueue: return RunLoopQueueStrategy()
    case .idleWork: return IdleWorkStrategy(variant: .defaults)
    case .idleWork4ms: return IdleWorkStrategy(variant: .milliseconds4)
    case .idleWorkSlack: return IdleWorkSlackStrategy()
    }
  }

  /// Whether this is one of IdleWork's configurations (the targets apply to these).
  var isIdleWork: Bool { self == .idleWork || self == .idleWork4ms || self == .idleWorkSlack }
}
