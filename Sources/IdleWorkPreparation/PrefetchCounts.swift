import IdleWork

/// How a queue's prefetches ended: each one added ends as exactly one of these, or is pending.
struct PrefetchCounts {
  var added = 0
  /// Its result was kept in the cache, or a task for the same content took its preparation over.
  var executed = 0
  var cancelled = 0
  /// More prefetches were pending than the queue's maximum length: the oldest went.
  var evicted = 0
  var failed = 0
}
