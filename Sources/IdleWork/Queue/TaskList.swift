/// Whether a pending entry may run now, as the caller's predicate judges it.
enum EntryState: Sendable, Hashable {
  /// It may run.
  case runnable
  /// It never will: its cell is gone or was configured again. It leaves the list, counted as stale.
  case stale
  /// Not now: its cell is off screen (`didEndDisplaying`). It stays pending, keeps its place, is passed
  /// over by passes and is the first evicted after stale entries.
  case parked
  /// It never will: it was cancelled on another thread (an awaiting `perform` whose caller was cancelled)
  /// and its removal has not reached the main thread yet. It leaves the list, counted as cancelled —
  /// also when an overflow meets it first.
  case withdrawn
  /// Not yet: its result is being prepared off the main thread. It stays pending, keeps its place and is
  /// passed over by passes, as a parked entry is, but an overflow evicts it only in its turn: with the
  /// discardable entries if it is one, else as the oldest.
  case preparing
}

/// How a task left the queue.
enum TaskFate: Sendable, Hashable {
  /// It ran to completion.
  case executed
  /// Its cell was gone or was configured again when its turn came, or when the queue overflowed.
  case stale
  /// The queue was over its maximum length and it was, in this order of preference, parked (its cell off
  /// screen), discardable, or the oldest (see ``TaskList/trim(state:)``).
  case evicted
  /// It was cancelled by key, by handle, by a replacing addition, by `removeAllTasks`, `invalidate`, a
  /// memory-pressure purge or a cancelled `perform`.
  case cancelled
  /// Its preparation off the main thread threw; it never ran.
  case failed
}

/// The pure policy core: a keyed FIFO with a capacity, stale purge, eviction and exact accounting.
///
/// It knows nothing of run loops, threads or time sources: the caller passes in a
/// predicate telling whether a cell-bound entry is runnable, stale or parked, and receives the entries that
/// left the list together with their fate. Removed payloads are handed back rather than released inside the
/// list, so whatever they captured is freed by the caller, outside any mutation (a deinit that re-enters the
/// queue sees a consistent list).
///
/// Storage is a ring of slots indexed by sequence number (`slot = seq - baseSeq`), so appending, taking
/// the head and removing any entry by sequence number are O(1).
///
/// The ring drops slots only from its head, so one entry left pending at the head for long — a parked
/// cell's task whose cell stays alive off screen, a prepared task whose preparation hangs — would pin every
/// slot appended after it: 500,000 tasks added and run behind one left 500,041 slots (44 MB), and every
/// pass scanned them all. So when the ring is sparse (``Compaction``), the few live entries before its
/// dense tail move to *stragglers*, a small array sorted by sequence number (all below `baseSeq`), and the
/// slots before that tail are dropped. Every ordered walk visits the stragglers first, then the ring, which
/// keeps the exact FIFO order; a removal by sequence number below `baseSeq` binary-searches the stragglers.
/// A compaction scans the ring once and leaves it at least half live, so its cost is paid for by the
/// removals that emptied the slots it drops; the hot paths gain only an integer comparison, and storage
/// and scans stay proportional to the pending entries.
///
/// Cancel-by-key scans a parallel array of the keys' hash values and compares keys only where a hash
/// matches: a tight loop over integers, about a nanosecond per pending task. The hashes are computed
/// lazily — the first cancellation by key hashes the keys appended since the last one — so an addition
/// that is never cancelled by key costs no hashing (a straggler's is computed when it moves out, if it was
/// not yet). That is cheaper than keeping a key index up to date on every addition (a dictionary insert of
/// an `AnyHashable` and an array per key cost more than the whole rest of `add`), and it stays O(n) when
/// thousands of tasks share one key, where an index's per-key arrays went O(n²).
struct TaskList<Payload> {
  struct Entry {
    let seq: UInt64
    let key: TaskKey
    var payload: Payload
    /// Whether `state` must be consulted for this entry (cell-bound tasks, and `perform`'s, which another
    /// thread may withdraw).
    let canBeStale: Bool
    /// Whether a memory-pressure purge may drop it.
    let isDiscardable: Bool
  }

