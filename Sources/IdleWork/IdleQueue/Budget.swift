extension IdleQueue {
  /// How much work one idle pass may do before it hands the main thread back to the run loop.
  ///
  /// A pass happens each time the main run loop is about to sleep while the queue has runnable tasks. The
  /// budget decides how many tasks run in it: a small budget keeps input and frames first; a larger one
  /// drains a queue faster when the screen is still. Tasks skipped as stale never count against the budget.
  /// Each slice of a resumable task counts as one task.
  public enum Budget: Sendable {
    /// Run at most this many tasks per pass. Valid range: `1...Int.max`. The default is `.tasks(1)`.
    case tasks(Int)
    /// Keep running tasks in this pass until this many seconds have passed since the pass began
    /// (`.seconds(0.004)` is 4 ms). Valid range: a finite value greater than 0.
    ///
    /// The first runnable task of a pass always starts, unless a frame deadline refuses it. A later one
    /// starts only if its predicted cost still fits in the budget, so a pass overruns the budget by no more
    /// than its last task's prediction error.
    case seconds(Double)

    /// A description of why this budget is invalid, naming the parameter and its valid range; `nil` if valid.
    var validationFailure: String? {
      switch self {
      case .tasks(let count) where count < 1:
        return "IdleWork: budget .tasks(\(count)) is invalid: the task count must be in 1...Int.max"
      case .seconds(let seconds) where !(seconds.isFinite && seconds > 0):
        return "IdleWork: budget .seconds(\(seconds)) is invalid: the duration must be finite and greater than 0"
      default:
        return nil
      }
    }
  }
}
