extension IdleQueue {
  /// How much work one idle pass may do before it hands the main thread back to the run loop.
  ///
  /// A pass happens each time the main run loop is about to sleep. The budget decides how many tasks run
  /// in it: a small budget keeps input and frames first; a larger one drains a queue faster when the
  /// screen is still. Tasks skipped as stale never count against the budget.
  public enum Budget: Sendable, Hashable, CustomStringConvertible {
    /// Run at most this many tasks per pass. Valid range: `1...Int.max`. The default is `.tasks(1)`.
    case tasks(Int)
    /// Keep running tasks in this pass until this many milliseconds have passed since the pass began;
    /// at least one task always runs. Valid range: a finite value greater than 0.
    ///
    /// The check happens between tasks, so a pass can exceed the budget by the length of its last task.
    case milliseconds(Double)

    /// The default budget: one task per pass, so input and frames always come first.
    public static let `default` = Budget.tasks(1)

    /// A description of why this budget is invalid, naming the parameter and its valid range; `nil` if valid.
    public var validationFailure: String? {
      switch self {
      case .tasks(let count) where count < 1:
        return "IdleWork: budget .tasks(\(count)) is invalid: the task count must be in 1...Int.max"
      case .milliseconds(let ms) where !(ms.isFinite && ms > 0):
        return "IdleWork: budget .milliseconds(\(ms)) is invalid: the duration must be finite and greater than 0"
      default:
        return nil
      }
    }

    /// A readable form, such as `.tasks(1)` or `.milliseconds(4.0)`.
    public var description: String {
      switch self {
      case .tasks(let count): return ".tasks(\(count))"
      case .milliseconds(let ms): return ".milliseconds(\(ms))"
      }
    }
  }
}
