import Foundation

/// What the queue stores for each task: its work, its optional cell binding, the caller's cost estimate and
/// the hooks `perform` uses.
///
/// Kept small, because every addition copies it into the list: the rarely used hooks live behind one
/// optional reference (``Hooks``), so a plain task is its closure and a few words.
struct QueuedTask {
  enum Work {
    /// Runs once.
    case once(@MainActor () -> Void)
    /// Runs once, given its cell (read from the binding's record just before it runs).
    case onCell(@MainActor (AnyObject) -> Void)
    /// Runs once per pass until it reports ``IdleQueue/SliceResult/done``; it is given the time left.
    case resumable(@MainActor (_ timeRemaining: () -> TimeInterval) -> IdleQueue.SliceResult)
    /// As `resumable`, given its cell.
    case resumableOnCell(@MainActor (AnyObject, _ timeRemaining: () -> TimeInterval) -> IdleQueue.SliceResult)
    /// Applies a result prepared off the main thread, once it has arrived (given the cell, for a cell task).
    case prepared(PreparedRequest)
  }

  /// Which average predicts the work's cost: slices, cell tasks and other tasks are predicted apart.
  var costKind: CostPredictor.Kind {
    switch work {
    case .once: return .task
    case .onCell: return .cellTask
    case .resumable, .resumableOnCell: return .slice
    case .prepared: return .apply
    }
  }

  /// The hooks `perform` uses; a reference, so that tasks without them carry one nil word.
  final class Hooks {
    /// Told how the task left the queue when it did not run (the caller of `perform` must never hang).
    var onDrop: (@MainActor (TaskFate) -> Void)?
    /// Asked just before the task runs; `false` means it was cancelled from another thread meanwhile and
    /// must not start (the awaiting task of `perform` may be cancelled on any thread).
    var claim: (@Sendable () -> Bool)?
    /// Whether the task was cancelled from another thread, without claiming it (cheap, any thread): such a
    /// task is withdrawn — counted as cancelled — wherever the list meets it, an overflow included.
    var isWithdrawn: (@Sendable () -> Bool)?
  }

  // Stored last: `work` is 17 bytes (a closure and its case), so before the 8-byte fields it would be padded
  // to 24, and the list's entry (copied on every addition and when the list grows) would be a word longer.
  /// The cell configuration of a cell task; `nil` for other tasks.
  let binding: CellBinding?
  /// The caller's estimate of one run (or slice), in nanoseconds; `UInt64.max` for none (a sentinel
  /// rather than an optional, which would pad the entry by a word).
  private let costEstimate: UInt64
  var hooks: Hooks?
  var work: Work

  init(work: Work, binding: CellBinding? = nil, estimatedCost: UInt64? = nil) {
    self.work = work
    self.binding = binding
    self.costEstimate = estimatedCost ?? .max
  }

  /// The item of a cell task's cell, read in place (a copy of the binding would retain its record).
  var cellItem: TaskKey {
    switch binding {
    case .some(let binding): return binding.record.item
    case .none: return TaskKey.int(0)
    }
  }

  /// The caller's estimate in nanoseconds; `nil` lets the queue predict the cost.
  var estimatedCost: UInt64? { costEstimate == .max ? nil : costEstimate }

  var onDrop: (@MainActor (TaskFate) -> Void)? { hooks?.onDrop }
  var claim: (@Sendable () -> Bool)? { hooks?.claim }

  /// Runnable, stale (its cell is gone or was configured again), parked (its cell is off screen),
  /// withdrawn (a `perform` cancelled from another thread) or preparing (a prepared task whose result has
  /// not arrived). Other tasks are always runnable.
  @MainActor var state: EntryState {
    if let isWithdrawn = hooks?.isWithdrawn, isWithdrawn() { return .withdrawn }
    let state = binding?.state ?? .runnable
    guard state == .runnable, case .prepared(let request) = work, !request.hasArrived else { return state }
    return .preparing
  }
}