  /// When a sparse ring moves its stragglers out (see ``TaskList``).
  struct Compaction {
    /// The fewest slots from the head worth compacting: below it, passing over empty slots costs less
    /// than moving entries.
    var minimumLength: Int
    /// The ring is sparse when at most one in this many of its slots is live. At least 3, so that a sparse
    /// ring always has empty slots to drop before the tail it keeps (which is at least half live).
    var sparseness: Int

    /// 1,024 slots, one in 8 live: a pass passes over at most about a thousand empty slots (a
    /// microsecond), and a compaction moves at most one entry for every 8 slots it drops.
    static var standard: Compaction { Compaction(minimumLength: 1024, sparseness: 8) }
  }

  /// An entry moved out of a sparse ring. `entry` is `nil` once it has left; its place is kept (until the
  /// array is compacted) so that the array stays sorted by `seq` for binary search.
  private struct Straggler {
    let seq: UInt64
    /// `entry.key.hash`, for cancel-by-key.
    let keyHash: Int
    var entry: Entry?
  }

  /// What ``firstRunnable(from:below:state:)`` does with one entry, in the stragglers or in the ring alike: return
  /// it, stop at the horizon, pass over it, or drop it (stale or withdrawn) and scan again after it.
  private enum ScanStep {
    case found(Entry)
    case horizon
    case next
    case restart
  }

  /// An entry that left the list, and why.
  struct Removal {
    let entry: Entry
    let fate: TaskFate
  }

  /// The maximum number of pending entries; `0...Int.max`.
  var capacity: Int
  private(set) var statistics = IdleQueue.Statistics()

  private var slots: [Entry?] = []
  /// `slots[i]?.key.hash` for the first `keyHashes.count` slots (the rest are not hashed yet), kept beside
  /// the slots so that cancel-by-key scans plain integers.
  private var keyHashes: [Int] = []
  private var head = 0
  private var baseSeq: UInt64 = 0
  private var nextSeq: UInt64 = 0
  private var staleCandidates = 0
  /// Pending entries appended with `isDiscardable`, so that an overflow looks for them only when there are.
  private var discardables = 0
  /// Pending entries numbered below `baseSeq`, oldest first, with the places of those that left: what
  /// compactions of a sparse ring moved out of it. Usually empty.
  private var stragglers: [Straggler] = []
  /// The index of the oldest pending straggler; `stragglers.count` if none.
  private var stragglerHead = 0
  /// The pending stragglers.
  private var stragglerCount = 0
  /// When the ring compacts; tests lower it so that short sequences exercise the stragglers.
  var compaction = Compaction.standard

  init(capacity: Int) {
    self.capacity = capacity
  }

  /// The number of pending entries.
  var count: Int { statistics.pending }
  var isEmpty: Bool { statistics.pending == 0 }

  /// The oldest pending entry.
  var first: Entry? {
    if stragglerHead < stragglers.count { return stragglers[stragglerHead].entry }
    return head < slots.count ? slots[head] : nil
  }

  /// The places the list stores, live or empty (ring slots and stragglers): what its memory and its scans
  /// cost. For tests.
  var storageCount: Int { slots.count + stragglers.count }

  /// The pending entries kept out of the ring. For tests, which check that they are exercised.
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

  /// Whether an entry with this sequence number is still pending.
  func contains(_ seq: UInt64) -> Bool {
    if let index = slotIndex(seq) { return slots[index] != nil }
    return stragglerIndex(seq).map { stragglers[$0].entry != nil } ?? false
  }

  /// The index of straggler `seq` (pending or left), if there is one.
  private func stragglerIndex(_ seq: UInt64) -> Int? {
    let index = stragglerLowerBound(seq)
    return index < stragglers.count && stragglers[index].seq == seq ? index : nil
  }

