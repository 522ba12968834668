import Foundation

/// A queue's off-main-thread half, made with its first prepared task: the worker pool, the result cache,
/// the renders in flight by content (for sharing) and the counts that the queue's statistics add.
@MainActor
final class Preparation {
  let pool: WorkerPool
  let cache: ResultCache
  /// Renders that have not finished, by content: a task for the same content joins one of these.
  var inFlight: [PreparedContent: Render] = [:]
  /// Stale tasks whose result had arrived (see ``IdleQueue/Statistics/staleAfterPrepare``).
  var staleAfterPrepare = 0
  /// Renders finished and applied by no task (see ``IdleQueue/Statistics/wastedPreparations``).
  var wasted = 0

  init(pool: WorkerPool, cacheLimit: Int) {
    self.pool = pool
    self.cache = ResultCache(limit: cacheLimit)
  }
}

/// A prepared task's content key together with the type of its value (see `IdleQueue.contentKey`).
struct PreparedContent: Hashable {
  let valueType: ObjectIdentifier
  let content: AnyHashable
}
