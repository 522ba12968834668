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
  /// The cell and index path of a cell task; `nil` for other tasks. A box, so that the weak reference does
  /// not make every queue entry expensive to move.
  let binding: CellBinding?
  /// Told how the task left the queue when it did not run (used by `perform`, whose caller must never hang).
  var onDrop: (@MainActor (TaskFate) -> Void)?

  init(work: Work) {
    self.work = work
    self.binding = nil
  }

  init(work: Work, cell: any IndexPathReusable, indexPath: IndexPath) {
    self.work = work
    self.binding = CellBinding(cell: cell, indexPath: indexPath)
  }

  /// The cell the task draws into, if it is still alive.
  var cell: (any IndexPathReusable)? { binding?.cell }

  /// Whether the task's cell is gone or now shows another index path. Tasks without a cell never are.
  @MainActor var isStale: Bool {
    guard let binding else { return false }
    guard let cell = binding.cell else { return true }
    return cell.currentIndexPath != binding.indexPath
  }
}

/// A cell task's cell, held weakly, and the index path it must still show for the task to run.
final class CellBinding {
  weak var cell: (any IndexPathReusable)?
  let indexPath: IndexPath

  init(cell: any IndexPathReusable, indexPath: IndexPath) {
    self.cell = cell
    self.indexPath = indexPath
  }
}
