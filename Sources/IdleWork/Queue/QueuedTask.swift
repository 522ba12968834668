import Foundation

/// What the queue stores for each task: its work, its optional cell binding and the caller's cost estimate.
struct QueuedTask {
  enum Work {
    /// Runs once.
    case once(@MainActor () -> Void)
    /// Runs once, given its cell (read from the binding's record just before it runs).
    case onCell(@MainActor (AnyObject) -> Void)
    /// Runs once per pass until it returns `true` (done); it is given the time left.
    case resumable(@MainActor (_ timeRemaining: () -> TimeInterval) -> Bool)
    /// As `resumable`, given its cell.
    case resumableOnCell(@MainActor (AnyObject, _ timeRemaining: () -> TimeInterval) -> Bool)
    /// Work that comes later (see ``LaterWork``): passed over until it is ready.
    case later(any LaterWork)
  }

  /// Which average predicts the work's cost: slices, cell tasks and other tasks are predicted apart.
  var costKind: CostPredictor.Kind {
    switch work {
    case .once: return .task
    case .onCell: return .cellTask
    case .resumable, .resumableOnCell: return .slice
    case .later: return .apply
    }
  }

  // Stored last: `work` is 17 bytes (a closure and its case), so before the 8-byte fields it would be padded
  // to 24, and the list's entry (copied on every addition and when the list grows) would be a word longer.
  /// The cell configuration of a cell task; `nil` for other tasks.
  let binding: CellBinding?
  /// The caller's estimate of one run (or slice), in nanoseconds; `UInt64.max` for none (a sentinel
  /// rather than an optional, which would pad the entry by a word).
  private let costEstimate: UInt64
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

  /// Runnable, stale (its cell is gone or was configured again), parked (its cell is off screen) or preparing (a
  /// prepared task whose result has not arrived). Other tasks are always runnable.
  @MainActor var state: EntryState {
    let state = binding?.state ?? .runnable
    guard state == .runnable, case .later(let work) = work, !work.isReady else { return state }
    return .preparing
  }
}
