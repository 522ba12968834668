import Foundation

/// Prefetching: preparations started for rows about to appear, so the row's first `cellForRowAt` finds its
/// result cached, or joins the preparation under way.
///
/// A prefetch is a request on a render, not a task: it never evicts, delays or starves a visible row's task.
/// A task for the same content takes its render over (the prefetch ends as executed), and cancelling the
/// prefetch then leaves the render running.
extension QueueCore {
  /// What ``IdleQueue/prefetch(_:with:)`` does, for each content in the order given (the nearest first).
  func prefetch(_ items: [(key: PreparedContent, work: RenderWork)], sizing: (@Sendable (any Sendable) -> Int)?) {
    guard !isInvalidated else { return }
    Validation.require(Validation.prefetchFailure(cacheLimit: cacheLimit))
    let preparation = preparationMade()
    // Results that finished and were not taken in yet go to the cache first: they are not prepared again.
    if preparation.line.hasArrivals { takeInPreparedResults() }
    // Results kept already are about to be shown: they become the most recently used, the nearest last, so the
    // cache keeps them over rows scrolled past, and the nearest longest.
    for item in items.reversed() { preparation.cache.touch(item.key) }
    // Past the queue's length the farthest rows of this call go, then older calls' (see below).
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

  /// Records `render` as the pending prefetch of `key`, in this call.
  private func recordPrefetch(_ render: Render, key: PreparedContent, _ preparation: QueuePreparation) {
    preparation.nextPrefetchSerial += 1
    preparation.prefetches[key] = (render, preparation.nextPrefetchSerial)
    preparation.prefetchOrder.append((key, preparation.nextPrefetchSerial, preparation.prefetchCalls))
  }

  /// The prefetches asked for so far, in every queue: each one's place in the pool's order. UIKit asks for the
  /// nearest rows first, so this one process-wide sequence is nearest first.
  private static var prefetchesAsked = 0

  private static func nextPrefetchDistance() -> Int {
    prefetchesAsked += 1
    return prefetchesAsked
  }

  /// What ``IdleQueue/cancelPrefetching(_:with:)`` does: each pending prefetch ends as cancelled, or as executed if
  /// its render finished (the result is kept).
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

  /// Takes the prefetch's request out of its render; returns whether the render had finished.
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

  /// More prefetches pending than the queue's maximum length: the oldest call's go first, its farthest first,
  /// counted evicted.
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

  /// Drops the entries of ended prefetches from the order once they are most of it (amortised O(1)).
  private func compactPrefetchOrder(_ preparation: QueuePreparation) {
    let kept = preparation.prefetchOrder.count - preparation.prefetchOrderHead
    guard kept >= 64, kept > 2 * preparation.prefetches.count else { return }
    preparation.prefetchOrder = preparation.prefetchOrder[preparation.prefetchOrderHead...].filter {
      preparation.prefetches[$0.key]?.serial == $0.serial
    }
    preparation.prefetchOrderHead = 0
  }
}
