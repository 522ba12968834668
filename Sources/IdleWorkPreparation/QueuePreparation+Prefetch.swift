import Foundation
import IdleWork

/// Prefetching: preparations started for rows about to appear, so the row's first `cellForRowAt` finds its
/// result cached, or joins the preparation under way.
///
/// A prefetch is a request on a preparation, not a task: it never evicts, delays or starves a visible row's task.
/// A task for the same content takes its preparation over (the prefetch ends as executed), and cancelling the
/// prefetch then leaves the preparation running.
///
/// **The rows about to appear win.** Rows a prefetch wants are ranked in the order they will appear: within a
/// call, the order given (nearest first); an older call's rows before a newer one's, since in a steady scroll they
/// appear first — until a row of a newer call is shown, which means the older calls' rows were passed (a fling
/// outran them), and they go last. Rows whose prefetch was cancelled go last too. The rank decides which prefetch a
/// worker starts, which ones go when they exceed the queue's length (the last ranked, counted evicted), and which
/// results the cache keeps (``ResultCache``). A prefetch whose result has no room in the cache without pushing out
/// one ranked before it waits, counted pending, until rows shown, cancelled or passed free room.
extension QueuePreparation {
  /// Prefetching keeps its results in the cache: a queue without one would prepare them for nothing.
  static func prefetchFailure(cacheLimit: Int) -> String? {
    cacheLimit > 0
      ? nil
      : "IdleWork: prefetch needs a result cache: resultCacheLimit is 0; set Preparer.Configuration.resultCacheLimit "
        + "(bytes, in 1...Int.max)"
  }

  /// What ``Preparer/prefetch(_:from:first:)`` does, for each input in the order given (the nearest first).
  func prefetch(
    _ items: [(key: PreparedContent, work: PreparationPlace)], sizing: (@Sendable (any Sendable) -> Int)?, first: Bool
  ) {
    guard !queue.isInvalidated else { return }
    if let failure = Self.prefetchFailure(cacheLimit: cache.limit) { fatalError(failure) }
    // Results that finished and were not taken in yet go to the cache first: they are not prepared again.
    if hasArrivals { takeInPreparedResults() }
    prefetchCalls += 1
    let call = prefetchCalls
    var asked = Set<PreparedContent>()
    // Places ahead of every prefetch asked for so far (the rows where a fling lands), or after them.
    var places = first ? Self.placesAhead(items.count) : nil
    func nextPlace() -> Int {
      guard let place = places else { return Self.nextPrefetchDistance() }
      places = place + 1
      return place
    }
    var new: [(key: PreparedContent, work: PreparationPlace, place: Int)] = []
    for item in items {
      let key = item.key
      // Given twice in this call (two rows showing one photo): its first place stands.
      guard asked.insert(key).inserted else { continue }
      let place = nextPlace()
      // Kept already: wanted again, from this call.
      if cache.want(key, call: call, place: place) { continue }
      if var pending = prefetches[key] {
        // Asked again: not passed any more, and it keeps its place in the pool's order (or takes a nearer one).
        if first { pending.want.place = min(pending.want.place, place) }
        pending.want.lastCall = call
        prefetches[key] = pending
        pending.run.line.setDistance(pending.run, pending.want.place, exactly: true)
        continue
      }
      prefetchCounts.prefetches += 1
      new.append((key, item.work, place))
    }
    // Past the queue's length the last ranked go: those of calls passed, then the farthest of the newest.
    let capacity = max(0, queue.maximumQueueLength)
    let overflow = prefetches.count + new.count - capacity
    if overflow > 0 {
      var ranked = prefetches.map { (rank: rank(of: $0.value), key: $0.key, isNew: false) }
      ranked += new.map { (rank: (0, $0.place), key: $0.key, isNew: true) }
      ranked.sort { $0.rank > $1.rank }
      var dropped = Set<PreparedContent>()
      for victim in ranked.prefix(overflow) {
        if victim.isNew {
          dropped.insert(victim.key)
          prefetchCounts.prefetchesEvicted += 1
        } else if let pending = prefetches[victim.key] {
          count(endPrefetch(of: pending.run, key: victim.key), otherwise: \.prefetchesEvicted)
        }
      }
      new.removeAll { dropped.contains($0.key) }
    }
    for item in new { start(item.key, item.work, place: item.place, call: call, sizing: sizing) }
    noteCacheRoom()
    // Main-thread prefetches run in passes.
    if mainLine.pool.hasStartableWork(of: mainLine) { queue.scheduler.setNeedsPass() }
  }

