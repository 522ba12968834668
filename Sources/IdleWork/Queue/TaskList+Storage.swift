/// The list's storage: taking an entry out of the ring or the stragglers, compacting a sparse ring, and the invariants
/// checked after every mutation.
extension TaskList {
  mutating func take(_ seq: UInt64) -> Entry? {
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
  mutating func countLeaving(_ entry: Entry) {
    statistics.pending -= 1
    if entry.canBeStale { staleCandidates -= 1 }
    if entry.isDiscardable { discardables -= 1 }
  }

  mutating func emptyRing() {
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
