import Foundation

/// Prefetching: preparations started for rows about to appear, before any cell asks for them, so that the
/// row's first `cellForRowAt` finds its result in the cache — or joins the preparation under way.
///
/// A prefetch is not a task: it is not in the task list, so it never evicts, delays or starves a visible
/// row's task, and it has no `apply`. It is a request on a render, as a task is: the render runs while some
/// request wants it. The pool starts renders that visible rows want first (every queue's), then prefetches
/// nearest first, paced during scrolls whose frames are tight (see `PrefetchPacing`). A task for the same content
/// takes a pending prefetch's render over (the prefetch ends as executed): it becomes visible work, and a cancel of
/// the prefetch no longer stops it.
extension QueueCore {
  /// What ``IdleQueue/prefetch(_:with:)`` does, for each content in the order given (the nearest first), after
  /// every content asked for before (see ``prefetchesAsked``).
  func prefetch(_ items: [(key: PreparedContent, work: RenderWork)], sizing: (@Sendable (any Sendable) -> Int)?) {
    guard !isInvalidated else { return }
    Validation.require(Validation.prefetchFailure(cacheLimit: cacheLimit))
    let preparation = preparationMade()
    // Results that finished and were not taken in yet go to the cache first: they are not prepared again.
    if preparation.line.hasArrivals { takeInPreparedResults() }
    // Results kept already are about to be shown: they become the most recently used, the nearest last, so that
    // the cache keeps them over the results of rows scrolled past — and the nearest longest. (Without this, the
    // results of the farther rows prefetched next evicted the nearer rows' in FeedDemo's `dense` and `flingBack`,
    // which showed them blank when the scroll turned back.)
    for item in items.reversed() { preparation.cache.touch(item.key) }
    // Past the queue's length the farthest rows of this call go (UIKit hands them nearest first), then the rows
    // of older calls (see ``evictPrefetchesOverCapacity(_:)``).
    var room = max(0, list.capacity)
    preparation.prefetchCalls += 1
    for item in items {
      let key = item.key
      if preparation.cache.contains(key) { continue }
      if let pending = preparation.prefetches[key] {
        // Asked again: it keeps its place in the pool's order, and joins this call for the length.
        guard room > 0 else {
          if endPrefetch(of: pending.render, key: key, preparation) {
            preparation.prefetchCounts.executed += 1
          } else {
            preparation.prefetchCounts.evicted += 1
          }
          continue
        }
        room -= 1
        recordPrefetch(pending.render, key: key, preparation)
        continue
      }
      preparation.prefetchCounts.added += 1
      guard room > 0 else {
        preparation.prefetchCounts.evicted += 1
        continue
      }
      room -= 1
      let distance = Self.nextPrefetchDistance()
      let render: Render
      if let shared = preparation.inFlight[key], preparation.line.isJoinable(shared) {
        // Being prepared for a task already: the prefetch keeps it wanted while that task's cell is off screen.
        render = shared
        render.adoptResultBytes(sizing, for: nil)
        preparation.line.setDistance(render, distance)
        render.isPrefetched = true
        preparation.line.adjust(render, live: 1, wanted: 1)
      } else {
        render = Render(line: preparation.line, content: key, resultBytes: sizing, prepare: item.work)
        render.isPrefetched = true
        (render.live, render.wanted, render.urgent, render.cells) = (1, 1, 0, 0)
        render.distance = distance
        preparation.inFlight[key] = render
        preparation.line.submit(render)
      }
      render.wasPrefetched = true
      recordPrefetch(render, key: key, preparation)
    }
    compactPrefetchOrder(preparation)
    evictPrefetchesOverCapacity(preparation)
  }

  /// Records `render` as the pending prefetch of `key`, in this call (``QueuePreparation/prefetchCalls``).
  private func recordPrefetch(_ render: Render, key: PreparedContent, _ preparation: QueuePreparation) {
    preparation.nextPrefetchSerial += 1
    preparation.prefetches[key] = (render, preparation.nextPrefetchSerial)
    preparation.prefetchOrder.append((key, preparation.nextPrefetchSerial, preparation.prefetchCalls))
  }

  /// The prefetches asked for so far, in every queue: each prefetch's place in the pool's order. UIKit hands rows
  /// to `prefetchRowsAt` as they come into its window, the nearest first and the farther in later calls; so the
  /// order they were asked for in — one process-wide sequence, over every queue and call — is nearest first.
  private static var prefetchesAsked = 0

