import Foundation

/// A task whose work comes later — a result prepared elsewhere, applied in a pass. It keeps its place and its
/// capacity slot, is passed over until it is ready, goes stale, parked, evicted or cancelled like any task, and
/// tells its owner how it left. The queue knows nothing else of where its work comes from.
@MainActor
protocol LaterWork: AnyObject {
  /// Whether the work can run now (its result arrived).
  var isReady: Bool { get }
  /// Runs the work, given its cell (`nil` for a task without one).
  func run(cell: AnyObject?)
  /// The task left the queue as `fate` (`.executed` after ``run(cell:)``).
  func left(_ fate: TaskFate)
  /// Its cell went off screen (`false`) or came back (`true`).
  func cellDisplayChanged(isDisplayed: Bool)
  /// Its cell was configured again: the task leaves at once, as stale.
  func cellConfiguredAgain()
}

/// The owner of a queue's later tasks (preparation), told what it needs of the queue's life: passes, cells
/// shown and hidden, memory warnings, the end, the statistics.
@MainActor
package protocol LaterWorkClient: AnyObject {
  /// Whether results other threads handed over wait for a pass to take them in.
  var hasArrivals: Bool { get }
  /// Whether the queue waits for results (its frame clock keeps running a moment for them).
  var isAwaitingResults: Bool { get }
  /// Whether work of its own waits to run on the main thread when no task is runnable (main-thread preparations).
  var hasMainThreadWork: Bool { get }
  /// Picks that work's next piece not passed over in this search, with what a slice of it costs (nanoseconds;
  /// `nil`: never measured); `nil` if none. Work nothing waits for any more is ended first, unmeasured.
  func nextMainThreadWork() -> (work: MainThreadWork, cost: UInt64?)?
  /// The pass does not admit the piece ``nextMainThreadWork()`` picked now: the next call picks another.
  func passOverMainThreadWork()
  /// Runs one slice of the piece ``nextMainThreadWork()`` picked; returns whether a slice of the app's code ran.
  func runMainThreadSlice(timeRemaining: () -> TimeInterval) -> Bool
  /// That slice took `nanoseconds`.
  func mainThreadSliceTook(_ nanoseconds: UInt64)
  /// A pass begins: take in what arrived.
  func takeInArrivals()
  /// A pass ended (or none was needed).
  func passEnded()
  /// A pass while a scroll is tracked, which found the main thread's frames tight or not.
  func trackingPass(framesAreTight: Bool)
  /// Every task was cancelled: cancel the client's own pending work (prefetches) too.
  func cancelAll()
  /// Memory is short: drop what can be made again. Returns how many pending prefetches went.
  func dropOnMemoryWarning() -> Int
  /// The queue ended.
  func queueEnded()
}

/// A piece of a client's main-thread work, as a pass admits it.
package enum MainThreadWork {
  /// A visible row's task waits for it: admitted like a task.
  case visibleRow
  /// Only a prefetch wants it: admitted only in time it cannot cost a frame.
  case prefetch
}
