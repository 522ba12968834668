extension IdleQueue {
  /// Counters describing everything a queue has done, so that no task is ever silently lost.
  ///
  /// Every task added ends as exactly one of executed, skipped as stale, evicted, cancelled or failed, or
  /// is still pending: `added == executed + skippedAsStale + evicted + cancelled + failed + pending` always
  /// holds.
  public struct Statistics: Sendable {
    /// Tasks accepted by the queue (background additions count once they reach the main thread), and
    /// prefetches (``IdleQueue/prefetch(_:with:)``) that started a preparation. A prefetch ends as executed when
    /// its result is kept in the cache or a task for the same content takes its preparation over, as cancelled
    /// (``IdleQueue/cancelPrefetching(_:with:)``, the queue's end, a memory warning), evicted (more prefetches
    /// pending than ``IdleQueue/maximumQueueLength``: the oldest goes) or failed (`prepare` threw).
    public internal(set) var added = 0
    /// Tasks that ran to completion (a resumable task counts once, when its last slice finishes).
    public internal(set) var executed = 0
    /// Invocations of task closures: one per plain task, one per slice of a resumable task.
    var slicesRun = 0
    /// Tasks dropped because their cell was gone or was configured again (another row, or new content) by
    /// their turn; a resumable task may have run some slices before.
    public internal(set) var skippedAsStale = 0
    /// Tasks dropped unrun because the queue was over ``IdleQueue/maximumQueueLength``, including tasks
    /// added from other threads that the hand-over dropped before they reached the queue.
    public internal(set) var evicted = 0
    /// Tasks dropped unrun by ``IdleQueue/cancelTasks(forKey:)``, a handle, ``IdleQueue/removeAllTasks()``,
    /// ``IdleQueue/invalidate()``, ``IdleQueue/dropDiscardableTasks()`` (also on a memory warning), a
    /// replacing addition (`replacesPending: true`) or a cancelled `perform`.
    public internal(set) var cancelled = 0
    /// Prepared tasks (``IdleQueue/addTask(key:content:discardable:estimatedCost:resultBytes:prepare:apply:)``)
    /// whose `prepare` threw: their `apply` never ran.
    public internal(set) var failed = 0
    /// Of ``skippedAsStale``, the prepared tasks whose preparation had finished when their cell was configured
    /// again or released. The others were dropped before it finished (most before it started, costing no work).
    public internal(set) var staleAfterPrepare = 0
    /// Preparations that finished but whose result no task applied (every task waiting for it had left:
    /// stale, evicted or cancelled): work done off the main thread for nothing. A prefetched result counts once
    /// it leaves the cache unused. A preparation dropped
    /// before it started, or that threw once `isCancelled()` turned `true`, is not counted (one that returned a
    /// value is).
    public internal(set) var wastedPreparations = 0
    /// Of ``executed``, the tasks applied at once from the result cache, inside the `addTask` call that added
    /// them (a row prefetched, or shown again, appears in its first frame); the others were applied in a pass.
    public internal(set) var cacheHits = 0
    /// Tasks still queued on the main thread (including those of cells off screen, which wait); tasks
    /// added from other threads count once they reach it.
    public internal(set) var pending = 0
    /// Idle passes in which this queue had work to offer.
    var passes = 0
    /// The longest time, in seconds, that this queue held the main thread in a single pass: its tasks
    /// plus the skipping of stale ones.
    public internal(set) var longestPassDuration: Double = 0

    /// Whether the accounting identity `added == executed + skippedAsStale + evicted + cancelled + failed +
    /// pending` holds.
    var isBalanced: Bool {
      added == executed + skippedAsStale + evicted + cancelled + failed + pending
    }

    /// A one-line summary for logs and test failures.
    var summary: String {
      "added \(added), executed \(executed) (\(slicesRun) slices), stale \(skippedAsStale), evicted \(evicted), "
        + "cancelled \(cancelled), failed \(failed), pending \(pending), passes \(passes), "
        + "longest pass \(longestPassDuration * 1000) ms"
    }
  }
}
