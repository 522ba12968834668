import Foundation

/// Prepared results kept by content, so that a row shown again — or reloaded with the same content — is
/// applied at once, inside `cellForRowAt`, instead of flashing blank while its result is prepared again.
///
/// Bounded by a cost in bytes (each result's size as the caller reports it); past it the least recently
/// used results go — but not one that tasks are still to apply (pinned): evicting it would free nothing while
/// they hold it, so it stays counted, and others go instead. Emptied when memory is short. Main thread only.
///
/// **Room for the results on their way.** A result exists before the cache sees it: from the end of its render,
/// on a worker, until a pass takes it in. A full cache would then hold the limit *and* those results (3–5 photos
/// over a 32 MiB limit in FeedDemo's `photos`, on 2 workers). So the cache keeps ``reservedResults`` results'
/// worth of its limit free — each the size of the largest result it has seen, and in all at most a quarter of
/// the limit — and the results kept and those arriving stay within the limit while no more than that arrive
/// between two passes (with many workers and large results, the quarter binds first).
///
/// **Every operation is O(1)**, whatever the cache holds: it runs on the main thread at each arrival and in
/// `cellForRowAt`, and a feed may keep tens of thousands of small results (a sort by last use on every
/// arrival cost 52.8 ms with 20,000 kept). As in Nuke's memory cache, a dictionary finds a result's entry in
/// a doubly linked list ordered by use, most recent first: a lookup moves the entry to the front, an insertion
/// links a new one there, and eviction unlinks from the back. The list is intrusive — each entry holds the
/// indices of its neighbours, in one array of slots that freed slots are reused from — so it costs no object
/// per result, no reference counting on a move, and no recursive release of a long chain of nodes.
@MainActor
final class ResultCache {
  /// One kept result and its neighbours in the order of use (slot indices; `noSlot` past either end).
  private struct Slot {
    var content: PreparedContent?
    var value: (any Sendable)?
    var bytes: Int
    /// A prefetched result no task has used yet: counted wasted if it goes unused.
    var unusedPrefetch = false
    /// Renders whose tasks are still to apply this result (``pin(_:)``): while above 0 the slot is out of the
    /// order of use, so eviction never takes off the count a result that stays alive in those tasks.
    var pins = 0
    /// Which filling of the slot this is: a ``Pin`` taken on an earlier result kept here (since replaced,
    /// evicted or dropped on a memory warning) releases nothing of this one.
    var generation = 0
    /// The neighbour used more recently (towards `newest`).
    var newer: Int
    /// The neighbour used less recently (towards `oldest`).
    var older: Int
  }

  /// The most bytes kept; `0` keeps nothing.
  let limit: Int
  /// How many results on their way to the cache it keeps room for (see the type's comment): two per worker.
  let reservedResults: Int
  /// The largest result seen, in bytes: what each result on its way is reckoned at.
  private(set) var largestResult = 0
  /// The cache's own room: the bytes kept at most after an insertion or an unpin, unless pinned results alone
  /// exceed it — the limit less what is kept free for the results on their way, at most a quarter of the limit.
  var room: Int {
    let reserved = reservedResults.multipliedReportingOverflow(by: largestResult)
    return limit - min(reserved.overflow ? limit : reserved.partialValue, limit / 4)
  }
  /// The slot of each kept result.
  private var index: [PreparedContent: Int] = [:]
  /// The kept results, linked in the order of use, and the free slots between them.
  private var slots: [Slot] = []
  /// Slots that hold nothing, reused before `slots` grows.
  private var freeSlots: [Int] = []
  /// The most recently used slot, or `noSlot`.
  private var newest = noSlot
  /// The least recently used slot — the next to go — or `noSlot`.
  private var oldest = noSlot
  /// Bytes of the results kept now.
  private(set) var bytes = 0
  /// How many entries the operations so far linked or unlinked: each lookup, insertion and eviction adds a
  /// constant, never a count proportional to what the cache holds. Tests read it to check exactly that.
  private(set) var entriesTouched = 0
  /// Prefetched results that left the cache (evicted, replaced, dropped on a memory warning) before any task
  /// used them: preparations done for nothing (see `IdleQueue.Statistics.wastedPreparations`).
  private(set) var unusedPrefetchesDropped = 0

