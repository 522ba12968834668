/// Refers to one queued task, to cancel it or ask whether it is still pending.
///
/// Holds its queue weakly: keeping a handle keeps neither the queue nor the task alive.
@MainActor
public struct IdleTaskHandle {
  /// The queue's number in ``QueueDirectory`` (0: none): a number, not a reference, so that making and
  /// dropping a handle touches no reference count.
  let queueNumber: Int
  let seq: UInt64

  var queue: QueueCore? { queueNumber == 0 ? nil : QueueDirectory.shared.queue(queueNumber) }

  /// Whether the task is still queued (it has not run, been skipped, evicted or cancelled).
  /// A resumable task between slices is pending.
  public var isPending: Bool { queue?.list.contains(seq) ?? false }

  /// Cancels the task if it is still pending; returns whether it was.
  @discardableResult
  public func cancel() -> Bool {
    guard let queue, let removal = queue.list.cancel(seq) else { return false }
    queue.release([removal])
    return true
  }
}
