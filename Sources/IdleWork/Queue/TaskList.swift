/// Whether a pending entry may run now, as the caller's predicate judges it.
enum EntryState: Sendable, Hashable {
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
enum TaskFate: Sendable, Hashable {
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
struct TaskList<Payload> {
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
  struct Straggler {
    let seq: UInt64
    /// `entry.key.hash`, for cancel-by-key.
    let keyHash: Int
    var entry: Entry?
  }

  /// What ``firstRunnable(from:below:state:)`` does with one entry: return it, stop, pass over it, or drop it and
  /// scan again after it.
  enum ScanStep {
    case found(Entry)
    case horizon
    case next
    case restart
  }

  struct Removal {
    let entry: Entry
    let fate: TaskFate
  }

  /// The maximum number of pending entries; `0...Int.max`.
  var capacity: Int
  // Storage and counts, touched only by `TaskList` and its `+Storage` extension.
  var statistics = IdleQueue.Statistics()

  var slots: [Entry?] = []
  /// `slots[i]?.key.hash` for the first `keyHashes.count` slots (the rest are not hashed yet).
  var keyHashes: [Int] = []
  var head = 0
  var baseSeq: UInt64 = 0
  var nextSeq: UInt64 = 0
  var staleCandidates = 0
  /// Pending discardable entries, so an overflow looks for them only when there are some.
  var discardables = 0
  /// Entries moved out of a sparse ring (below `baseSeq`), oldest first, with places of those that left.
  var stragglers: [Straggler] = []
  /// The index of the oldest pending straggler; `stragglers.count` if none.
  var stragglerHead = 0
  var stragglerCount = 0
  /// When the ring compacts; tests lower it so short sequences exercise the stragglers.
  var compaction = Compaction.standard

  init(capacity: Int) {
    self.capacity = capacity
  }

  var count: Int { statistics.pending }
  var isEmpty: Bool { statistics.pending == 0 }

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
  func stragglerIndex(_ seq: UInt64) -> Int? {
    let index = stragglerLowerBound(seq)
    return index < stragglers.count && stragglers[index].seq == seq ? index : nil
  }

  /// The index of the first straggler numbered `seq` or later (`stragglers.count` if none), by binary search.
  func stragglerLowerBound(_ seq: UInt64) -> Int {
    var low = stragglerHead
    var high = stragglers.count
    while low < high {
      let middle = low + (high - low) / 2
      if stragglers[middle].seq < seq { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// Calls `body` with each pending entry in FIFO order (stragglers, then the ring) while it returns `true`.
  func forEachPending(_ body: (Entry) -> Bool) {
    for straggler in stragglers[stragglerHead...] {
      if let entry = straggler.entry, !body(entry) { return }
    }
    for case let entry? in slots[head...] {
      if !body(entry) { return }
    }
  }

  /// The slot of sequence number `seq`, if it is still in the ring (the slot may be empty).
  func slotIndex(_ seq: UInt64) -> Int? {
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

  mutating func skipAsStale(_ seq: UInt64) -> Removal? { remove(seq, as: .stale) }

  mutating func cancel(_ seq: UInt64) -> Removal? { remove(seq, as: .cancelled) }

  mutating func evict(_ seq: UInt64) -> Removal? { remove(seq, as: .evicted) }

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
}