  /// The next place in the order prefetches were asked for (see ``prefetchesAsked``).
  private static func nextPrefetchDistance() -> Int {
    prefetchesAsked += 1
    return prefetchesAsked
  }

  /// What ``IdleQueue/cancelPrefetching(_:with:)`` does: each pending prefetch ends as cancelled; its render,
  /// unless a task waits for it, is dropped if it has not started and told it is cancelled if it runs. One that
  /// finished already ends as executed: its result is kept, whenever a pass takes it in.
  func cancelPrefetching(_ keys: [PreparedContent]) {
    guard let preparation else { return }
    for key in keys {
      guard let render = preparation.prefetches[key]?.render else { continue }
      if endPrefetch(of: render, key: key, preparation) {
        preparation.prefetchCounts.executed += 1
      } else {
        preparation.prefetchCounts.cancelled += 1
      }
    }
  }

  /// A task for `key` joined `render`: its pending prefetch, if any, ends as executed — the task's now.
  func prefetchTakenOver(_ render: Render, key: PreparedContent, _ preparation: QueuePreparation) {
    guard render.isPrefetched, preparation.prefetches[key]?.render === render else { return }
    endPrefetch(of: render, key: key, preparation)
    preparation.prefetchCounts.executed += 1
  }

  /// A render's outcome arrived: its pending prefetch ends as executed (the result is in the cache) or failed.
  func prefetchArrived(_ render: Render, succeeded: Bool, _ preparation: QueuePreparation) {
    guard render.isPrefetched, let key = render.content, preparation.prefetches[key]?.render === render else { return }
    preparation.prefetches[key] = nil
    render.isPrefetched = false
    if succeeded { preparation.prefetchCounts.executed += 1 } else { preparation.prefetchCounts.failed += 1 }
  }

  /// Ends every pending prefetch as cancelled (the queue's end, a memory warning).
  func cancelAllPrefetches() {
    guard let preparation, !preparation.prefetches.isEmpty else { return }
    cancelPrefetching(Array(preparation.prefetches.keys))
  }

  /// Takes the prefetch's request out of its render; returns whether the render had finished (its result is kept
  /// for later all the same).
  @discardableResult
  private func endPrefetch(of render: Render, key: PreparedContent, _ preparation: QueuePreparation) -> Bool {
    let finished = preparation.line.hasFinished(render)
    preparation.prefetches[key] = nil
    render.isPrefetched = false
    preparation.line.forgetDistance(render)
    preparation.line.adjust(render, live: -1, wanted: -1)
    if !render.hasLiveRequests, preparation.inFlight[key] === render,
      !preparation.held.contains(where: { $0 === render })
    {
      preparation.inFlight[key] = nil
    }
    return finished
  }

  /// More prefetches pending than the queue's maximum length: the oldest call's go first, the farthest of it first
  /// (its rows were handed nearest first), counted evicted. Each call is passed over once, unless it is left
  /// partly pending.
  private func evictPrefetchesOverCapacity(_ preparation: QueuePreparation) {
    let capacity = max(0, list.capacity)
    while preparation.prefetches.count > capacity, preparation.prefetchOrderHead < preparation.prefetchOrder.count {
      let head = preparation.prefetchOrderHead
      let call = preparation.prefetchOrder[head].call
      var end = head
      while end < preparation.prefetchOrder.count, preparation.prefetchOrder[end].call == call { end += 1 }
      for index in (head..<end).reversed() where preparation.prefetches.count > capacity {
        let entry = preparation.prefetchOrder[index]
        guard let pending = preparation.prefetches[entry.key], pending.serial == entry.serial else { continue }
        if endPrefetch(of: pending.render, key: entry.key, preparation) {
          preparation.prefetchCounts.executed += 1
        } else {
          preparation.prefetchCounts.evicted += 1
        }
      }
      if preparation.prefetches.count > capacity { preparation.prefetchOrderHead = end }
    }
  }

  /// Keeps the order of prefetches proportional to the pending ones: entries whose prefetch ended (arrived,
  /// cancelled, taken over, started again under a newer number) are dropped once they are most of it
  /// (amortised O(1) per prefetch).
  private func compactPrefetchOrder(_ preparation: QueuePreparation) {
    let kept = preparation.prefetchOrder.count - preparation.prefetchOrderHead
    guard kept >= 64, kept > 2 * preparation.prefetches.count else { return }
    preparation.prefetchOrder = preparation.prefetchOrder[preparation.prefetchOrderHead...].filter {
      preparation.prefetches[$0.key]?.serial == $0.serial
    }
    preparation.prefetchOrderHead = 0
  }
}