  /// Starts a prefetch of `key`: joins a preparation under way for a task, or submits a new one.
  private func start(
    _ key: PreparedContent, _ work: PreparationPlace, place: Int, call: UInt64,
    sizing: (@Sendable (any Sendable) -> Int)?
  ) {
    let run: PreparationRun
    if let shared = inFlight[key], shared.line.isJoinable(shared) {
      // Being prepared for a task already: the prefetch keeps it wanted while that task's cell is off screen.
      run = shared
      run.adoptResultBytes(sizing, for: nil)
      run.line.setDistance(run, place)
      run.isPrefetched = true
      run.line.adjust(run, live: 1, wanted: 1)
    } else {
      run = PreparationRun(line: line(for: work), content: key, resultBytes: sizing, prepare: work)
      run.isPrefetched = true
      run.life = PreparationLife(requests: .init(live: 1, wanted: 1))
      run.distance = place
      noteNewRun(for: key)
      inFlight[key] = run
      run.line.submit(run)
    }
    run.wasPrefetched = true
    prefetches[key] = PendingPrefetch(
      run: run, want: ResultCache.Want(firstCall: call, lastCall: call, place: place))
  }

  /// A pending prefetch's rank among the rows about to appear: larger goes first. Calls passed rank after every
  /// other call.
  private func rank(of pending: PendingPrefetch) -> (Int, Int) {
    (pending.want.lastCall < callsPassedBefore ? 1 : 0, pending.want.place)
  }

  /// How far a passed prefetch moves back in the pool's order: past every place a process gives.
  static let passedOffset = 1 << 48

  /// The prefetches asked for so far, in every queue: each one's place in the pool's order. UIKit asks for the
  /// nearest rows first, so this one process-wide sequence is nearest first.
  private static var prefetchesAsked = 0

  private static func nextPrefetchDistance() -> Int {
    prefetchesAsked += 1
    return prefetchesAsked
  }

  /// The first of `count` places before every place given so far, for a call that goes first: the latest such call
  /// goes before earlier ones.
  private static var firstPlace = 0

  private static func placesAhead(_ count: Int) -> Int {
    firstPlace -= count
    return firstPlace
  }

  /// A row that a prefetch of `call` asked for is shown: the rows of every earlier call were passed. Their pending
  /// prefetches start after every other, and their kept results are the next to go.
  func rowShown(fromCall call: UInt64) {
    guard call > callsPassedBefore else { return }
    callsPassedBefore = call
    cache.unwantCalls(before: call)
    for pending in prefetches.values where pending.want.lastCall < call {
      pending.run.line.setDistance(pending.run, pending.want.place + Self.passedOffset, exactly: true)
    }
    noteCacheRoom()
  }

  /// What `IdleQueue.cancelPrefetching(_:with:)` does: each pending prefetch ends as cancelled, or as executed if
  /// its preparation finished (the result is kept, as the next to go).
  func cancelPrefetching(_ keys: [PreparedContent]) {
    for key in keys {
      cache.unwant(key)
      guard let run = prefetches[key]?.run else { continue }
      count(endPrefetch(of: run, key: key), otherwise: \.prefetchesCancelled)
    }
    noteCacheRoom()
  }

