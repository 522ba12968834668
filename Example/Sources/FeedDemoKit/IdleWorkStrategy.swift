import Foundation
import IdleWork

/// IdleWork: `addTask(for:at:)` per image draw on an `IdleQueue` of its own (not `IdleQueue.main`, so
/// each run starts fresh), with the library's stale check instead of the user's guard, and
/// `queue.cellDidEndDisplaying(cell)` from `tableView(_:didEndDisplaying:forRowAt:)` — the library's
/// documented usage for UIKit apps: the cell that left the screen is unbound (`currentIndexPath = nil`)
/// and its pending draws are dropped as stale at once, so they never run ahead of the visible rows'.
///
/// All uses of the IdleWork API live in the IdleWork strategy files; `FeedCell` itself does not depend on
/// the library and is adapted here (`IndexPathReusable` through its own `currentIndexPath`).
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
    /// Defaults with a `.milliseconds(4)` budget.
    case milliseconds4
  }

  private let variant: Variant
  private(set) var queue: IdleQueue?
  private var tracked: [(handle: IdleTaskHandle, request: DrawRequest)] = []

  /// Creates the strategy for `variant`.
  init(variant: Variant) { self.variant = variant }

  /// The configuration this strategy's queue is created with.
  func configuration(for workload: Workload) -> IdleQueue.Configuration {
    var configuration = IdleQueue.Configuration()
    if variant == .milliseconds4 { configuration.budget = .milliseconds(4) }
    if workload == .throughput { configuration.maximumQueueLength = IdleQueue.unlimitedQueueLength }
    return configuration
  }

  func install(for workload: Workload, displayLink: DisplayLink?) {
    install(configuration: configuration(for: workload))
  }

  /// Creates the queue with `configuration` (used by the slack variant, which adds to it).
  func install(configuration: IdleQueue.Configuration) {
    queue = IdleQueue(configuration: configuration)
  }

  func schedule(_ request: DrawRequest) {
    guard let queue else { return }
    tracked.removeAll { !$0.handle.isPending }
    let evictedBefore = queue.statistics.evicted
    let handle = queue.addTask(for: request.cell, at: request.indexPath) { _ in request.run() }
    tracked.append((handle, request))
    guard queue.statistics.evicted > evictedBefore else { return }
    for entry in tracked where !entry.handle.isPending && !entry.request.hasRun && entry.request.cellStillShowsRow {
      entry.request.reportEvicted()
    }
  }

  /// The app's `tableView(_:didEndDisplaying:forRowAt:)`: one line, as IdleWork documents it.
  func cellDidEndDisplaying(_ cell: FeedCell, forRowAt indexPath: IndexPath) {
    queue?.cellDidEndDisplaying(cell)
  }

  func scheduleTask(key: Int, _ task: @escaping @MainActor () -> Void) {
    queue?.addTask(key: key, task)
  }

  func discardPending() { queue?.removeAllTasks() }

  var pendingCount: Int { queue?.pendingTaskCount ?? 0 }

  func uninstall() {
    queue?.invalidate()
    queue = nil
    tracked.removeAll()
  }
}

/// The app's cell adapted to IdleWork's cell binding: the library reads and clears the cell's own
/// `currentIndexPath`, as it would a `UITableViewCell`'s.
extension FeedCell: IndexPathReusable {}
