import CoreFoundation
import Foundation

/// A re-implementation of the *policy* of DWURunLoopWorkDistribution (diwu/RunLoopWorkDistribution,
/// `DWURunLoopWorkDistribution.m`, 2015 release), written fresh for this benchmark:
///
/// - a `CFRunLoopObserver` at `kCFRunLoopBeforeWaiting`, repeating, order `NSIntegerMax - 999`, added to
///   `kCFRunLoopDefaultMode` only — nothing runs while the list is tracked;
/// - each callback pops tasks from the head until one returns `YES` (a task whose stale guard fails
///   returns `NO`, so stale tasks cost a pass nothing);
/// - `maximumQueueLength` 30: adding past it drops the *oldest* task, whatever it is;
/// - no explicit waking: a repeating 0.1 s `NSTimer` with an empty selector keeps the loop turning, and it
///   is never invalidated — the loop wakes ten times a second forever, even with nothing queued.
///
/// Tasks are the demo's: `if (![cell.currentIndexPath isEqual:indexPath]) return NO; draw; return YES;`.
/// DWU's only removal is `removeAllTasks`, and its demo has no `didEndDisplaying`: a cell that left the
/// screen keeps its `currentIndexPath` (UIKit never clears it), so its queued draws still pass the guard.
///
/// Three variants share the policy: ``Variant/faithful`` (the demo), ``Variant/unbindOnEndDisplaying``
/// (what a careful user adds: `cell.currentIndexPath = nil` in `didEndDisplaying`, so the guard rejects
/// the draws of a cell that left the screen) and ``Variant/noGuard``, the canary whose tasks draw without
/// any guard and so must show stale executions.
///
/// At ``Granularity/tiles`` the app adds one task per tile, in order, each with the demo's guard
/// (``DrawRequest/tileTasks(guarded:)``): a pass draws one tile (pop until `YES`), and the 30-task limit then
/// counts tiles — 30 tiles are 2½ draws in `heavy` — which is what DWU does with work cut that fine. A
/// dropped tile leaves its draw short (its later tiles are skipped, the image never shows): the draw is
/// counted evicted once, when the tile it needed next is dropped.
@MainActor
final class DWUStrategy: FeedStrategy {
  /// How the app around DWU is written.
  enum Variant {
    /// DWU's demo: the index-path guard, nothing in `didEndDisplaying`.
    case faithful
    /// The guard plus `cell.currentIndexPath = nil` in `didEndDisplaying`.
    case unbindOnEndDisplaying
    /// No guard at all (canary).
    case noGuard
  }

  /// DWU: `self.maximumQueueLength = 30;`
  static let defaultMaximumQueueLength = 30
  /// DWU: `CFRunLoopObserverCreate(..., kCFRunLoopBeforeWaiting, YES, NSIntegerMax - 999, ...)`.
  static let observerOrder = Int.max - 999
  /// DWU: `[NSTimer scheduledTimerWithTimeInterval:0.1 ... repeats:YES]`.
  static let keepAliveInterval = 0.1

  private struct Unit {
    let run: @MainActor () -> Bool
    /// Benchmark bookkeeping only: told when DWU drops the unit.
    let request: DrawRequest?
    /// Benchmark bookkeeping only: the tile the unit draws (``Granularity/tiles``), `nil` for a whole draw.
    var tile: Int? = nil
  }

  private let variant: Variant
  /// How the app cuts its draws into tasks.
  private let granularity: Granularity
  private var tasks = FIFO<Unit>()
  private var maximumQueueLength = DWUStrategy.defaultMaximumQueueLength
  private var observer: CFRunLoopObserver?
  private var timer: CFRunLoopTimer?

  /// Creates the strategy for `variant`, the app's draws handed over at `granularity`.
  init(variant: Variant, granularity: Granularity = .whole) {
    self.variant = variant
    self.granularity = granularity
  }

  func install(for workload: Workload, displayLink: DisplayLink?) {
    // DWU exposes `maximumQueueLength` as a property; the bulk workload lifts it.
    maximumQueueLength = workload == .throughput ? Int.max : DWUStrategy.defaultMaximumQueueLength
    let observer = CFRunLoopObserverCreateWithHandler(
      nil, CFRunLoopActivity.beforeWaiting.rawValue, true, CFIndex(DWUStrategy.observerOrder)
    ) { [weak self] _, _ in
      MainActor.assumeIsolated { self?.runLoopWorkDistributionCallback() }
    }
    CFRunLoopAddObserver(CFRunLoopGetMain(), observer, kCFRunLoopDefaultMode)
    self.observer = observer
    // `scheduledTimerWithTimeInterval:` schedules in the current mode set's default mode.
    let timer = CFRunLoopTimerCreateWithHandler(
      nil, CFAbsoluteTimeGetCurrent() + DWUStrategy.keepAliveInterval, DWUStrategy.keepAliveInterval, 0, 0
    ) { _ in /* _timerFiredMethod: does nothing */ }
    CFRunLoopAddTimer(CFRunLoopGetMain(), timer, kCFRunLoopDefaultMode)
    self.timer = timer
  }

  func schedule(_ request: DrawRequest) {
    let guarded = variant != .noGuard
    if granularity == .tiles {
      for (tile, task) in request.tileTasks(guarded: guarded).enumerated() {
        addTask(Unit(run: task, request: request, tile: tile))
      }
      return
    }
    addTask(
      Unit(
        run: {
          guard !guarded || request.cellStillShowsRow else { return false }
          request.run()
          return true
        }, request: request))
  }

  /// DWU can remove only every task at once (`removeAllTasks`), which would drop the visible rows' draws
  /// too, and its demo does not implement the delegate method; the careful variant unbinds the cell so
  /// that the guard rejects its queued draws.
  func cellDidEndDisplaying(_ cell: FeedCell, forRowAt indexPath: IndexPath) {
    if variant == .unbindOnEndDisplaying { cell.currentIndexPath = nil }
  }

  func scheduleTask(key: Int, _ task: @escaping @MainActor () -> Void) {
    addTask(
      Unit(
        run: {
          task()
          return true
        }, request: nil))
  }

  /// DWU's `removeAllTasks`.
  func discardPending() { tasks.removeAll() }

  var pendingCount: Int { tasks.count }

  func uninstall() {
    if let observer { CFRunLoopObserverInvalidate(observer) }
    if let timer { CFRunLoopTimerInvalidate(timer) }
    observer = nil
    timer = nil
    tasks.removeAll()
  }

  /// DWU's `addTask:withKey:`: append, then drop the oldest if over the limit.
  private func addTask(_ unit: Unit) {
    tasks.append(unit)
    if tasks.count > maximumQueueLength, let dropped = tasks.popFirst(), let request = dropped.request {
      // A whole draw dropped, or the tile its draw needed next (later tiles of a draw already short: not again).
      if dropped.tile.map(request.isNextTile) ?? true { request.reportEvicted() }
    }
  }

  /// DWU's `_defaultModeRunLoopWorkDistributionCallback`: pop until a unit returns `YES`.
  private func runLoopWorkDistributionCallback() {
    var result = false
    while !result, let unit = tasks.popFirst() {
      result = unit.run()
    }
  }
}