  /// The generation the next filled slot gets.
  private var nextGeneration = 0

  /// A pin on one kept result — the slot and the filling of it — that ``unpin(_:)`` releases. A pin outlives
  /// the result it was taken on harmlessly: releasing it then does nothing.
  struct Pin: Equatable {
    let slot: Int
    let generation: Int
  }

  init(limit: Int, reservedResults: Int = 0) {
    self.limit = limit
    self.reservedResults = reservedResults
  }

  /// The result kept for `content`, if any (it becomes the most recently used).
  func value(for content: PreparedContent) -> (any Sendable)? {
    guard !index.isEmpty, let slot = index[content] else { return nil }
    makeNewest(slot)
    slots[slot].unusedPrefetch = false
    return slots[slot].value
  }

  /// Marks the result kept for `content`, if any, as the most recently used — as a lookup does, but without
  /// counting it used (a prefetched result stays unused until a task applies it); returns whether one is kept.
  /// A prefetch of content already kept does this: the row is about to appear, so its result should outlast
  /// those of rows scrolled past.
  @discardableResult
  func touch(_ content: PreparedContent) -> Bool {
    guard !index.isEmpty, let slot = index[content] else { return false }
    makeNewest(slot)
    return true
  }

  /// Moves `slot` to the front of the order of use, unless it is there already or pinned (out of the order).
  private func makeNewest(_ slot: Int) {
    guard slot != newest, slots[slot].pins == 0 else { return }
    unlink(slot)
    linkAsNewest(slot)
  }

  /// Whether a result is kept for `content`, without using it.
  func contains(_ content: PreparedContent) -> Bool {
    !index.isEmpty && index[content] != nil
  }

  /// Keeps `value` for `content` as the most recently used, replacing an older one for it, and drops the least
  /// recently used results until the total is within the limit again, less the room kept for the results on
  /// their way (``room``).
  ///
  /// A value larger than ``room`` (the limit less what is kept free for the results on their way, reckoned with
  /// this value among those seen) is not kept and drops nothing else — keeping it would empty the cache for one result that cannot fit, and its own
  /// unpin would then evict it — but an older value for the same content still goes: the cache never answers
  /// with a result older than the one that arrived last. Nor is one kept whose bytes, beside pinned results that
  /// alone exceed the room, would overflow the count.
  func insert(_ value: any Sendable, bytes: Int, for content: PreparedContent, prefetched: Bool = false) {
    guard limit > 0 else {
      if prefetched { unusedPrefetchesDropped += 1 }
      return
    }
    let bytes = max(bytes, 0)
    // An older result for the content goes, pinned or not: its pins were taken on it, not on the new one (its
    // tasks still hold it, uncounted, until they apply it — the rare case of content prepared again meanwhile).
    if let old = index.removeValue(forKey: content) { remove(old) }
    largestResult = max(largestResult, bytes)
    let room = self.room
    guard bytes <= room else {
      if prefetched { unusedPrefetchesDropped += 1 }
      return
    }
    evictLeastRecentlyUsed(downTo: room - bytes)
    guard self.bytes <= Int.max - bytes else {
      if prefetched { unusedPrefetchesDropped += 1 }
      return
    }
    nextGeneration += 1
    let item = Slot(
      content: content, value: value, bytes: bytes, unusedPrefetch: prefetched, generation: nextGeneration,
      newer: noSlot, older: noSlot)
    let slot: Int
    if let free = freeSlots.popLast() {
      slot = free
      slots[slot] = item
    } else {
      slot = slots.count
      slots.append(item)
    }
    index[content] = slot
    self.bytes += bytes
    linkAsNewest(slot)
  }

