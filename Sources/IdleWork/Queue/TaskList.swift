/// Whether a pending entry may run now, as the caller's predicate judges it.
package enum EntryState: Sendable, Hashable {
  case runnable
  /// It never will: its cell is gone or was configured again. It leaves the list, counted as stale.
  case stale
  /// Not now: its cell is off screen. It keeps its place, is passed over, and is evicted first after stale ones.
  case parked
  /// Not yet: its result is being prepared. It keeps its place and is passed over, as a parked entry is, but an
  /// overflow evicts it only in its turn (as discardable, or as the oldest).
  case preparing
}

/// How a task left the queue.
package enum TaskFate: Sendable, Hashable {
  case executed
  /// Its cell was gone or was configured again when its turn came, or when the queue overflowed.
  case stale
  /// The queue was over its maximum length (see ``TaskList/trim(state:)``).
  case evicted
  /// It was cancelled: by key or handle, replaced, all at once, on memory pressure, or with the queue.
  case cancelled
}

/// The pure policy core: a keyed FIFO with a capacity, stale purge, eviction and exact accounting.
///
/// It knows nothing of run loops, threads or time: a caller's predicate says whether an entry is runnable, and
/// removed entries are handed back with their fate, so what they captured is freed by the caller outside any
/// mutation (a deinit that re-enters the queue sees a consistent list).
///
/// Storage is a ring of slots indexed by `seq - baseSeq`, so append and removal by sequence number are O(1).
/// One entry left pending at the head would pin every slot after it, so a sparse ring (``Compaction``) moves
/// its few live entries before its dense tail to *stragglers*, a sorted array below `baseSeq` that every ordered
/// walk visits first. Storage and scans stay proportional to the pending entries.
///
/// Cancel-by-key scans a parallel array of key hashes, computed lazily, so an addition never cancelled by key
/// costs no hashing, and it stays O(n) when many tasks share one key.
package struct TaskList<Payload> {
  struct Entry {
    let seq: UInt64
    let key: TaskKey
    var payload: Payload
    /// Whether `state` must be consulted (cell-bound tasks, whose cell may show another row by then, and later tasks).
    let canBeStale: Bool
    let isDiscardable: Bool
  }

  /// When a sparse ring moves its stragglers out (see ``TaskList``).
  struct Compaction {
    /// The fewest slots worth compacting: below it, passing over empty slots costs less than moving entries.
    var minimumLength: Int
    /// The ring is sparse when at most one in this many of its slots is live. At least 3, so a sparse ring always
    /// has empty slots to drop before the half-live tail it keeps.
    var sparseness: Int

    /// Few enough empty slots for a pass to pass over cheaply; at most one entry moved per 8 slots dropped.
    static var standard: Compaction { Compaction(minimumLength: 1024, sparseness: 8) }
  }

  /// An entry moved out of a sparse ring. `entry` is `nil` once it has left; its place is kept so the array
  /// stays sorted by `seq` for binary search.
  private struct Straggler {
    let seq: UInt64
    /// `entry.key.hash`, for cancel-by-key.
    let keyHash: Int
    var entry: Entry?
  }

  /// What ``firstRunnable(from:below:state:)`` does with one entry: return it, stop, pass over it, or drop it and
  /// scan again after it.
  private enum ScanStep {
    case found(Entry)
    case horizon
    case next
    case restart
  }

  package struct Removal {
    let entry: Entry
    let fate: TaskFate
  }

  /// The maximum number of pending entries; `0...Int.max`.
  package var capacity: Int
  private(set) var statistics = IdleQueue.Statistics()

  private var slots: [Entry?] = []
  /// `slots[i]?.key.hash` for the first `keyHashes.count` slots (the rest are not hashed yet).
  private var keyHashes: [Int] = []
  private var head = 0
  private var baseSeq: UInt64 = 0
  private var nextSeq: UInt64 = 0
  private var staleCandidates = 0
  /// Pending discardable entries, so an overflow looks for them only when there are some.
  private var discardables = 0
  /// Entries moved out of a sparse ring (below `baseSeq`), oldest first, with places of those that left.
  private var stragglers: [Straggler] = []
  /// The index of the oldest pending straggler; `stragglers.count` if none.
  private var stragglerHead = 0
  private var stragglerCount = 0
  /// When the ring compacts; tests lower it so short sequences exercise the stragglers.
  var compaction = Compaction.standard

  init(capacity: Int) {
    self.capacity = capacity
  }

  var count: Int { statistics.pending }
  package var isEmpty: Bool { statistics.pending == 0 }

  var first: Entry? {
    if stragglerHead < stragglers.count { return stragglers[stragglerHead].entry }
    return head < slots.count ? slots[head] : nil
  }

  /// The places the list stores, live or empty: what its memory and scans cost. For tests.
  var storageCount: Int { slots.count + stragglers.count }

  /// The pending entries kept out of the ring. For tests.
  var pendingStragglers: Int { stragglerCount }

  /// Every pending entry, oldest first. For tests.
  var pendingEntries: [Entry] {
    var entries: [Entry] = []
    forEachPending { entry in
      entries.append(entry)
      return true
    }
    return entries
  }

  /// The sequence number the next appended entry gets: entries numbered from here on were appended later.
  var nextSequenceNumber: UInt64 { nextSeq }

  func contains(_ seq: UInt64) -> Bool {
    if let index = slotIndex(seq) { return slots[index] != nil }
    return stragglerIndex(seq).map { stragglers[$0].entry != nil } ?? false
  }

  /// The index of straggler `seq` (pending or left), if there is one.
  private func stragglerIndex(_ seq: UInt64) -> Int? {
    let index = stragglerLowerBound(seq)
    return index < stragglers.count && stragglers[index].seq == seq ? index : nil
  }

  /// The index of the first straggler numbered `seq` or later (`stragglers.count` if none), by binary search.
  private func stragglerLowerBound(_ seq: UInt64) -> Int {
    var low = stragglerHead
    var high = stragglers.count
    while low < high {
      let middle = low + (high - low) / 2
      if stragglers[middle].seq < seq { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// Calls `body` with each pending entry in FIFO order (stragglers, then the ring) while it returns `true`.
  private func forEachPending(_ body: (Entry) -> Bool) {
    for straggler in stragglers[stragglerHead...] {
      if let entry = straggler.entry, !body(entry) { return }
    }
    for case let entry? in slots[head...] {
      if !body(entry) { return }
    }
  }

  /// The slot of sequence number `seq`, if it is still in the ring (the slot may be empty).
  private func slotIndex(_ seq: UInt64) -> Int? {
    seq >= baseSeq && seq < nextSeq ? Int(seq - baseSeq) : nil
  }

  /// Appends an entry and returns its sequence number plus what ``trim(state:)`` removed, possibly the new entry.
  mutating func append(
    key: consuming TaskKey, payload: consuming Payload, canBeStale: Bool = false, isDiscardable: Bool = false,
    state: (Payload) -> EntryState
  ) -> (seq: UInt64, removed: [Removal]) {
    let seq = nextSeq
    nextSeq += 1
    slots.append(
      Entry(seq: seq, key: key, payload: payload, canBeStale: canBeStale, isDiscardable: isDiscardable))
    if canBeStale { staleCandidates += 1 }
    if isDiscardable { discardables += 1 }
    statistics.added += 1
    statistics.pending += 1
    let removed = count > capacity ? trim(state: state) : []
    checkInvariants()
    return (seq, removed)
  }

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

  /// Takes a one-shot entry out just before it runs, counting it executed, so a running task that cancels its own
  /// key or overflows the queue cannot un-run itself.
  mutating func takeForRun(_ seq: UInt64) -> Entry? {
    guard let entry = take(seq) else { return nil }
    statistics.executed += 1
    statistics.slicesRun += 1
    checkInvariants()
    return entry
  }

  /// Records that a slice ran; a finished entry leaves as executed, unless its fate was counted while it ran.
  mutating func recordSlice(_ seq: UInt64, finished: Bool) -> Removal? {
    statistics.slicesRun += 1
    guard finished, let entry = take(seq) else { return nil }
    statistics.executed += 1
    checkInvariants()
    return Removal(entry: entry, fate: .executed)
  }

  package mutating func skipAsStale(_ seq: UInt64) -> Removal? { remove(seq, as: .stale) }

  package mutating func cancel(_ seq: UInt64) -> Removal? { remove(seq, as: .cancelled) }

  private mutating func evict(_ seq: UInt64) -> Removal? { remove(seq, as: .evicted) }

  private mutating func remove(_ seq: UInt64, as fate: TaskFate) -> Removal? {
    guard let entry = take(seq) else { return nil }
    switch fate {
    case .executed: statistics.executed += 1
    case .stale: statistics.skippedAsStale += 1
    case .evicted: statistics.evicted += 1
    case .cancelled: statistics.cancelled += 1
    }
    checkInvariants()
    return Removal(entry: entry, fate: fate)
  }

  mutating func cancel(key: TaskKey) -> [Removal] {
    let hash = key.hash
    if keyHashes.count < slots.count {
      keyHashes.reserveCapacity(slots.count)
      for index in keyHashes.count..<slots.count { keyHashes.append(slots[index]?.key.hash ?? 0) }
    }
    var seqs: [UInt64] = []
    for straggler in stragglers[stragglerHead...] where straggler.keyHash == hash {
      if let entry = straggler.entry, entry.key.matches(key) { seqs.append(entry.seq) }
    }
    for index in head..<keyHashes.count where keyHashes[index] == hash {
      if let entry = slots[index], entry.key.matches(key) { seqs.append(entry.seq) }
    }
    return seqs.compactMap { cancel($0) }
  }

  mutating func cancelAll(where shouldRemove: (Entry) -> Bool = { _ in true }) -> [Removal] {
    var seqs: [UInt64] = []
    forEachPending { entry in
      if shouldRemove(entry) { seqs.append(entry.seq) }
      return true
    }
    return seqs.compactMap { cancel($0) }
  }

  /// Counts background additions that the bounded inbox dropped (the queue would have evicted them).
  mutating func recordAddedAndEvicted(_ n: Int) {
    statistics.added += n
    statistics.evicted += n
    checkInvariants()
  }

  /// Counts tasks that were accepted and cancelled in one step (background additions dropped by invalidate).
  mutating func recordAddedAndCancelled(_ n: Int) {
    statistics.added += n
    statistics.cancelled += n
    checkInvariants()
  }

  mutating func recordPass(duration: UInt64) {
    statistics.passes += 1
    statistics.longestPassDuration = max(statistics.longestPassDuration, Double(duration) / 1e9)
  }

  private mutating func take(_ seq: UInt64) -> Entry? {
    guard let index = slotIndex(seq) else { return seq < baseSeq ? takeStraggler(seq) : nil }
    guard let entry = slots[index] else { return nil }
    slots[index] = nil
    countLeaving(entry)
    while head < slots.count, slots[head] == nil { head += 1 }
    if head == slots.count {
      emptyRing()
    } else if head >= 64, head * 2 >= slots.count {
      slots.removeFirst(head)
      keyHashes.removeFirst(min(head, keyHashes.count))
      baseSeq += UInt64(head)
      head = 0
    } else if slots.count - head >= compaction.minimumLength,
      (statistics.pending - stragglerCount) * compaction.sparseness <= slots.count - head
    {
      moveStragglersOut()
    }
    return entry
  }

  /// Takes a straggler out, keeping its place until the places left outnumber the pending ones (amortised O(1)).
  private mutating func takeStraggler(_ seq: UInt64) -> Entry? {
    guard let index = stragglerIndex(seq), let entry = stragglers[index].entry else { return nil }
    stragglers[index].entry = nil
    stragglerCount -= 1
    countLeaving(entry)
    if stragglerCount == 0 {
      stragglers.removeAll(keepingCapacity: stragglers.capacity <= 1024)
      stragglerHead = 0
    } else {
      while stragglers[stragglerHead].entry == nil { stragglerHead += 1 }
      if stragglers.count >= 2 * stragglerCount + 32 {
        stragglers.removeAll { $0.entry == nil }
        stragglerHead = 0
      }
    }
    return entry
  }

  @inline(__always)
  private mutating func countLeaving(_ entry: Entry) {
    statistics.pending -= 1
    if entry.canBeStale { staleCandidates -= 1 }
    if entry.isDiscardable { discardables -= 1 }
  }

  private mutating func emptyRing() {
    // Keep moderate storage, so the next burst of additions appends without growing the buffer again.
    baseSeq = nextSeq
    slots.removeAll(keepingCapacity: slots.capacity <= 65536)
    keyHashes.removeAll(keepingCapacity: keyHashes.capacity <= 65536)
    head = 0
  }

  /// Compacts a sparse ring: keeps its longest at-least-half-live tail, moves the live entries before it to the
  /// stragglers, oldest first, and drops the slots before it.
  private mutating func moveStragglersOut() {
    var live = 0
    var cut = slots.count
    for index in stride(from: slots.count - 1, through: head, by: -1) where slots[index] != nil {
      live += 1
      if live * 2 >= slots.count - index { cut = index }
    }
    guard cut > head else { return }  // dense from the head (a sparseness below 3)
    for index in head..<cut {
      guard let entry = slots[index] else { continue }
      let keyHash = index < keyHashes.count ? keyHashes[index] : entry.key.hash
      stragglers.append(Straggler(seq: entry.seq, keyHash: keyHash, entry: entry))
      stragglerCount += 1
    }
    if cut == slots.count {
      emptyRing()
    } else {
      slots.removeFirst(cut)
      keyHashes.removeFirst(min(cut, keyHashes.count))
      baseSeq += UInt64(cut)
      head = 0
    }
  }

  /// The accounting identity and storage invariants, checked after every mutation with `IDLEWORK_INTERNAL_CHECKS`.
  func checkInvariants() {
    #if IDLEWORK_INTERNAL_CHECKS
      precondition(statistics.isBalanced, "IdleWork internal: accounting identity broken: \(statistics.summary)")
      precondition(slots.count == Int(nextSeq - baseSeq), "IdleWork internal: slot ring out of step")
      precondition(keyHashes.count <= slots.count, "IdleWork internal: key hashes out of step")
      precondition(head == slots.count || slots[head] != nil, "IdleWork internal: head is not live")
      precondition(
        (0...statistics.pending).contains(discardables) && (0...statistics.pending).contains(staleCandidates),
        "IdleWork internal: entry counts out of step")
      precondition(
        stragglers.last.map { $0.seq < baseSeq } ?? true, "IdleWork internal: a straggler is in the ring's range")
      precondition(
        (stragglerCount == 0) == (stragglerHead == stragglers.count)
          && (stragglerHead == stragglers.count || stragglers[stragglerHead].entry != nil)
          && stragglerCount <= statistics.pending,
        "IdleWork internal: stragglers out of step")
      if slots.count + stragglers.count <= 64 { checkStorage() }
    #endif
  }

  /// Checks every place of a small list (only small ones, or debug builds go quadratic).
  private func checkStorage() {
    #if IDLEWORK_INTERNAL_CHECKS
      var live = 0
      for (index, straggler) in stragglers.enumerated() {
        precondition(
          index == 0 || stragglers[index - 1].seq < straggler.seq, "IdleWork internal: stragglers out of order")
        guard let entry = straggler.entry else { continue }
        precondition(
          index >= stragglerHead && entry.seq == straggler.seq && entry.key.hash == straggler.keyHash,
          "IdleWork internal: a straggler out of step")
        live += 1
      }
      precondition(live == stragglerCount, "IdleWork internal: straggler count out of step")
      for (index, slot) in slots.enumerated() {
        guard let entry = slot else { continue }
        precondition(index >= head && entry.seq == baseSeq + UInt64(index), "IdleWork internal: a slot out of step")
        live += 1
      }
      precondition(live == statistics.pending, "IdleWork internal: pending count out of step")
    #endif
  }
}
