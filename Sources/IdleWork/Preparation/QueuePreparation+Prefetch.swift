import Foundation

/// Prefetching: preparations started for rows about to appear, so the row's first `cellForRowAt` finds its
/// result cached, or joins the preparation under way.
///
/// A prefetch is a request on a render, not a task: it never evicts, delays or starves a visible row's task.
/// A task for the same content takes its render over (the prefetch ends as executed), and cancelling the
/// prefetch then leaves the render running.
extension QueuePreparation {
  /// What ``IdleQueue/prefetch(_:from:first:)`` does, for each input in the order given (the nearest first).
  static func prefetch(
    on queue: QueueCore, _ items: [(key: PreparedContent, work: RenderWork)],
    sizing: (@Sendable (any Sendable) -> Int)?, first: Bool
  ) {
    guard !queue.isInvalidated else { return }
    Validation.require(Validation.prefetchFailure(cacheLimit: queue.cacheLimit))
    of(queue).prefetch(items, sizing: sizing, first: first)
  }

  private func prefetch(
    _ items: [(key: PreparedContent, work: RenderWork)], sizing: (@Sendable (any Sendable) -> Int)?, first: Bool
  ) {
    // Results that finished and were not taken in yet go to the cache first: they are not prepared again.
    if hasArrivals { takeInPreparedResults() }
    // Results kept already are about to be shown: they become the most recently used, the nearest last, so the
    // cache keeps them over rows scrolled past, and the nearest longest.
    for item in items.reversed() { cache.touch(item.key) }
    // Past the queue's length the farthest rows of this call go, then older calls' (see below).
    var room = max(0, queue.list.capacity)
    prefetchCalls += 1
    var asked = Set<PreparedContent>()
    // Places ahead of every prefetch asked for so far (the rows where a fling lands), or after them.
    var places = first ? Self.placesAhead(items.count) : nil
    func nextPlace() -> Int {
      guard let place = places else { return Self.nextPrefetchDistance() }
      places = place + 1
      return place
    }
    for item in items {
      let key = item.key
      // Kept already, or given twice in this call (two rows showing one photo): its first place stands.
      if cache.contains(key) || !asked.insert(key).inserted { continue }
      if let pending = prefetches[key] {
        // Asked again: it keeps its place in the pool's order, and joins this call for the length.
        guard room > 0 else {
          count(endPrefetch(of: pending.render, key: key), otherwise: \.evicted)
          continue
        }
        room -= 1
        if first { pending.render.line.setDistance(pending.render, nextPlace()) }
        recordPrefetch(pending.render, key: key)
        continue
      }
      prefetchCounts.added += 1
      guard room > 0 else {
        prefetchCounts.evicted += 1
        continue
      }
      room -= 1
      let distance = nextPlace()
      let render: PreparationRun
      if let shared = inFlight[key], shared.line.isJoinable(shared) {
        // Being prepared for a task already: the prefetch keeps it wanted while that task's cell is off screen.
        render = shared
        render.adoptResultBytes(sizing, for: nil)
        render.line.setDistance(render, distance)
        render.isPrefetched = true
        render.line.adjust(render, live: 1, wanted: 1)
      } else {
        render = PreparationRun(line: self.line(for: item.work), content: key, resultBytes: sizing, prepare: item.work)
        render.isPrefetched = true
        (render.live, render.wanted, render.urgent, render.cells) = (1, 1, 0, 0)
        render.distance = distance
        noteNewRender(for: key)
        inFlight[key] = render
        render.line.submit(render)
      }
      render.wasPrefetched = true
      recordPrefetch(render, key: key)
    }
    evictPrefetchesOverCapacity()
    compactPrefetchOrder()
    // Main-thread prefetches run in passes.
    if mainLine.pool.hasStartableWork(of: mainLine) { queue.scheduler.setNeedsPass() }
  }

  /// Records `render` as the pending prefetch of `key`, in this call.
  private func recordPrefetch(_ render: PreparationRun, key: PreparedContent) {
    nextPrefetchSerial += 1
    prefetches[key] = (render, nextPrefetchSerial)
    prefetchOrder.append((key, nextPrefetchSerial, prefetchCalls))
  }

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

