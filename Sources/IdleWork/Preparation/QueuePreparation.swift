import Foundation

/// A queue's preparation half, the client of its later tasks (``LaterWork``), made with its first prepared task or
/// prefetch: its line into the worker pool, the result cache, the renders in flight by input (for sharing), the
/// prefetches and the counts the queue's statistics add. It reaches the queue only through what a client of later
/// tasks uses: enqueueing them, skipping them as stale, failing them, recording cache hits.
@MainActor
final class QueuePreparation {
  /// The queue it serves, which owns it.
  unowned let queue: QueueCore
  /// Its line into the worker pool, and the line of its main-thread renders, which its passes run.
  let line: PreparationLine
  let mainLine: PreparationLine
  /// The main-thread render the pass picked, whose slices it runs.
  var mainThreadRender: PreparationRun?
  /// What a slice of each main-thread preparation costs (moving average, nanoseconds), and whose slice ran last:
  /// a prefetch is admitted by its own preparation's cost, never by another's.
  var sliceCosts: [PreparationIdentity: UInt64] = [:]
  var lastSliceIdentity: PreparationIdentity?
  let cache: ResultCache
  /// Renders that have not finished, by content: a task for the same content joins one of these.
  var inFlight: [PreparedContent: PreparationRun] = [:]
  /// Stale tasks whose result had arrived (see ``IdleQueue/Statistics/staleAfterPrepare``).
  var staleAfterPrepare = 0
  /// Renders finished and applied by no task (see ``IdleQueue/Statistics/wastedPreparations``).
  var wasted = 0
  /// Renders kept joinable for a moment after a new configuration of their cell took their last request, so a
  /// reload of the row with the same content joins the running render (see ``detached(_:)``).
  var held: [PreparationRun] = []
  /// Whether a release of ``held`` is on its way to the main queue.
  var releaseOfHeldPending = false
  /// The pending prefetch of each content, with its serial, and the prefetches in the order asked for, with their
  /// call (an entry whose prefetch ended, or was asked for again, is skipped).
  var prefetches: [PreparedContent: (render: PreparationRun, serial: UInt64)] = [:]
  var prefetchOrder: [(key: PreparedContent, serial: UInt64, call: UInt64)] = []
  var prefetchCalls: UInt64 = 0
  var prefetchOrderHead = 0
  var nextPrefetchSerial: UInt64 = 0
  /// How prefetches ended (see ``IdleQueue/Statistics-swift.struct/added``).
  var prefetchCounts = PrefetchCounts()
  var cacheHits = 0

  init(queue: QueueCore, pool: WorkerPool) {
    self.queue = queue
    let cacheLimit = queue.cacheLimit
    let line = PreparationLine(
      pool: pool, limit: queue.workerLimit, measuresResults: cacheLimit > 0, wake: queue.scheduler.waker,
      checkCells: { [weak queue] render in
        MainActor.assumeIsolated { (queue?.client as? QueuePreparation)?.dropReleasedCells(of: render) }
      })
    self.line = line
    // Main-thread renders begun and not finished at most: a visible row's may begin while others wait mid-way.
    mainLine = PreparationLine(
      pool: WorkerPool(byHand: true), limit: 16, measuresResults: false, wake: queue.scheduler.waker,
      checkCells: { _ in })
    // Room for two results per worker: one being prepared, one finished and waiting for a pass.
    let (reserved, overflow) = line.limit.multipliedReportingOverflow(by: 2)
    self.cache = ResultCache(limit: cacheLimit, reservedResults: overflow ? Int.max : reserved)
  }
}

extension QueuePreparation {
  /// The line a render with `work` goes to.
  func line(for work: RenderWork) -> PreparationLine {
    if case .mainThread = work { return mainLine }
    return line
  }
}

/// A prepared task's content key together with the type of its value (see `IdleQueue.contentKey`), and the
/// ``Preparation`` that makes it.
struct PreparedContent: Hashable {
  let valueType: ObjectIdentifier
  let content: AnyHashable
  var work = PreparationIdentity.serial(0)
}
