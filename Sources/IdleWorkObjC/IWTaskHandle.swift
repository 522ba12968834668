#if canImport(ObjectiveC)
  import Foundation
  import IdleWork
  import IdleWorkPreparation

  /// Refers to one queued task (`IdleTaskHandle`): cancels it or tells whether it is pending. Holds its queue
  /// weakly.
  @objc(IWTaskHandle)
  @MainActor
  public final class IWTaskHandle: NSObject {
    private let handle: IdleTaskHandle

    init(_ handle: IdleTaskHandle) {
      self.handle = handle
      super.init()
    }

    /// Whether the task is still queued (not yet run, skipped, evicted or cancelled).
    @objc public var isPending: Bool { handle.isPending }

    /// Cancels the task if it is still pending; returns whether it was.
    @objc @discardableResult
    public func cancel() -> Bool {
      handle.cancel()
    }
  }

  /// What a queue has done so far (`IdleQueue.Statistics`): `added == executed + skippedAsStale + evicted +
  /// cancelled + failed + pending`.
  @objc(IWStatistics)
  public final class IWStatistics: NSObject {
    /// Tasks added, and prefetches started.
    @objc public let added: Int
    /// Tasks that ran.
    @objc public let executed: Int
    /// Cell tasks skipped because their cell showed another row.
    @objc public let skippedAsStale: Int
    /// Tasks and prefetches dropped unrun because the queue was full.
    @objc public let evicted: Int
    /// Tasks and prefetches cancelled.
    @objc public let cancelled: Int
    /// Prepared tasks and prefetches whose preparation failed (returned `nil`).
    @objc public let failed: Int
    /// Tasks and prefetches pending.
    @objc public let pending: Int
    /// Preparations that finished but whose result nothing applied.
    @objc public let wastedPreparations: Int
    /// Prepared tasks applied at once from the result cache.
    @objc public let cacheHits: Int
    /// The longest time, in seconds, the queue held the main thread in one pass.
    @objc public let longestPassDuration: TimeInterval

    init(_ statistics: IdleQueue.Statistics) {
      added = statistics.added
      executed = statistics.executed
      skippedAsStale = statistics.skippedAsStale
      evicted = statistics.evicted
      cancelled = statistics.cancelled
      failed = statistics.failed
      pending = statistics.pending
      wastedPreparations = statistics.wastedPreparations
      cacheHits = statistics.cacheHits
      longestPassDuration = statistics.longestPassDuration
      super.init()
    }
  }
#endif
