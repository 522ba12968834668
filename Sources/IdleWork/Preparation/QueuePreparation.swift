import Foundation

/// A queue's off-main-thread half, made with its first prepared task: its line into the worker pool, the
/// result cache, the renders in flight by content (for sharing) and the counts that the queue's statistics add.
@MainActor
final class QueuePreparation {
  let line: RenderLine
  let cache: ResultCache
  /// Renders that have not finished, by content: a task for the same content joins one of these.
  var inFlight: [PreparedContent: Render] = [:]
  /// Stale tasks whose result had arrived (see ``IdleQueue/Statistics/staleAfterPrepare``).
  var staleAfterPrepare = 0
  /// Renders finished and applied by no task (see ``IdleQueue/Statistics/wastedPreparations``).
  var wasted = 0
  /// Renders kept joinable for a moment after a new configuration of their cell took their last request, so a
  /// reload of the row with the same content joins the running render (see `QueueCore.preparedDetached`).
  var held: [Render] = []
  /// Whether a release of ``held`` is on its way to the main queue.
  var releaseOfHeldPending = false
  /// The pending prefetch of each content, with its serial, and the prefetches in the order asked for, with their
  /// call (an entry whose prefetch ended, or was asked for again, is skipped).
  var prefetches: [PreparedContent: (render: Render, serial: UInt64)] = [:]
  var prefetchOrder: [(key: PreparedContent, serial: UInt64, call: UInt64)] = []
  var prefetchCalls: UInt64 = 0
  var prefetchOrderHead = 0
  var nextPrefetchSerial: UInt64 = 0
  /// How prefetches ended (see ``IdleQueue/Statistics-swift.struct/added``).
  var prefetchCounts = PrefetchCounts()
  var cacheHits = 0

  init(line: RenderLine, cacheLimit: Int) {
    self.line = line
    // Room for two results per worker: one being prepared, one finished and waiting for a pass.
    let (reserved, overflow) = line.limit.multipliedReportingOverflow(by: 2)
    self.cache = ResultCache(limit: cacheLimit, reservedResults: overflow ? Int.max : reserved)
  }
}

/// A prepared task's content key together with the type of its value (see `IdleQueue.contentKey`), and the
/// ``Preparation`` that makes it (0 for a task that gives its own `prepare` closure).
struct PreparedContent: Hashable {
  let valueType: ObjectIdentifier
  let content: AnyHashable
  var work: UInt64 = 0
}
