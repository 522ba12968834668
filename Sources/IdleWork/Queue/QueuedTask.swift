import Foundation

/// What the queue stores for each task: its work, its optional cell binding and the hooks `perform` uses.
struct QueuedTask {
  enum Work {
    /// Runs once.
    case once(@MainActor () -> Void)
    /// Runs once per pass until it reports ``IdleQueue/SliceResult/done``.
    case resumable(@MainActor () -> IdleQueue.SliceResult)
  }

  var work: Work
  /// The cell configuration of a cell task; `nil` for other tasks.
  let binding: CellBinding?
  /// Told how the task left the queue when it did not run (used by `perform`, whose caller must never hang).
  var onDrop: (@MainActor (TaskFate) -> Void)?
  /// Asked just before the task runs; `false` means it was cancelled from another thread meanwhile and must
  /// not start (used by `perform`, whose awaiting task may be cancelled on any thread).
  var claim: (@Sendable () -> Bool)?

  init(work: Work, binding: CellBinding? = nil) {
    self.work = work
    self.binding = binding
  }

  /// Runnable, stale (its cell is gone or was configured again) or parked (its cell is off screen).
  /// Tasks without a cell are always runnable.
  @MainActor var state: EntryState { binding?.state ?? .runnable }
}
