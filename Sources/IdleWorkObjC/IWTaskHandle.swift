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
  /// cancelled + pending`.
  @objc(IWStatistics)
  public final class IWStatistics: NSObject {
    /// Tasks added.
    @objc public let added: Int
    /// Tasks that ran.
    @objc public let executed: Int
    /// Cell tasks skipped because their cell showed another row.
    @objc public let skippedAsStale: Int
    /// Tasks dropped unrun because the queue was full.
    @objc public let evicted: Int
    /// Tasks cancelled (prepared tasks whose preparation failed among them).
    @objc public let cancelled: Int
    /// Tasks pending.
    @objc public let pending: Int
    /// The longest time, in seconds, the queue held the main thread in one pass.
    @objc public let longestPassDuration: TimeInterval

    init(_ statistics: IdleQueue.Statistics) {
      added = statistics.added
      executed = statistics.executed
      skippedAsStale = statistics.skippedAsStale
      evicted = statistics.evicted
      cancelled = statistics.cancelled
      pending = statistics.pending
      longestPassDuration = statistics.longestPassDuration
      super.init()
    }
  }
#endif
