import TestHelpers
import XCTest

@testable import IdleWork

/// Seeded random operations on a bare ``TaskList``, with compaction thresholds low enough that a few
/// entries make a sparse ring, compared after every operation with a plain array that follows the documented
/// policy. It reaches what the queue-level model check (``PolicyModelCheckTests``) cannot: entries parked or
/// preparing for long at the head while later ones come and go — the case that moves entries out to the
/// stragglers — and the whole eviction order (stale, parked, discardable, oldest).
///
/// `IDLEWORK_TASKLIST_SEED=<n>` replays one sequence.
final class TaskListModelTests: XCTestCase {
  static let sequenceCount: UInt64 = 1000

  func testTaskListMatchesAPlainArray() {
    var stragglerSequences = 0
    if let text = ProcessInfo.processInfo.environment["IDLEWORK_TASKLIST_SEED"], let seed = UInt64(text) {
      var checker = Checker(seed: seed)
      if let problem = checker.run() { XCTFail("seed \(seed): \(problem)") }
      return
    }
    for seed in 0..<Self.sequenceCount {
      var checker = Checker(seed: seed)
      if let problem = checker.run() {
        return XCTFail(
          "seed \(seed): \(problem)\nreplay with: IDLEWORK_TASKLIST_SEED=\(seed) swift test --filter TaskListModelTests"
        )
      }
      if checker.sawStragglers { stragglerSequences += 1 }
    }
    // The point of the test: most sequences must have kept entries out of the ring.
    XCTAssertGreaterThan(stragglerSequences, Int(Self.sequenceCount) / 2, "sequences that moved stragglers out")
  }

  /// One entry of the plain model.
  struct ModelEntry: Equatable {
    let seq: UInt64
    let key: Int
    let canBeStale: Bool
    let isDiscardable: Bool
  }

  /// One sequence: the list, the model, and the states both consult (by sequence number).
  struct Checker {
    var rng: SeededGenerator
    var list: TaskList<UInt64>
    var entries: [ModelEntry] = []
    var states: [UInt64: EntryState] = [:]
    var statistics = IdleQueue.Statistics()
    var capacity: Int
    var nextSeq: UInt64 = 0
    var sawStragglers = false

    init(seed: UInt64) {
      rng = SeededGenerator(seed: seed)
      capacity = rng.pick([3, 6, 12, Int.max])
      list = TaskList(capacity: capacity)
      list.compaction = TaskList.Compaction(minimumLength: rng.pick([2, 4, 16]), sparseness: rng.pick([3, 4, 8]))
    }

    mutating func run() -> String? {
      for step in 0..<rng.int(20...300) {
        let (description, problem) = apply()
        if let problem { return "step \(step) (\(description)): \(problem)" }
        if let problem = compare() { return "after step \(step) (\(description)): \(problem)" }
        if list.pendingStragglers > 0 { sawStragglers = true }
      }
      return nil
    }

    func state(_ seq: UInt64) -> EntryState { states[seq] ?? .runnable }

    // MARK: Operations

