extension IdleQueue {
  /// Counters describing everything a queue has done, so that no task is ever silently lost.
  ///
  /// Every task added ends as exactly one of executed, skipped as stale, evicted, cancelled or failed, or
  /// is still pending: `added == executed + skippedAsStale + evicted + cancelled + failed + pending` always
  /// holds.
  public struct Statistics: Sendable {
    /// Tasks accepted by the queue (those added from other threads once they reach the main thread), and
    /// prefetches that started or joined a preparation.
    public package(set) var added = 0
    /// Tasks that ran to completion (a resumable task counts once, when its last slice finishes).
    public package(set) var executed = 0
    /// Invocations of task closures: one per plain task, one per slice of a resumable task.
    var slicesRun = 0
    /// Tasks dropped because their cell was gone or was configured again (another row, or new content) by
    /// their turn; a resumable task may have run some slices before.
    public package(set) var skippedAsStale = 0
    /// Tasks and prefetches dropped unrun because the queue was over its `maximumQueueLength`, including tasks
    /// added from other threads that were dropped before they reached the queue.
    public package(set) var evicted = 0
    /// Tasks and prefetches dropped unrun by a cancel (by key, by handle, all, or a replacing addition), the
    /// queue's end or a memory warning. A prefetch whose result was kept counts executed, whenever a cancel comes.
    public package(set) var cancelled = 0
    /// Prepared tasks and prefetches whose preparation threw.
    public package(set) var failed = 0
    /// Of ``skippedAsStale``, the prepared tasks whose preparation had finished when their cell was configured
    /// again or released. The others were dropped before it finished (most before it started, costing no work).
    package var staleAfterPrepare = 0
    /// Preparations that finished but whose result nothing applied: work done off the main thread for nothing. A
    /// result kept in the cache for later counts once it leaves the cache unused.
    public package(set) var wastedPreparations = 0
    /// Of ``executed``, the tasks applied at once from the result cache, inside the `addTask` call that added them.
    public package(set) var cacheHits = 0
    /// Results made for an input that another ``Preparation`` of the same input and value types had made (and the
    /// cache still keeps) or was making. A preparation made anew on each use (inline in `cellForRowAt`, a computed
    /// property) shares nothing with its prefetch and counts here for every row: store it, or give it an identifier
    /// (``Preparation/identified(by:)``). Two preparations that truly differ without identifiers (a factory's two
    /// sizes) count here too; those with identifiers never do.
    public package(set) var duplicatePreparations = 0
    /// Tasks still queued (those of cells off screen too) and prefetches still pending.
    public package(set) var pending = 0
    /// Idle passes in which this queue had work to offer.
    var passes = 0
    /// The longest time, in seconds, that this queue held the main thread in a single pass: its tasks
    /// plus the skipping of stale ones.
    public package(set) var longestPassDuration: Double = 0

    /// Whether the accounting identity `added == executed + skippedAsStale + evicted + cancelled + failed +
    /// pending` holds.
    package var isBalanced: Bool {
      added == executed + skippedAsStale + evicted + cancelled + failed + pending
    }

    /// A one-line summary for logs and test failures.
    package var summary: String {
      "added \(added), executed \(executed) (\(slicesRun) slices), stale \(skippedAsStale), evicted \(evicted), "
        + "cancelled \(cancelled), failed \(failed), pending \(pending), passes \(passes), "
        + "longest pass \(longestPassDuration * 1000) ms"
    }
  }
}
