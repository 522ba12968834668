import Foundation

/// Main-thread preparations: renders whose work runs in the queue's passes, a slice per step, because it is not
/// thread-safe. They live on a line of their own (``QueuePreparation/mainLine``), so sharing, the cache, staleness,
/// prefetching and the accounting are a worker render's; only where the work runs differs.
///
/// A task's render runs as that task's steps (``PreparedRequest/prepare(timeRemaining:)``), within the pass budget
/// and the frame admission like any task. A render only prefetches want runs in the pass's slack: after every
/// runnable task, nearest first, and during a frame only if its measured cost fits the time left
/// (``PassPlanner/nextInSlack(_:)``).
extension QueuePreparation {
  /// Runs one slice of `render`, started here if it waits; once the work returns its value (or throws, or nothing
  /// waits for it any more) the outcome is taken in at once, as a worker's would be. Returns whether it ended.
  func runSlice(of render: PreparationRun, timeRemaining: () -> TimeInterval) -> Bool {
    let pool = mainLine.pool
    switch pool.startByHand(render) {
    case .none:
      return true
    case .cancelled:
      finish(render, .failure(CancellationError()))
      return true
    case .run:
      break
    }
    if render.slices == nil { render.slices = render.mainThreadSlices() }
    let outcome = Result { try render.slices!.next(timeRemaining) }
    switch outcome {
    case .success(nil):
      return false
    case .success(let value?):
      finish(render, .success(value))
    case .failure(let error):
      finish(render, .failure(error))
    }
    return true
  }

  private func finish(_ render: PreparationRun, _ outcome: Result<any Sendable, any Error>) {
    render.endMainThreadWork()
    mainLine.pool.finishByHand(render, outcome)
    takeInPreparedResults()
  }

  /// Whether a main-thread render waits that some request wants (a prefetch, or a task's out of reach this pass),
  /// or one is under way.
  var hasSlackWork: Bool { mainLine.pool.hasStartableWork(of: mainLine) }

  /// Runs one slice of the render under way, or of the one the pick rule chooses (the nearest prefetch).
  func runSlackSlice(timeRemaining: () -> TimeInterval) -> Bool {
    guard let render = mainLine.pool.startNextByHand(of: mainLine) else { return false }
    _ = runSlice(of: render, timeRemaining: timeRemaining)
    return true
  }
}