  /// The index of the first straggler numbered `seq` or later (`stragglers.count` if none), by binary
  /// search from the oldest pending one (those before it have all left).
  private func stragglerLowerBound(_ seq: UInt64) -> Int {
    var low = stragglerHead
    var high = stragglers.count
    while low < high {
      let middle = low + (high - low) / 2
      if stragglers[middle].seq < seq { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// Calls `body` with each pending entry in FIFO order — the stragglers, then the ring — while it returns
  /// `true`.
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

  /// Appends an entry at the tail and returns its sequence number plus whatever the capacity trim removed
  /// (see ``trim(state:)``): possibly the new entry itself — when the capacity is 0, or when it is
  /// discardable and every other entry is runnable and not discardable.
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

  /// Brings the list back within `capacity`, dropping what is least likely to be missed first:
  ///
  /// 1. every stale entry (its cell is gone or shows something else: it would never run) and every
  ///    withdrawn one, counted as stale and cancelled;
  /// 2. then parked entries, oldest first: their cells are off screen, so nobody sees the work missing;
  /// 3. then discardable entries, oldest first: prefetches and the like, which the caller declared
  ///    expendable — evicting the oldest instead would drop a visible row's work for a prefetch, leaving
  ///    that row blank;
  /// 4. then the oldest entries.
  ///
  /// So a discardable entry never evicts an entry that is not (one appended to a list full of those
  /// evicts itself), and a parked or stale one is never kept while a visible one goes. Each step after the
  /// first evicts only as many as the overflow needs, counted as evicted.
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

  /// Removes every pending entry that `state` calls stale (counted as stale) or withdrawn (counted as
  /// cancelled).
  mutating func purgeStale(state: (Payload) -> EntryState) -> [Removal] {
    guard staleCandidates > 0 else { return [] }
    defer { checkInvariants() }
    // Scan in place; collect sequence numbers first, because taking entries may compact the storage.
    var leaving: [(UInt64, EntryState)] = []
    forEachPending { entry in
      guard entry.canBeStale else { return true }
      let entryState = state(entry.payload)
      if entryState == .stale || entryState == .withdrawn { leaving.append((entry.seq, entryState)) }
      return true
    }
    return leaving.compactMap { seq, entryState in
      guard let entry = take(seq) else { return nil }
      return leave(entry, entryState)
    }
  }

  /// Returns the oldest runnable entry numbered from `start` (from the head if `nil`) and below `horizon`,
  /// which stays in its place, dropping the stale and withdrawn entries met on the way and passing over
  /// parked ones (which stay pending). `reachedHorizon` tells that the scan stopped at an entry numbered
  /// `horizon` or later (appended after the pass began) rather than at the end of the list.
  mutating func firstRunnable(
    from start: UInt64? = nil, below horizon: UInt64 = .max, state: (Payload) -> EntryState
  ) -> (entry: Entry?, skipped: [Removal], reachedHorizon: Bool) {
    defer { checkInvariants() }
    var skipped: [Removal] = []
    var from = start ?? 0
    // Taking a stale entry may compact the storage (even move ring entries to the stragglers): after each,
    // the scan starts again from the next sequence number.
    func step(_ candidate: Entry) -> ScanStep {
      if candidate.seq >= horizon { return .horizon }
      guard candidate.canBeStale else { return .found(candidate) }
      let candidateState = state(candidate.payload)
      switch candidateState {
      case .runnable:
        return .found(candidate)
      case .parked, .preparing:
        return .next
      case .stale, .withdrawn:
        skipped.append(leave(take(candidate.seq)!, candidateState))
        from = candidate.seq + 1
        return .restart
      }
    }
    scan: while true {
      // The stragglers first: each is older than every entry in the ring.
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

  /// Counts an entry taken because `state` says it is stale or withdrawn.
  private mutating func leave(_ entry: Entry, _ state: EntryState) -> Removal {
    if state == .withdrawn {
      statistics.cancelled += 1
      return Removal(entry: entry, fate: .cancelled)
    }
    statistics.skippedAsStale += 1
    return Removal(entry: entry, fate: .stale)
  }

  /// Takes a one-shot entry out of the list just before it runs, counting it as executed. Taking it first
  /// means a task that cancels its own key, or overflows the queue, while running cannot un-run itself.
  mutating func takeForRun(_ seq: UInt64) -> Entry? {
    guard let entry = take(seq) else { return nil }
    statistics.executed += 1
    statistics.slicesRun += 1
    checkInvariants()
    return entry
  }

  /// Records that a slice of entry `seq` ran. A finished entry leaves the list as executed; an unfinished
  /// one keeps its place in the list. If the entry was cancelled or evicted while it ran, its fate is
  /// already counted and nothing changes.
  mutating func recordSlice(_ seq: UInt64, finished: Bool) -> Removal? {
    statistics.slicesRun += 1
    guard finished, let entry = take(seq) else { return nil }
    statistics.executed += 1
    checkInvariants()
    return Removal(entry: entry, fate: .executed)
  }

  /// Removes one entry by sequence number, counting it as stale (its cell was configured again or released
  /// when its prepared result arrived).
  mutating func skipAsStale(_ seq: UInt64) -> Removal? { remove(seq, as: .stale) }

  /// Removes one entry by sequence number, counting it as failed (its preparation threw).
  mutating func fail(_ seq: UInt64) -> Removal? { remove(seq, as: .failed) }

  /// Counts a task that was accepted and ran in one step (a prepared task whose result was cached).
  mutating func recordAddedAndExecuted() {
    statistics.added += 1
    statistics.executed += 1
    statistics.slicesRun += 1
    checkInvariants()
  }

  /// Removes one entry by sequence number, counting it as cancelled.
  mutating func cancel(_ seq: UInt64) -> Removal? { remove(seq, as: .cancelled) }

  /// Evicts one entry by sequence number (the queue is over capacity).
  private mutating func evict(_ seq: UInt64) -> Removal? { remove(seq, as: .evicted) }

  /// Removes one entry by sequence number, counting it under `fate`.
  private mutating func remove(_ seq: UInt64, as fate: TaskFate) -> Removal? {
    guard let entry = take(seq) else { return nil }
    switch fate {
    case .executed: statistics.executed += 1
    case .stale: statistics.skippedAsStale += 1
    case .evicted: statistics.evicted += 1
    case .cancelled: statistics.cancelled += 1
    case .failed: statistics.failed += 1
    }
    checkInvariants()
    return Removal(entry: entry, fate: fate)
  }

  /// Removes every entry with this key, counting them as cancelled.
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

  /// Removes every entry for which `shouldRemove` holds, counting them as cancelled.
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

  /// Takes a straggler out, keeping its place until the places of stragglers that left are as many as
  /// those pending (then they are dropped at once: amortised O(1), and the array stays proportional to
  /// the pending stragglers).
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

  /// Counts an entry that left the list, wherever it was kept.
  @inline(__always)
  private mutating func countLeaving(_ entry: Entry) {
    statistics.pending -= 1
    if entry.canBeStale { staleCandidates -= 1 }
    if entry.isDiscardable { discardables -= 1 }
  }

  /// Drops every slot of a ring with no live entry left.
  private mutating func emptyRing() {
    // Keep the storage (up to 65,536 entries, a few MB) so that the next burst of additions appends
    // without growing the buffer again (growing faulted fresh pages in: a third of `addTask`).
    baseSeq = nextSeq
    slots.removeAll(keepingCapacity: slots.capacity <= 65536)
    keyHashes.removeAll(keepingCapacity: keyHashes.capacity <= 65536)
    head = 0
  }

  /// Compacts a sparse ring: keeps its tail from the oldest live slot from which on at least half the
  /// slots are live (none: nothing is kept), moves the live entries before that tail to the stragglers,
  /// oldest first, and drops the slots before it. The ring left is at most twice its live entries, and the
  /// entries moved are at most one for every `compaction.sparseness - 1` slots dropped.
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

  /// The accounting identity and the storage invariants, checked in debug builds
  /// (`IDLEWORK_INTERNAL_CHECKS`) after every mutation.
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

  /// Checks every place of a small list (walking them all after every mutation of a large one would make
  /// debug builds quadratic): stragglers sorted, below the ring and counted; ring slots in step with their
  /// sequence numbers; the pending count their sum.
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
