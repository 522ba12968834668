import Dispatch
import Foundation

/// The common way: `DispatchQueue.main.async` per draw, with the user's stale guard in the block.
///
/// The main queue is served in every common mode, tracking included, and drains everything queued at
/// each turn of the loop — so work lands in the middle of a scroll, in bursts. A queued block cannot be
/// cancelled, so `didEndDisplaying` does nothing: the guard is all the user has, and a cell that left the
/// screen still shows its row, so its draws run (off screen).
///
/// At ``Granularity/tiles`` the app makes one `main.async` per tile, in order, each with the guard
/// (``DrawRequest/tileTasks(guarded:)``): the main queue drains them all in the same turn, so cutting the
/// draw moves no work out of the frame.
@MainActor
final class MainQueueStrategy: FeedStrategy {
  /// How the app cuts its draws into blocks.
  private let granularity: Granularity
  private var pending = 0
  /// Blocks still queued after `uninstall()` see a new generation and do nothing.
  private var generation = 0

  /// Creates the strategy, the app's draws handed over at `granularity`.
  init(granularity: Granularity = .whole) { self.granularity = granularity }

  func install(for workload: Workload, displayLink: DisplayLink?) {}

  func schedule(_ request: DrawRequest) {
    for task in request.guardedTasks(at: granularity) { enqueue(task) }
  }

  /// No-op: `DispatchQueue.main.async` blocks cannot be cancelled.
  func cellDidEndDisplaying(_ cell: FeedCell, forRowAt indexPath: IndexPath) {}

  func scheduleTask(key: Int, _ task: @escaping @MainActor () -> Void) {
    enqueue(task)
  }

  /// Queued blocks cannot be cancelled; a new generation makes them do nothing when they run.
  func discardPending() {
    generation += 1
    pending = 0
  }

  var pendingCount: Int { pending }

  func uninstall() {
    generation += 1
    pending = 0
  }

  private func enqueue(_ work: @escaping @MainActor () -> Void) {
    pending += 1
    let generation = self.generation
    DispatchQueue.main.async { [weak self] in
      MainActor.assumeIsolated {
        guard let self, self.generation == generation else { return }
        self.pending -= 1
        work()
      }
    }
  }
}