    /// Applies one random operation to both; returns its description and a difference in what they returned.
    mutating func apply() -> (String, String?) {
      let roll = rng.int(0...99)
      switch roll {
      case 0..<30:
        return appendOne()
      case 30..<45:
        // Append and run at once: later entries come and go while older ones stay pinned.
        let (description, problem) = appendOne()
        if problem != nil { return (description, problem) }
        let seq = nextSeq - 1
        return (description + ", takeForRun", compareTaken(list.takeForRun(seq)?.seq, modelTake(seq, as: .executed)))
      case 45..<55:
        guard let seq = pendingSeq() else { return ("no state change", nil) }
        let newState = rng.pick([EntryState.runnable, .runnable, .parked, .preparing, .stale])
        if entries.first(where: { $0.seq == seq })!.canBeStale { states[seq] = newState }
        return ("state of \(seq) := \(newState)", nil)
      case 55..<70:
        let start: UInt64? = rng.chance(50) ? nil : UInt64(rng.int(0...Int(nextSeq)))
        let horizon: UInt64 = rng.chance(50) ? .max : UInt64(rng.int(0...Int(nextSeq)))
        let states = self.states
        let real = list.firstRunnable(from: start, below: horizon, state: { states[$0] ?? .runnable })
        let model = modelFirstRunnable(from: start ?? 0, below: horizon)
        let description = "firstRunnable(from: \(start.map(String.init) ?? "head"), below: \(horizon))"
        if real.entry?.seq != model.entry || real.skipped.map(\.entry.seq) != model.skipped.map(\.0)
          || real.skipped.map(\.fate) != model.skipped.map(\.1) || real.reachedHorizon != model.reachedHorizon
        {
          return (
            description,
            "real \(String(describing: real.entry?.seq)) skipped \(real.skipped.map { ($0.entry.seq, $0.fate) }) "
              + "horizon \(real.reachedHorizon); model \(String(describing: model.entry)) skipped \(model.skipped) "
              + "horizon \(model.reachedHorizon)"
          )
        }
        return (description, nil)
      case 70..<78:
        let seq = anySeq()
        let finished = rng.chance(50)
        statistics.slicesRun += 1
        let real = list.recordSlice(seq, finished: finished)
        let model: UInt64? = finished ? modelTake(seq, as: .executed, countsSlice: false) : nil
        return ("recordSlice(\(seq), finished: \(finished))", compareTaken(real?.entry.seq, model))
      case 78..<86:
        let seq = anySeq()
        let cancels = rng.chance(50)
        let real = cancels ? list.cancel(seq) : list.skipAsStale(seq)
        let fate: TaskFate = cancels ? .cancelled : .stale
        let model = modelTake(seq, as: fate)
        return ("remove \(seq) as \(fate)", compareTaken(real?.entry.seq, model))
      case 86..<90:
        let key = rng.int(0...3)
        let real = list.cancel(key: TaskKey(key)).map(\.entry.seq)
        let model = entries.filter { $0.key == key }.map(\.seq)
        for seq in model { _ = modelTake(seq, as: .cancelled) }
        return ("cancel(key: \(key))", real == model ? nil : "real \(real), model \(model)")
      case 90..<93:
        let discardableOnly = rng.chance(50)
        let real = list.cancelAll(where: { !discardableOnly || $0.isDiscardable }).map(\.entry.seq)
        let model = entries.filter { !discardableOnly || $0.isDiscardable }.map(\.seq)
        for seq in model { _ = modelTake(seq, as: .cancelled) }
        return ("cancelAll(discardable only: \(discardableOnly))", real == model ? nil : "real \(real), model \(model)")
      case 93..<96:
        let states = self.states
        let real = list.purgeStale(state: { states[$0] ?? .runnable }).map { ($0.entry.seq, $0.fate) }
        let model = modelPurgeStale()
        return (
          "purgeStale",
          real.map(\.0) == model.map(\.0) && real.map(\.1) == model.map(\.1) ? nil : "real \(real), model \(model)"
        )
      default:
        capacity = rng.pick([0, 2, 3, 6, 12, Int.max])
        list.capacity = capacity
        let states = self.states
        let real = list.trim(state: { states[$0] ?? .runnable }).map { ($0.entry.seq, $0.fate) }
        let model = modelTrim()
        return (
          "capacity := \(capacity)",
          real.map(\.0) == model.map(\.0) && real.map(\.1) == model.map(\.1) ? nil : "real \(real), model \(model)"
        )
      }
    }

    mutating func appendOne() -> (String, String?) {
      let key = rng.int(0...3)
      let canBeStale = rng.chance(60)
      let isDiscardable = rng.chance(30)
      let seq = nextSeq
      nextSeq += 1
      if canBeStale { states[seq] = rng.pick([EntryState.runnable, .parked, .parked, .preparing]) }
      let states = self.states
      let real = list.append(
        key: TaskKey(key), payload: seq, canBeStale: canBeStale, isDiscardable: isDiscardable,
        state: { states[$0] ?? .runnable })
      entries.append(ModelEntry(seq: seq, key: key, canBeStale: canBeStale, isDiscardable: isDiscardable))
      statistics.added += 1
      statistics.pending += 1
      let model = entries.count > capacity ? modelTrim() : []
      let description =
        "append #\(seq) key \(key)\(canBeStale ? " \(state(seq))" : "")\(isDiscardable ? " discardable" : "")"
      if real.seq != seq { return (description, "sequence number \(real.seq), model \(seq)") }
      let removed = real.removed.map { ($0.entry.seq, $0.fate) }
      if removed.map(\.0) != model.map(\.0) || removed.map(\.1) != model.map(\.1) {
        return (description, "removed \(removed), model \(model)")
      }
      return (description, nil)
    }

