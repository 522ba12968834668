import Foundation

/// What the queue stores for each task: its work, its optional cell binding and its fate observer.
struct QueuedTask {
  enum Work {
    /// Runs once.
    case once(@MainActor () -> Void)
    /// Runs once per pass until it reports ``IdleQueue/SliceResult/done``.
    case resumable(@MainActor () -> IdleQueue.SliceResult)
  }

  var work: Work
  /// The cell the task draws into, held weakly; `nil` for tasks without a cell.
  weak var cell: (any IndexPathReusable)?
  /// The index path the cell must still show for the task to run.
  var indexPath: IndexPath?
  /// Told how the task left the queue when it did not run (used by `perform`, whose caller must never hang).
  var onDrop: (@MainActor (TaskFate) -> Void)?

  init(work: Work, cell: (any IndexPathReusable)? = nil, indexPath: IndexPath? = nil) {
    self.work = work
    self.cell = cell
    self.indexPath = indexPath
  }

  /// Whether the task's cell is gone or now shows another index path. Tasks without a cell never are.
  @MainActor var isStale: Bool {
    guard let indexPath else { return false }
    guard let cell else { return true }
    return cell.currentIndexPath != indexPath
  }
}
