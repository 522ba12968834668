import Foundation

extension Preparer {
  /// A queue's workers and result cache, as one value.
  public struct Configuration: Sendable {
    /// The queue's preparations running at once on the process's one worker pool, in `1...Int.max`; default the
    /// active cores, at most 6. The pool runs as many at once as the largest `workers` of the queues using it.
    public var workers: Int
    /// Bytes of prepared results kept by their input, so that a row prefetched, shown again or reloaded unchanged
    /// applies at once: rows a prefetch still wants over the rest, the rest least recently used first out; all go
    /// on a memory warning. In `0...Int.max`; default 32 MB; `0` keeps none (and then prefetching stops the program
    /// with a message).
    public var resultCacheLimit: Int

    /// Creates a configuration; the defaults suit a feed. Invalid values stop the program, when a ``Preparer`` is
    /// made with it, with a message naming the parameter and its range.
    public init(workers: Int = Configuration.defaultWorkers, resultCacheLimit: Int = 32 << 20) {
      self.workers = workers
      self.resultCacheLimit = resultCacheLimit
    }

    /// The default ``workers``: the active cores, within 1...6.
    @usableFromInline static var defaultWorkers: Int {
      min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 6)
    }

    /// Whether `other` sets the same workers and cache.
    func isSame(as other: Configuration) -> Bool {
      workers == other.workers && resultCacheLimit == other.resultCacheLimit
    }

    /// What is wrong with this configuration, naming the parameter and its valid range; `nil` if nothing.
    var failure: String? {
      if workers < 1 {
        return "IdleWork: workers \(workers) is invalid: it must be in 1...Int.max (worker threads)"
      }
      if resultCacheLimit < 0 {
        return "IdleWork: resultCacheLimit \(resultCacheLimit) is invalid: it must be in 0...Int.max (bytes; 0 keeps "
          + "none)"
      }
      return nil
    }
  }
}