    mutating func pendingSeq() -> UInt64? { entries.isEmpty ? nil : rng.pick(entries).seq }

    /// A pending entry's number mostly, else any number (possibly one that left or never was).
    mutating func anySeq() -> UInt64 {
      if let seq = pendingSeq(), rng.chance(80) { return seq }
      return UInt64(rng.int(0...Int(nextSeq)))
    }

    func compareTaken(_ real: UInt64?, _ model: UInt64?) -> String? {
      real == model ? nil : "took \(String(describing: real)), model \(String(describing: model))"
    }

    // MARK: The plain model

    /// Removes entry `seq` if pending, counting it under `fate`; returns its number if it was pending.
    mutating func modelTake(_ seq: UInt64, as fate: TaskFate, countsSlice: Bool = true) -> UInt64? {
      guard let index = entries.firstIndex(where: { $0.seq == seq }) else { return nil }
      entries.remove(at: index)
      statistics.pending -= 1
      switch fate {
      case .executed:
        statistics.executed += 1
        if countsSlice { statistics.slicesRun += 1 }
      case .stale: statistics.skippedAsStale += 1
      case .evicted: statistics.evicted += 1
      case .cancelled: statistics.cancelled += 1
      }
      return seq
    }

    func leavingFate(_ entry: ModelEntry) -> TaskFate? {
      guard entry.canBeStale else { return nil }
      switch state(entry.seq) {
      case .stale: return .stale
      default: return nil
      }
    }

    mutating func modelPurgeStale() -> [(UInt64, TaskFate)] {
      let leaving = entries.compactMap { entry in leavingFate(entry).map { (entry.seq, $0) } }
      for (seq, fate) in leaving { _ = modelTake(seq, as: fate) }
      return leaving
    }

    /// Stale first, then parked, then discardable, then the oldest.
    mutating func modelTrim() -> [(UInt64, TaskFate)] {
      guard entries.count > capacity else { return [] }
      var removed = modelPurgeStale()
      let states = self.states
      for matches in [
        { (entry: ModelEntry) in entry.canBeStale && states[entry.seq] == .parked },
        { (entry: ModelEntry) in entry.isDiscardable },
        { (_: ModelEntry) in true },
      ] {
        while entries.count > capacity, let victim = entries.first(where: matches) {
          removed.append((modelTake(victim.seq, as: .evicted)!, .evicted))
        }
      }
      return removed
    }

    mutating func modelFirstRunnable(
      from start: UInt64, below horizon: UInt64
    ) -> (entry: UInt64?, skipped: [(UInt64, TaskFate)], reachedHorizon: Bool) {
      var skipped: [(UInt64, TaskFate)] = []
      for entry in entries where entry.seq >= start {
        if entry.seq >= horizon { return (nil, skipped, true) }
        if let fate = leavingFate(entry) {
          skipped.append((modelTake(entry.seq, as: fate)!, fate))
          continue
        }
        if !entry.canBeStale || state(entry.seq) == .runnable { return (entry.seq, skipped, false) }
      }
      return (nil, skipped, false)
    }

    // MARK: Comparing

    func compare() -> String? {
      if list.statistics != statistics { return "statistics\n  real:  \(list.statistics)\n  model: \(statistics)" }
      let pending = list.pendingEntries.map(\.seq)
      if pending != entries.map(\.seq) { return "pending \(pending), model \(entries.map(\.seq))" }
      if list.first?.seq != entries.first?.seq {
        return "first \(String(describing: list.first?.seq)), model \(String(describing: entries.first?.seq))"
      }
      // Every pending entry, and the latest numbers (those that left are the likelier to be mistaken).
      let pendingSeqs = Set(entries.map(\.seq))
      let recent = (nextSeq >= 16 ? nextSeq - 16 : 0)...nextSeq
      for seq in pendingSeqs.union(recent) where list.contains(seq) != pendingSeqs.contains(seq) {
        return "contains(\(seq)) is \(list.contains(seq))"
      }
      return nil
    }
  }
}