  /// Tasks are to apply the result kept for `content` (if any): it stays, and counted, until the returned pin
  /// (and any other on it) is released with ``unpin(_:)``. O(1).
  func pin(_ content: PreparedContent) -> Pin? {
    guard !index.isEmpty, let slot = index[content] else { return nil }
    if slots[slot].pins == 0 { unlink(slot) }
    slots[slot].pins += 1
    return Pin(slot: slot, generation: slots[slot].generation)
  }

  /// The tasks of a ``pin(_:)`` have applied the result or left: when no pin is left on it, it becomes the most
  /// recently used, evictable again — and if pinned results had taken the cache over its limit (less the room
  /// kept for the results on their way, ``room``), the least recently used go until it is within it. A pin on a
  /// result no longer kept releases nothing. O(1) but for the evictions, each of which a result's insertion paid
  /// for.
  func unpin(_ pin: Pin) {
    guard pin.slot < slots.count, slots[pin.slot].generation == pin.generation, slots[pin.slot].pins > 0 else {
      return
    }
    let slot = pin.slot
    slots[slot].pins -= 1
    guard slots[slot].pins == 0 else { return }
    linkAsNewest(slot)
    evictLeastRecentlyUsed(downTo: room)
  }

  /// Bytes of the kept results that tasks are still to apply (pinned), for tests.
  var pinnedBytes: Int { index.values.reduce(0) { $0 + (slots[$1].pins > 0 ? slots[$1].bytes : 0) } }

  /// Drops every result (a memory warning), and the storage that held them.
  func removeAll() {
    for slot in index.values where slots[slot].unusedPrefetch { unusedPrefetchesDropped += 1 }
    index = [:]
    slots = []
    freeSlots = []
    newest = noSlot
    oldest = noSlot
    bytes = 0
  }

  var count: Int { index.count }

  /// The contents kept, most recently used first (for tests: it walks the whole list).
  var contentsByRecentUse: [PreparedContent] {
    var contents: [PreparedContent] = []
    var slot = newest
    while slot != noSlot {
      contents.append(slots[slot].content!)
      slot = slots[slot].older
    }
    return contents
  }

  /// Drops the least recently used results until the bytes kept are at most `bound`, or only pinned ones are left.
  private func evictLeastRecentlyUsed(downTo bound: Int) {
    while bytes > bound, oldest != noSlot {
      let evicted = oldest
      index[slots[evicted].content!] = nil
      remove(evicted)
    }
  }

  /// Unlinks `slot` (already out of `index`), empties it for reuse and takes its bytes off the total.
  private func remove(_ slot: Int) {
    if slots[slot].pins == 0 { unlink(slot) }  // a pinned slot is out of the order of use already
    if slots[slot].unusedPrefetch { unusedPrefetchesDropped += 1 }
    bytes -= slots[slot].bytes
    slots[slot] = Slot(content: nil, value: nil, bytes: 0, newer: noSlot, older: noSlot)
    freeSlots.append(slot)
  }

  /// Takes `slot` out of the order of use, joining its neighbours.
  private func unlink(_ slot: Int) {
    entriesTouched += 1
    let (newer, older) = (slots[slot].newer, slots[slot].older)
    if newer == noSlot { newest = older } else { slots[newer].older = older }
    if older == noSlot { oldest = newer } else { slots[older].newer = newer }
    slots[slot].newer = noSlot
    slots[slot].older = noSlot
  }

  /// Puts `slot` (unlinked) at the front of the order of use.
  private func linkAsNewest(_ slot: Int) {
    entriesTouched += 1
    slots[slot].older = newest
    if newest == noSlot { oldest = slot } else { slots[newest].newer = slot }
    newest = slot
  }
}

/// The end of `ResultCache`'s list of slots.
private let noSlot = -1
