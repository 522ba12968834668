/// Why ``IdleQueue/perform(key:discardable:_:)`` could not run its closure.
///
/// An awaiting caller is never left hanging: if the closure will never run, `perform` throws one of these
/// (or `CancellationError` when the awaiting task itself was cancelled).
public enum IdleWorkError: Error, Sendable, Hashable {
  /// The queue was over ``IdleQueue/maximumQueueLength`` and the task was the oldest.
  case evicted
  /// The task was cancelled through its key, ``IdleQueue/removeAllTasks()`` or a memory-pressure purge.
  case cancelled
  /// The queue was invalidated before the task ran (or before `perform` was called).
  case invalidated
}
