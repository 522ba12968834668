extension IdleQueue {
  /// Counters describing everything a queue has done, so that no task is ever silently lost.
  ///
  /// Every task added ends as exactly one of executed, skipped as stale, evicted or cancelled, or is still pending:
  /// `added == executed + skippedAsStale + evicted + cancelled + pending` always holds.
  public struct Statistics: Sendable {
    /// Tasks accepted by the queue (those added from other threads once they reach the main thread).
    public package(set) var added = 0
    /// Tasks that ran to completion (a resumable task counts once, when its last slice finishes).
    public package(set) var executed = 0
    /// Invocations of task closures: one per plain task, one per slice of a resumable task.
    var slicesRun = 0
    /// Tasks dropped because their cell was gone or was configured again (another row, or new content) by
    /// their turn; a resumable task may have run some slices before.
    public package(set) var skippedAsStale = 0
    /// Tasks dropped unrun because the queue was over its `maximumQueueLength`, including tasks
    /// added from other threads that were dropped before they reached the queue.
    public package(set) var evicted = 0
    /// Tasks dropped unrun by a cancel (by key, by handle, all, or a replacing addition), the queue's end or a memory
    /// warning.
    public package(set) var cancelled = 0
    /// Tasks still queued (those of cells off screen too).
    public package(set) var pending = 0
    /// Idle passes in which this queue had work to offer.
    var passes = 0
    /// The longest time, in seconds, that this queue held the main thread in a single pass: its tasks
    /// plus the skipping of stale ones.
    public package(set) var longestPassDuration: Double = 0

    /// Whether the accounting identity `added == executed + skippedAsStale + evicted + cancelled + pending` holds.
    package var isBalanced: Bool {
      added == executed + skippedAsStale + evicted + cancelled + pending
    }

    /// A one-line summary for logs and test failures.
    package var summary: String {
      "added \(added), executed \(executed) (\(slicesRun) slices), stale \(skippedAsStale), evicted \(evicted), "
        + "cancelled \(cancelled), pending \(pending), passes \(passes), "
        + "longest pass \(longestPassDuration * 1000) ms"
    }
  }
}
