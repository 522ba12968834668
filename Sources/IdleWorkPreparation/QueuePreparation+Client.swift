import Foundation
import IdleWork

/// What the preparation half does for its queue's life: the queue's end, the statistics, and the client hooks the
/// queue calls (``LaterWorkClient``).
extension QueuePreparation {
  /// Ends the preparation half: preparations not started are dropped, results not taken in are released here
  /// (on the main thread) and workers end.
  func queueEnded() {
    releaseHeldRuns()
    cancelAllPrefetches()
    let closed = line.close()
    let closedMain = mainLine.close()
    // Main-thread work under way has no worker to finish it: it ends here, and what its slices captured goes.
    mainThreadRun = nil
    passedOverRuns = []
    let underWay = mainLine.pool.endAllByHand(of: mainLine)
    for run in underWay + closedMain.dropped.compactMap({ $0 as? PreparationRun }) { run.endMainThreadWork() }
    for (run, outcome) in closed.arrivals + closedMain.arrivals {
      if case .success = outcome { run.arrival = .value } else { run.arrival = .error }
      settleIfDone(run)
    }
    withExtendedLifetime((closed, closedMain)) {}  // released here, on the main thread, outside the pool's lock
    cache.removeAll()
    inFlight = [:]
  }

  /// Whether a result is being prepared for a task that wants it (its cell on screen, or none).
  var isAwaitingResults: Bool { line.isPreparing }

  /// What ``Preparer/statistics`` says.
  var statistics: Preparer.Statistics {
    var statistics = prefetchCounts
    statistics.failed = failed
    statistics.wastedPreparations = wasted + cache.unusedPrefetchesDropped
    statistics.cacheHits = cacheHits
    statistics.duplicatePreparations = duplicates
    statistics.prefetchesPending = prefetches.count
    return statistics
  }
}

extension QueuePreparation: LaterWorkClient {
  var hasArrivals: Bool { line.hasArrivals || mainLine.hasArrivals }

  func takeInArrivals() { takeInPreparedResults() }

  func passEnded() {
    passedOverRuns = []
    mainThreadRun = nil
    releaseHeldRuns()
  }

  func cancelAll() { cancelAllPrefetches() }

  func trackingPass(framesAreTight: Bool) { line.pool.noteTracking(framesAreTight: framesAreTight) }

  func dropOnMemoryWarning() -> Int {
    let pending = prefetches.count
    cancelAllPrefetches()
    cache.removeAll()
    return pending
  }
}