  /// What ``IdleQueue/cancelPrefetching(_:with:)`` does: each pending prefetch ends as cancelled, or as executed if
  /// its render finished (the result is kept).
  func cancelPrefetching(_ keys: [PreparedContent]) {
    for key in keys {
      guard let render = prefetches[key]?.render else { continue }
      count(endPrefetch(of: render, key: key), otherwise: \.cancelled)
    }
  }

  /// A task for `key` joined `render`: its pending prefetch, if any, ends as executed — the task's now.
  func prefetchTakenOver(_ render: PreparationRun, key: PreparedContent) {
    guard render.isPrefetched, prefetches[key]?.render === render else { return }
    endPrefetch(of: render, key: key)
    prefetchCounts.executed += 1
  }

  /// A render's outcome arrived: its pending prefetch ends as executed (the result is in the cache) or failed.
  func prefetchArrived(_ render: PreparationRun, succeeded: Bool) {
    guard render.isPrefetched, let key = render.content, prefetches[key]?.render === render else { return }
    prefetches[key] = nil
    render.isPrefetched = false
    if succeeded { prefetchCounts.executed += 1 } else { prefetchCounts.failed += 1 }
  }

  /// Ends every pending prefetch as cancelled (the queue's end, a memory warning).
  func cancelAllPrefetches() {
    guard !prefetches.isEmpty else { return }
    cancelPrefetching(Array(prefetches.keys))
  }

  /// Counts a prefetch that ended: executed if its render had finished with a value (kept for later), failed if
  /// with an error, else as `otherwise` (cancelled, evicted) — whether or not a pass took the outcome in first.
  private func count(_ finished: PreparationRun.Arrival, otherwise: WritableKeyPath<PrefetchCounts, Int>) {
    switch finished {
    case .value: prefetchCounts.executed += 1
    case .error: prefetchCounts.failed += 1
    case .none: prefetchCounts[keyPath: otherwise] += 1
    }
  }

  /// Takes the prefetch's request out of its render; returns how the render had finished, if it had: with a value
  /// (kept for later all the same) or an error.
  @discardableResult
  private func endPrefetch(of render: PreparationRun, key: PreparedContent) -> PreparationRun.Arrival {
    prefetches[key] = nil
    render.isPrefetched = false
    render.line.forgetDistance(render)
    let finished = render.line.adjust(render, live: -1, wanted: -1)
    if !render.hasLiveRequests, inFlight[key] === render,
      !held.contains(where: { $0 === render })
    {
      inFlight[key] = nil
    }
    return finished
  }

  /// More prefetches pending than the queue's maximum length: the oldest call's go first, its farthest first,
  /// counted evicted.
  private func evictPrefetchesOverCapacity() {
    let capacity = max(0, queue.list.capacity)
    while prefetches.count > capacity, prefetchOrderHead < prefetchOrder.count {
      let head = prefetchOrderHead
      let call = prefetchOrder[head].call
      var end = head
      while end < prefetchOrder.count, prefetchOrder[end].call == call { end += 1 }
      for index in (head..<end).reversed() {
        guard prefetches.count > capacity else { return }
        let entry = prefetchOrder[index]
        guard let pending = prefetches[entry.key], pending.serial == entry.serial else { continue }
        count(endPrefetch(of: pending.render, key: entry.key), otherwise: \.evicted)
      }
      prefetchOrderHead = end
    }
  }

  /// Drops the entries of ended prefetches (and those before the head) from the order once they are most of it:
  /// the order stays within twice the pending prefetches, at amortised O(1) per prefetch.
  private func compactPrefetchOrder() {
    guard prefetchOrder.count >= 64, prefetchOrder.count > 2 * prefetches.count else { return }
    prefetchOrder = prefetchOrder[prefetchOrderHead...].filter {
      prefetches[$0.key]?.serial == $0.serial
    }
    prefetchOrderHead = 0
  }
}
