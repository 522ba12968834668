/// Refers to one queued task, to cancel it or ask whether it is still pending.
///
/// Holds its queue weakly: keeping a handle keeps neither the queue nor the task alive.
@MainActor
public struct IdleTaskHandle {
  /// The queue the task was added to; `nil` once it is freed, or when nothing was queued.
  weak var queue: QueueCore?
  let seq: UInt64

  package init(queue: QueueCore?, seq: UInt64) {
    self.queue = queue
    self.seq = seq
  }

  /// Whether the task is still queued (it has not run, been skipped, evicted or cancelled); a resumable task
  /// between slices is.
  public var isPending: Bool { queue?.list.contains(seq) ?? false }

  /// Cancels the task if it is still pending; returns whether it was.
  @discardableResult
  public func cancel() -> Bool {
    guard let queue, let removal = queue.list.cancel(seq) else { return false }
    queue.release([removal])
    return true
  }
}
