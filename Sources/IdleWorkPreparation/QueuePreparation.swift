import Foundation
import IdleWork

/// A queue's preparation half, the client of its later tasks (``LaterWork``), made with its first prepared task or
/// prefetch: its line into the worker pool, the result cache, the preparations in flight by input (for sharing), the
/// prefetches and the counts the queue's statistics add. It reaches the queue only through what a client of later
/// tasks uses: enqueueing them, skipping them as stale, failing them, recording cache hits.
@MainActor
final class QueuePreparation {
  /// The queue it serves, which owns it.
  unowned let queue: QueueCore
  /// Its line into the worker pool, and the line of its main-thread preparations, which its passes run.
  let line: PreparationLine
  let mainLine: PreparationLine
  /// The main-thread preparation the pass picked, whose slices it runs.
  var mainThreadRun: PreparationRun?
  /// Main-thread preparations the pass did not admit since its search last ran something: the next pick passes them by.
  var passedOverRuns: [PreparationRun] = []

  /// What a slice of each main-thread preparation costs (moving average, nanoseconds), and whose slice ran last:
  /// a prefetch is admitted by its own preparation's cost, never by another's.
  var sliceCosts: [PreparationIdentity: UInt64] = [:]
  var lastSliceIdentity: PreparationIdentity?
  let cache: ResultCache
  /// Preparations that have not finished, by content: a task for the same content joins one of these.
  var inFlight: [PreparedContent: PreparationRun] = [:]
  /// Preparations finished and applied by no task (see ``Preparer/Statistics-swift.struct/wastedPreparations``).
  var wasted = 0
  /// Prepared tasks whose preparation threw (see ``Preparer/Statistics-swift.struct/failed``).
  var failed = 0
  /// Preparations kept joinable for a moment after a new configuration of their cell took their last request, so a
  /// reload of the row with the same content joins the running preparation (see ``abandoned(_:)``).
  var held: [PreparationRun] = []
  /// Whether a release of ``held`` is on its way to the main queue.
  var releaseOfHeldPending = false
  /// Whether main-thread work could start at the last ``noteCacheRoom()``: a pass is asked for when it becomes so.
  var mainThreadWorkWasStartable = false
  /// Whether results are being taken in (``takeInPreparedResults()``): the cache's room is not told meanwhile.
  var isTakingIn = false
  /// The pending prefetch of each content (see ``PendingPrefetch``).
  var prefetches: [PreparedContent: PendingPrefetch] = [:]
  /// Prefetch calls so far: each call's number.
  var prefetchCalls: UInt64 = 0
  /// The rows of every prefetch call before this one were passed: a row of this call was shown.
  var callsPassedBefore: UInt64 = 0
  /// How prefetches ended (see ``Preparer/Statistics-swift.struct/prefetches``).
  var prefetchCounts = Preparer.Statistics()
  var cacheHits = 0
  /// See ``Preparer/Statistics-swift.struct/duplicatePreparations``.
  var duplicates = 0
  /// The unnamed preparation that last made each input (keyed by its content without the preparation), while its
  /// result is in flight or kept: a new preparation looks there for another's result.
  var makers: [PreparedContent: PreparationIdentity] = [:]

  /// What it was made with: every ``Preparer`` of the queue must agree.
  let configuration: Preparer.Configuration

  init(queue: QueueCore, pool: WorkerPool, configuration: Preparer.Configuration) {
    self.queue = queue
    self.configuration = configuration
    let cacheLimit = configuration.resultCacheLimit
    let line = PreparationLine(
      pool: pool, limit: configuration.workers, measuresResults: cacheLimit > 0, wake: queue.scheduler.waker,
      checkCells: { [weak queue] run in
        MainActor.assumeIsolated { (queue?.client as? QueuePreparation)?.dropReleasedCells(of: run) }
      })
    self.line = line
    // Main-thread preparations begun and not finished at most: a visible row's may begin while others wait mid-way.
    mainLine = PreparationLine(
      pool: WorkerPool(byHand: true), limit: 16, measuresResults: false, wake: queue.scheduler.waker,
      checkCells: { _ in })
    // Room for two results per worker: one being prepared, one finished and waiting for a pass.
    let (reserved, overflow) = line.limit.multipliedReportingOverflow(by: 2)
    self.cache = ResultCache(limit: cacheLimit, reservedResults: overflow ? Int.max : reserved)
  }
}

extension QueuePreparation {
  /// A preparation starts for `key`: counted a duplicate if another unnamed preparation of the same types made this
  /// input and its result is kept, or is making it now.
  func noteNewRun(for key: PreparedContent) {
    guard !key.work.isNamed else { return }
    let input = key.made(by: .instance(0))
    if let other = makers[input], other != key.work, isMadeOrKept(key.made(by: other)) { duplicates += 1 }
    makers[input] = key.work
    // Entries whose result went: dropped once they are most of the index, at amortised O(1) per preparation.
    if makers.count > 64, makers.count > 2 * (inFlight.count + cache.count) {
      makers = makers.filter { isMadeOrKept($0.key.made(by: $0.value)) }
    }
  }

  private func isMadeOrKept(_ key: PreparedContent) -> Bool { inFlight[key] != nil || cache.contains(key) }

  /// The line a preparation with `work` goes to.
  func line(for work: PreparationPlace) -> PreparationLine {
    if case .mainThread = work { return mainLine }
    return line
  }
}

/// A prefetch not yet ended: its preparation, and the calls that asked for it with its place in the order rows will
/// appear (smaller is sooner; the pool's order among prefetches).
struct PendingPrefetch {
  let run: PreparationRun
  var want: ResultCache.Want
}

/// A prepared task's content key: its input, with the input's and the value's types (inputs of different types
/// never share, even where their `AnyHashable`s are equal), and the ``Preparation`` that makes it.
struct PreparedContent: Hashable {
  var inputType = ObjectIdentifier(Never.self)
  let valueType: ObjectIdentifier
  let content: AnyHashable
  var work = PreparationIdentity.instance(0)

  /// The key of the same input made by `work`.
  func made(by work: PreparationIdentity) -> PreparedContent {
    var key = self
    key.work = work
    return key
  }
}
