import Foundation
import IdleWork

/// Prepared results kept by content, so a row shown again — or reloaded with the same content, or prefetched — is
/// applied at once, inside `cellForRowAt`, instead of flashing blank. Main thread only.
///
/// Bounded in bytes. Results a prefetch still wants (rows about to appear) are kept over every other, and among
/// themselves the rows that will appear sooner (a smaller place) over later ones: no other result pushes one out.
/// The others go least recently used first, and those whose prefetch was cancelled or passed before any of them.
/// Pinned results never go (tasks still to apply them hold them, so evicting would free nothing). It keeps ``room``
/// for the results on their way from workers, which exist before it sees them. Emptied when memory is short.
///
/// The order of use is O(1) per operation, since it runs at each arrival and in `cellForRowAt` and may hold tens of
/// thousands of results: a dictionary into an intrusive doubly linked list of slots (no object per result). Wanted
/// results are a set searched for the farthest only when one must go, which the prefetches' own wait for room
/// makes rare.
@MainActor
final class ResultCache {
  /// How a result is kept.
  enum Keeping: Equatable {
    /// Used, or made for a task: the most recently used.
    case used
    /// A prefetch wants it: kept over every used result.
    case wanted(Want)
    /// A prefetch made it and no longer wants it (cancelled, or its rows passed): the first to go.
    case unwanted
    /// Its last task left just before it arrived (a row reloaded, whose next task may apply it): the most recently
    /// used, yet counted wasted if it leaves unused.
    case awaited
  }

  /// Which prefetch calls want a result, and its place in the order rows will appear (smaller is sooner).
  struct Want: Equatable {
    /// The first call that asked for it: a row of this call is shown when its result is used.
    var firstCall: UInt64
    /// The last call that asked for it: its rows were passed only when a later call's row was shown.
    var lastCall: UInt64
    var place: Int
  }

  /// One kept result and its neighbours in the order of use (slot indices; `noSlot` past either end).
  struct Slot {
    var content: PreparedContent?
    var value: (any Sendable)?
    var bytes: Int
    /// A prefetched result no task has used yet: counted wasted if it goes unused.
    var unusedPrefetch = false
    /// The prefetch that wants it, if one does.
    var wanted: Want?
    /// Preparations whose tasks are still to apply this result (``pin(_:)``): while above 0 the slot is in neither the
    /// order of use nor the wanted set, so it is never evicted while alive in those tasks.
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
  var index: [PreparedContent: Int] = [:]
  var slots: [Slot] = []
  var freeSlots: [Int] = []
  /// The most recently used slot, or `noSlot`.
  var newest = noSlot
  /// The least recently used slot — the next to go — or `noSlot`.
  var oldest = noSlot
  /// The unpinned slots a prefetch wants, out of the order of use.
  var wantedSlots = Set<Int>()
  var bytes = 0
  /// Bytes of the unpinned wanted results, and of the pinned ones.
  var wantedBytes = 0
  var pinnedBytes = 0
  /// How many entries were linked or unlinked so far: tests check each operation adds a constant.
  var entriesTouched = 0
  /// Prefetched results that left the cache before any task used them (``Preparer/Statistics-swift.struct/wastedPreparations``).
  var unusedPrefetchesDropped = 0

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

  /// The bytes a prefetch's result may still take without pushing out a result a prefetch wants or a task holds.
  var prefetchRoom: Int { max(0, room - wantedBytes - pinnedBytes) }

  /// The bytes a result ranked before every wanted one may take (it may push them all out), and the nearest wanted
  /// result's place (`Int.max`: none).
  var roomBeforeWanted: (bytes: Int, before: Int) {
    let nearest = wantedSlots.lazy.map { self.slots[$0].wanted!.place }.min() ?? .max
    return (max(0, room - pinnedBytes), nearest)
  }

  /// The result kept for `content`, if any: it is used (the most recently used, wanted by no prefetch any more).
  func value(for content: PreparedContent) -> (any Sendable)? {
    guard !index.isEmpty, let slot = index[content] else { return nil }
    slots[slot].unusedPrefetch = false
    if slots[slot].wanted != nil {
      setWanted(slot, nil)
    } else if slots[slot].pins == 0, slot != newest {
      unlink(slot)
      linkAsNewest(slot)
    }
    return slots[slot].value
  }

  /// The first prefetch call that wants the result kept for `content`, if one does.
  func wantedCall(of content: PreparedContent) -> UInt64? {
    guard !index.isEmpty, let slot = index[content] else { return nil }
    return slots[slot].wanted?.firstCall
  }

  /// A prefetch asks for kept content: it is wanted from `call`, at the sooner of its places. Returns whether one is
  /// kept.
  @discardableResult
  func want(_ content: PreparedContent, call: UInt64, place: Int) -> Bool {
    guard !index.isEmpty, let slot = index[content] else { return false }
    var want = slots[slot].wanted ?? Want(firstCall: call, lastCall: call, place: place)
    (want.lastCall, want.place) = (max(want.lastCall, call), min(want.place, place))
    setWanted(slot, want)
    return true
  }

  /// No prefetch wants the result kept for `content` any more: it is the next to go.
  func unwant(_ content: PreparedContent) {
    guard !index.isEmpty, let slot = index[content], slots[slot].wanted != nil else { return }
    setWanted(slot, nil, asOldest: true)
  }

