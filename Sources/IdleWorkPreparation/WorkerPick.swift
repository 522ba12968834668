import IdleWork

/// Which waiting preparation a free worker takes next: the pure rule behind ``WorkerPool``'s pick, decided from
/// values so tests step every case without threads.
///
/// 1. Plain tasks' preparations first, in the order added; then the visible row that appeared last: it stays on
///    screen longest, where in a fling the row about to leave would get its result after it has gone.
/// 2. Then prefetches, nearest first, while their queue's cache has room for the results on their way and within
///    the pacing's share (``PrefetchPacing``).
/// 3. A preparation no request wants now, or whose queue is at its bound, waits.
enum WorkerPick {
  /// A waiting preparation, as the rule sees it.
  struct Candidate: Equatable {
    /// Some request wants it now, and its queue runs fewer than its bound.
    var isStartable: Bool
    /// A visible row's or a plain task's request wants it (not only prefetches and droppable tasks).
    var isVisible: Bool
    /// Some of its requests belong to cells.
    var hasCells: Bool
    /// When a visible row last came to want it (larger is later).
    var visibleSince: UInt64 = 0
    /// A prefetch's place in the order prefetches were asked for (smaller is nearer).
    var distance: Int = .max
    /// Whether its queue's cache has room for one more result on its way (``PreparationLine/resultsOnTheirWayFit``).
    var resultsFit: Bool = true
    /// Whether the pacing lets one more prefetch of its queue start.
    var pacingAllows: Bool = true
  }

  /// The rule's answer.
  struct Choice: Equatable {
    /// The candidate to start, by its index; `nil`: none.
    var index: Int?
    /// Whether it starts as a prefetch (beneath visible work: it runs at `utility`, and counts against the pacing).
    var isPrefetch = false
    /// Prefetches passed over because their results on their way would not fit the cache: their queues wake a
    /// worker when a pass takes results in. Reported only when nothing visible was chosen.
    var waitingForTakeIn: [Int] = []
    /// Whether a prefetch was passed over because of the pacing (a worker should look again when it ends).
    var heldBackByPacing = false
  }

  /// Picks among `candidates` (in the pool's order, oldest first).
  static func choose(_ candidates: [Candidate]) -> Choice {
    var visible: Int?
    var latest: UInt64 = 0
    var prefetch: Int?
    var nearest = Int.max
    var choice = Choice()
    for (index, candidate) in candidates.enumerated() where candidate.isStartable {
      if candidate.isVisible {
        if !candidate.hasCells { return Choice(index: index) }
        if visible == nil || candidate.visibleSince > latest {
          visible = index
          latest = candidate.visibleSince
        }
        continue
      }
      guard visible == nil else { continue }
      guard candidate.resultsFit else {
        choice.waitingForTakeIn.append(index)
        continue
      }
      guard candidate.pacingAllows else {
        choice.heldBackByPacing = true
        continue
      }
      if prefetch == nil || candidate.distance < nearest {
        prefetch = index
        nearest = candidate.distance
      }
    }
    if let visible { return Choice(index: visible) }
    choice.index = prefetch
    choice.isPrefetch = prefetch != nil
    return choice
  }
}
