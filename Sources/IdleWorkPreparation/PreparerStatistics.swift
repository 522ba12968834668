extension Preparer {
  /// What preparation did for a queue, beside the queue's own counts (`IdleQueue.statistics`), where each
  /// prepared task counts once, as a task.
  ///
  /// Every prefetch added ends as exactly one of kept, cancelled, evicted or failed, or is pending:
  /// `prefetches == prefetchesKept + prefetchesCancelled + prefetchesEvicted + prefetchesFailed + prefetchesPending`
  /// always holds.
  public struct Statistics: Sendable {
    /// Prepared tasks whose preparation threw: each left the queue unrun, counted cancelled there.
    public internal(set) var failed = 0
    /// Prepared tasks applied at once from the result cache, inside the `addTask` call: never queued, so not in the
    /// queue's counts.
    public internal(set) var cacheHits = 0
    /// Preparations that finished but whose result nothing applied: work done off the main thread for nothing. A
    /// result kept in the cache for later counts once it leaves the cache unused.
    public internal(set) var wastedPreparations = 0
    /// Results made for an input that another ``Preparation`` of the same input and value types had made (and the
    /// cache still keeps) or was making. A preparation made anew on each use (inline in `cellForRowAt`, a computed
    /// property) shares nothing with its prefetch and counts here for every row: store it, or give it an identifier
    /// (``Preparation/identified(by:)``). Two preparations that truly differ without identifiers (a factory's two
    /// sizes) count here too; those with identifiers never do.
    public internal(set) var duplicatePreparations = 0
    /// Prefetches that started or joined a preparation (an input already kept, or asked for again while pending,
    /// adds none).
    public internal(set) var prefetches = 0
    /// Of ``prefetches``: those whose result was kept in the cache, or whose preparation a row's task took over.
    public internal(set) var prefetchesKept = 0
    /// Of ``prefetches``: cancelled (``Preparer/cancelPrefetching(_:from:)``, the queue's `cancelAllTasks()`, its
    /// end, or a memory warning) before their result was kept.
    public internal(set) var prefetchesCancelled = 0
    /// Of ``prefetches``: more were pending than the queue's `maximumQueueLength`, and these were ranked last.
    public internal(set) var prefetchesEvicted = 0
    /// Of ``prefetches``: their preparation threw.
    public internal(set) var prefetchesFailed = 0
    /// Of ``prefetches``: still pending.
    public internal(set) var prefetchesPending = 0

    /// Whether the prefetches' accounting identity holds.
    var isBalanced: Bool {
      prefetches == prefetchesKept + prefetchesCancelled + prefetchesEvicted + prefetchesFailed + prefetchesPending
    }
  }
}