  /// A task for `key` joined `run`: its pending prefetch, if any, ends as executed — the task's now.
  func prefetchTakenOver(_ run: PreparationRun, key: PreparedContent) {
    guard run.isPrefetched, let pending = prefetches[key], pending.run === run else { return }
    rowShown(fromCall: pending.want.firstCall)
    endPrefetch(of: run, key: key)
    prefetchCounts.prefetchesKept += 1
  }

  /// How a preparation's result is kept when it arrives with no task waiting: wanted, if a prefetch not passed still
  /// waits for it; the next to go, if its prefetch ended (cancelled or passed); awaited, if it is held for a row whose
  /// task just left (``QueuePreparation/abandoned(_:)``).
  func keeping(forArrivalOf run: PreparationRun) -> ResultCache.Keeping {
    guard let key = run.content, let pending = prefetches[key], pending.run === run else {
      return held.contains { $0 === run } ? .awaited : .unwanted
    }
    return pending.want.lastCall < callsPassedBefore ? .unwanted : .wanted(pending.want)
  }

  /// A preparation's outcome arrived: its pending prefetch ends as executed (the result is in the cache) or failed.
  func prefetchArrived(_ run: PreparationRun, succeeded: Bool) {
    guard run.isPrefetched, let key = run.content, prefetches[key]?.run === run else { return }
    prefetches[key] = nil
    run.isPrefetched = false
    if succeeded { prefetchCounts.prefetchesKept += 1 } else { prefetchCounts.prefetchesFailed += 1 }
  }

  /// Ends every pending prefetch as cancelled (the queue's end, a memory warning).
  func cancelAllPrefetches() {
    guard !prefetches.isEmpty else { return }
    cancelPrefetching(Array(prefetches.keys))
  }

  /// Tells both lines how much room the cache has for prefetched results (``ResultCache/prefetchRoom``), each less
  /// what the other has on its way; asks for a pass if a main-thread prefetch may start now and could not before.
  func noteCacheRoom() {
    guard !isTakingIn else { return }  // the take-in tells it once its results are in the cache
    let (before, nearest) = cache.roomBeforeWanted
    let free = cache.prefetchRoom
    for (this, other) in [(line, mainLine), (mainLine, line)] {
      let otherBytes = other.bytesOnTheirWay
      this.noteCache(
        PreparationLine.CacheRoom(
          free: max(0, free - otherBytes), freeBefore: max(0, before - otherBytes), nearestWanted: nearest,
          whole: cache.room))
    }
    let startable = mainLine.pool.hasStartableWork(of: mainLine)
    if startable, !mainThreadWorkWasStartable, !queue.isInPass { queue.scheduler.setNeedsPass() }
    mainThreadWorkWasStartable = startable
  }

  /// Counts a prefetch that ended: executed if its preparation had finished with a value (kept for later), failed if
  /// with an error, else as `otherwise` (cancelled, evicted) — whether or not a pass took the outcome in first.
  private func count(_ finished: PreparationRun.Arrival, otherwise: WritableKeyPath<Preparer.Statistics, Int>) {
    switch finished {
    case .value: prefetchCounts.prefetchesKept += 1
    case .error: prefetchCounts.prefetchesFailed += 1
    case .none: prefetchCounts[keyPath: otherwise] += 1
    }
  }

  /// Takes the prefetch's request out of its preparation; returns how the preparation had finished, if it had: with a
  /// value (kept for later all the same) or an error.
  @discardableResult
  private func endPrefetch(of run: PreparationRun, key: PreparedContent) -> PreparationRun.Arrival {
    prefetches[key] = nil
    run.isPrefetched = false
    run.line.forgetDistance(run)
    let finished = run.line.adjust(run, live: -1, wanted: -1)
    if !run.hasLiveRequests, inFlight[key] === run,
      !held.contains(where: { $0 === run })
    {
      inFlight[key] = nil
    }
    return finished
  }
}
