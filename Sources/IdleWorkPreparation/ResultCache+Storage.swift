import IdleWork

/// The cache's storage: evicting down to a bound, removing an entry, and the recency list its slots are linked in.
extension ResultCache {
  /// Evicts until the bytes kept are at most `bound`, or only pinned results are left: the least recently used
  /// first, then wanted results farther than `place`, farthest first. Returns `false` if a wanted one at `place` or
  /// nearer would have had to go.
  @discardableResult
  func evict(downTo bound: Int, fartherThan place: Int) -> Bool {
    while bytes > bound, oldest != noSlot {
      let evicted = oldest
      index[slots[evicted].content!] = nil
      remove(evicted)
    }
    while bytes > bound {
      // Only pinned results left: they are alive anyway, so what comes is kept beside them.
      guard let farthest = wantedSlots.max(by: { slots[$0].wanted!.place < slots[$1].wanted!.place }) else {
        return true
      }
      guard slots[farthest].wanted!.place > place else { return false }
      index[slots[farthest].content!] = nil
      remove(farthest)
    }
    return true
  }

  /// Takes `slot` (already out of `index`) out of whatever holds it, empties it for reuse and takes its bytes off
  /// the totals.
  func remove(_ slot: Int) {
    if slots[slot].pins > 0 {
      pinnedBytes -= slots[slot].bytes
    } else if slots[slot].wanted != nil {
      wantedSlots.remove(slot)
      wantedBytes -= slots[slot].bytes
    } else {
      unlink(slot)
    }
    if slots[slot].unusedPrefetch { unusedPrefetchesDropped += 1 }
    bytes -= slots[slot].bytes
    slots[slot] = Slot(content: nil, value: nil, bytes: 0, newer: noSlot, older: noSlot)
    freeSlots.append(slot)
  }

  /// Takes `slot` out of the order of use, joining its neighbours.
  func unlink(_ slot: Int) {
    entriesTouched += 1
    let (newer, older) = (slots[slot].newer, slots[slot].older)
    if newer == noSlot { newest = older } else { slots[newer].older = older }
    if older == noSlot { oldest = newer } else { slots[older].newer = newer }
    slots[slot].newer = noSlot
    slots[slot].older = noSlot
  }

  /// Puts `slot` (unlinked) at the front of the order of use.
  func linkAsNewest(_ slot: Int) {
    entriesTouched += 1
    slots[slot].older = newest
    if newest == noSlot { oldest = slot } else { slots[newest].newer = slot }
    newest = slot
  }

  /// Puts `slot` (unlinked) at the back of the order of use: the next to go.
  func linkAsOldest(_ slot: Int) {
    entriesTouched += 1
    slots[slot].newer = oldest
    if oldest == noSlot { newest = slot } else { slots[oldest].older = slot }
    oldest = slot
  }
}
