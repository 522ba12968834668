/// Which entries go when the list is over its capacity or holds stale ones, and which runs next.
extension TaskList {
  /// Brings the list back within `capacity`, dropping what is least likely to be missed first: every stale
  /// entry; then parked entries (off screen), oldest first; then discardable ones, oldest first, so a
  /// visible row's work never goes for a prefetch; then the oldest. Each step after the first evicts only as
  /// many as the overflow needs.
  mutating func trim(state: (Payload) -> EntryState) -> [Removal] {
    guard count > capacity else { return [] }
    var removed = purgeStale(state: state)
    if count > capacity, staleCandidates > 0 {
      for seq in oldest(count - capacity, where: { $0.canBeStale && state($0.payload) == .parked }) {
        removed.append(evict(seq)!)
      }
    }
    if count > capacity, discardables > 0 {
      for seq in oldest(count - capacity, where: { $0.isDiscardable }) { removed.append(evict(seq)!) }
    }
    while count > capacity, let oldest = first { removed.append(evict(oldest.seq)!) }
    checkInvariants()
    return removed
  }

  /// The sequence numbers of the oldest `limit` pending entries for which `matches` holds, oldest first.
  private func oldest(_ limit: Int, where matches: (Entry) -> Bool) -> [UInt64] {
    var seqs: [UInt64] = []
    guard limit > 0 else { return seqs }
    forEachPending { entry in
      if matches(entry) { seqs.append(entry.seq) }
      return seqs.count < limit
    }
    return seqs
  }

  /// Removes every pending entry that `state` calls stale.
  mutating func purgeStale(state: (Payload) -> EntryState) -> [Removal] {
    guard staleCandidates > 0 else { return [] }
    defer { checkInvariants() }
    // Scan in place; collect sequence numbers first, because taking entries may compact the storage.
    var leaving: [(UInt64, EntryState)] = []
    forEachPending { entry in
      guard entry.canBeStale else { return true }
      let entryState = state(entry.payload)
      if entryState == .stale { leaving.append((entry.seq, entryState)) }
      return true
    }
    return leaving.compactMap { seq, entryState in
      guard let entry = take(seq) else { return nil }
      return leave(entry, entryState)
    }
  }

  /// Returns the oldest runnable entry numbered from `start` and below `horizon`, left in place, dropping stale entries
  /// on the way. `reachedHorizon`: the scan stopped at an entry appended after the pass began.
  mutating func firstRunnable(
    from start: UInt64? = nil, below horizon: UInt64 = .max, state: (Payload) -> EntryState
  ) -> (entry: Entry?, skipped: [Removal], reachedHorizon: Bool) {
    defer { checkInvariants() }
    var skipped: [Removal] = []
    var from = start ?? 0
    // Taking a stale entry may compact the storage: after each, the scan restarts from the next sequence number.
    func step(_ candidate: Entry) -> ScanStep {
      if candidate.seq >= horizon { return .horizon }
      guard candidate.canBeStale else { return .found(candidate) }
      let candidateState = state(candidate.payload)
      switch candidateState {
      case .runnable:
        return .found(candidate)
      case .parked, .preparing:
        return .next
      case .stale:
        skipped.append(leave(take(candidate.seq)!, candidateState))
        from = candidate.seq + 1
        return .restart
      }
    }
    scan: while true {
      var straggler = from < baseSeq ? stragglerLowerBound(from) : stragglers.count
      while straggler < stragglers.count {
        guard let candidate = stragglers[straggler].entry else {
          straggler += 1
          continue
        }
        switch step(candidate) {
        case .found(let entry): return (entry, skipped, false)
        case .horizon: return (nil, skipped, true)
        case .next: straggler += 1
        case .restart: continue scan
        }
      }
      var index = from > baseSeq ? max(head, Int(clamping: from - baseSeq)) : head
      while index < slots.count {
        guard let candidate = slots[index] else {
          index += 1
          continue
        }
        switch step(candidate) {
        case .found(let entry): return (entry, skipped, false)
        case .horizon: return (nil, skipped, true)
        case .next: index += 1
        case .restart: continue scan
        }
      }
      return (nil, skipped, false)
    }
  }

  /// Counts an entry taken because `state` says it is stale.
  private mutating func leave(_ entry: Entry, _ state: EntryState) -> Removal {
    statistics.skippedAsStale += 1
    return Removal(entry: entry, fate: .stale)
  }
}
