/// Why ``IdleQueue/perform(key:discardable:_:)`` could not run its closure.
///
/// An awaiting caller is never left hanging: if the closure will never run, `perform` throws one of these
/// (or `CancellationError` when the awaiting task itself was cancelled). The two cases match the queue's
/// ``IdleQueue/Statistics``: a task leaves unrun as evicted or as cancelled.
public enum IdleWorkError: Error, Sendable, Hashable {
  /// The queue was over ``IdleQueue/maximumQueueLength`` and dropped the task (stale tasks go first, then
  /// those of cells off screen, then discardable ones, then the oldest).
  case evicted
  /// The task was cancelled through its key, ``IdleQueue/removeAllTasks()``,
  /// ``IdleQueue/dropDiscardableTasks()`` or a replacing addition, or its queue was invalidated (before
  /// it ran, or before `perform` was called).
  case cancelled
}
