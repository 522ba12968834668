import Foundation

/// Prepared results kept by content, so a row shown again — or reloaded with the same content — is applied at
/// once, inside `cellForRowAt`, instead of flashing blank. Main thread only.
///
/// Bounded in bytes; past it the least recently used results go, but not pinned ones (tasks still to apply them
/// hold them, so evicting would free nothing). It keeps ``room`` for the results on their way from workers, which
/// exist before it sees them. Emptied when memory is short.
///
/// Every operation is O(1), since it runs at each arrival and in `cellForRowAt` and may hold tens of thousands of
/// results: a dictionary into an intrusive doubly linked list of slots ordered by use (no object per result).
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
    /// order of use, so it is never evicted while alive in those tasks.
    var pins = 0
    /// Which filling of the slot this is: a ``Pin`` on an earlier result kept here releases nothing of this one.
    var generation = 0
    /// The neighbour used more recently (towards `newest`).
    var newer: Int
    /// The neighbour used less recently (towards `oldest`).
    var older: Int
  }

  /// The most bytes kept; `0` keeps nothing.
  let limit: Int
  /// How many results on their way to the cache it keeps room for: two per worker.
  let reservedResults: Int
  /// The largest result seen, in bytes: what each result on its way is reckoned at.
  private(set) var largestResult = 0
  /// The bytes kept at most after an insertion or an unpin (unless pinned results alone exceed it): the limit less
  /// ``reservedResults`` of the largest size, and less at most a quarter of the limit.
  var room: Int {
    let reserved = reservedResults.multipliedReportingOverflow(by: largestResult)
    return limit - min(reserved.overflow ? limit : reserved.partialValue, limit / 4)
  }
  /// The slot of each kept result.
  private var index: [PreparedContent: Int] = [:]
  private var slots: [Slot] = []
  private var freeSlots: [Int] = []
  /// The most recently used slot, or `noSlot`.
  private var newest = noSlot
  /// The least recently used slot — the next to go — or `noSlot`.
  private var oldest = noSlot
  private(set) var bytes = 0
  /// How many entries were linked or unlinked so far: tests check each operation adds a constant.
  private(set) var entriesTouched = 0
  /// Prefetched results that left the cache before any task used them (`IdleQueue.Statistics.wastedPreparations`).
  private(set) var unusedPrefetchesDropped = 0

  private var nextGeneration = 0

  /// A pin on one filling of a slot, released by ``unpin(_:)``; releasing it after the result went does nothing.
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

  /// Marks the result kept for `content` most recently used without counting it used; returns whether one is
  /// kept. A prefetch of kept content does this: the row is about to appear, so its result should outlast others.
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

  /// Keeps `value` for `content` as the most recently used, replacing an older one, and evicts down to ``room``.
  ///
  /// A value larger than ``room`` is not kept and evicts nothing (it would empty the cache for one result), but an
  /// older value for the content still goes: the cache never answers with a result older than the last arrived.
  func insert(_ value: any Sendable, bytes: Int, for content: PreparedContent, prefetched: Bool = false) {
    guard limit > 0 else {
      if prefetched { unusedPrefetchesDropped += 1 }
      return
    }
    let bytes = max(bytes, 0)
    // An older result goes, pinned or not: its pins were taken on it, not on the new one.
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

  /// Tasks are to apply the result kept for `content` (if any): it stays, counted, until every pin on it is
  /// released with ``unpin(_:)``.
  func pin(_ content: PreparedContent) -> Pin? {
    guard !index.isEmpty, let slot = index[content] else { return nil }
    if slots[slot].pins == 0 { unlink(slot) }
    slots[slot].pins += 1
    return Pin(slot: slot, generation: slots[slot].generation)
  }

  /// The tasks of a ``pin(_:)`` have applied the result or left: with no pin left it becomes the most recently
  /// used and evictable, and the cache evicts down to ``room``.
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