  /// The rows of every prefetch call before `call` were passed: their results are the next to go.
  func unwantCalls(before call: UInt64) {
    for slot in index.values {
      if let wanted = slots[slot].wanted, wanted.lastCall < call { setWanted(slot, nil, asOldest: true) }
    }
  }

  /// Moves `slot` between the wanted set and the order of use (as the newest, or the oldest).
  private func setWanted(_ slot: Int, _ wanted: Want?, asOldest: Bool = false) {
    let was = slots[slot].wanted != nil
    slots[slot].wanted = wanted
    guard slots[slot].pins == 0, was != (wanted != nil) else { return }
    if was {
      wantedSlots.remove(slot)
      wantedBytes -= slots[slot].bytes
      if asOldest { linkAsOldest(slot) } else { linkAsNewest(slot) }
    } else {
      unlink(slot)
      wantedSlots.insert(slot)
      wantedBytes += slots[slot].bytes
    }
  }

  /// Whether a result is kept for `content`, without using it.
  func contains(_ content: PreparedContent) -> Bool {
    !index.isEmpty && index[content] != nil
  }

  /// Keeps `value` for `content`, replacing an older one, and evicts down to ``room``: results no prefetch wants
  /// first, then — for a wanted value — wanted ones farther than itself, farthest first. If that is not enough the
  /// value is not kept; unless tasks hold it (`heldByTasks`: they pin it next), which keeps it beside the others,
  /// counted, since it is alive anyway.
  ///
  /// A value larger than ``room`` is not kept and evicts nothing (it would empty the cache for one result), but an
  /// older value for the content still goes: the cache never answers with a result older than the last arrived.
  func insert(
    _ value: any Sendable, bytes: Int, for content: PreparedContent, keeping: Keeping = .used, heldByTasks: Bool = false
  ) {
    let prefetched = keeping != .used
    guard limit > 0 else {
      if prefetched { unusedPrefetchesDropped += 1 }
      return
    }
    let bytes = max(bytes, 0)
    // An older result goes, pinned or not: its pins were taken on it, not on the new one.
    if let old = index.removeValue(forKey: content) { remove(old) }
    largestResult = max(largestResult, bytes)
    let room = self.room
    var wanted: Want?
    if case .wanted(let want) = keeping { wanted = want }
    guard bytes <= room, evict(downTo: room - bytes, fartherThan: wanted?.place ?? .max) || heldByTasks,
      self.bytes <= Int.max - bytes
    else {
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
    switch keeping {
    case .used, .awaited: linkAsNewest(slot)
    case .unwanted: linkAsOldest(slot)
    case .wanted(let want):
      slots[slot].wanted = want
      wantedSlots.insert(slot)
      wantedBytes += bytes
    }
  }

  /// Tasks are to apply the result kept for `content` (if any): it stays, counted, until every pin on it is
  /// released with ``unpin(_:)``.
  func pin(_ content: PreparedContent) -> Pin? {
    guard !index.isEmpty, let slot = index[content] else { return nil }
    if slots[slot].pins == 0 {
      if slots[slot].wanted != nil {
        wantedSlots.remove(slot)
        wantedBytes -= slots[slot].bytes
      } else {
        unlink(slot)
      }
      pinnedBytes += slots[slot].bytes
    }
    slots[slot].pins += 1
    return Pin(slot: slot, generation: slots[slot].generation)
  }

  /// The tasks of a ``pin(_:)`` have applied the result or left: with no pin left it becomes the most recently
  /// used (or wanted again) and evictable, and results no prefetch wants go until the cache is within ``room``.
  func unpin(_ pin: Pin) {
    guard pin.slot < slots.count, slots[pin.slot].generation == pin.generation, slots[pin.slot].pins > 0 else {
      return
    }
    let slot = pin.slot
    slots[slot].pins -= 1
    guard slots[slot].pins == 0 else { return }
    pinnedBytes -= slots[slot].bytes
    if slots[slot].wanted != nil {
      wantedSlots.insert(slot)
      wantedBytes += slots[slot].bytes
    } else {
      linkAsNewest(slot)
    }
    // Only results no prefetch wants go: the wanted ones stay, and pinned ones left beside them are next.
    evict(downTo: room, fartherThan: .max)
  }

  /// Drops every result (a memory warning), and the storage that held them.
  func removeAll() {
    for slot in index.values where slots[slot].unusedPrefetch { unusedPrefetchesDropped += 1 }
    index = [:]
    slots = []
    freeSlots = []
    wantedSlots = []
    newest = noSlot
    oldest = noSlot
    bytes = 0
    wantedBytes = 0
    pinnedBytes = 0
  }

  var count: Int { index.count }

  /// The contents kept, wanted ones first, nearest first, then the rest most recently used first (for tests: it
  /// walks everything).
  var contentsByKeeping: [PreparedContent] {
    var contents = wantedSlots.sorted { slots[$0].wanted!.place < slots[$1].wanted!.place }.map { slots[$0].content! }
    var slot = newest
    while slot != noSlot {
      contents.append(slots[slot].content!)
      slot = slots[slot].older
    }
    return contents
  }
}

/// The end of `ResultCache`'s list of slots.
let noSlot = -1
