import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// Seeded random operation sequences applied in lock step to the real ``IdleQueue``
/// (on a manual pass driver and clock) and to ``ReferenceQueueModel``, compared after every operation —
/// executed order, pending count, every statistics field, the accounting identity, operation results,
/// handles, pass requests and which task closures are still alive.
///
/// Environment:
/// - `IDLEWORK_SEED=<n>` replays the one sequence with seed `n`, printing every operation.
/// - `IDLEWORK_MODEL_SEQUENCES=<n>` checks `n` sequences instead of 10,000 (`IDLEWORK_FULL_TESTS=1`) or 2,000.
/// - `IDLEWORK_MODEL_BASE_SEED=<n>` starts at seed `n` instead of the fixed default (explore new sequences).
final class PolicyModelCheckTests: XCTestCase {
  static let defaultBaseSeed: UInt64 = 0x1D1E_0000
  static let defaultSequenceCount = 10_000

  func testRealQueueMatchesTheReferenceModel() {
    MainActor.assumeIsolated {
      let environment = ProcessInfo.processInfo.environment
      if let text = environment["IDLEWORK_SEED"] {
        guard let seed = UInt64(text) else { return XCTFail("IDLEWORK_SEED=\(text) is not an unsigned integer") }
        if let divergence = Self.check(ModelSequence.generate(seed: seed), trace: true) {
          XCTFail(divergence.description)
        }
        return
      }
      let count = testScale("IDLEWORK_MODEL_SEQUENCES", full: Self.defaultSequenceCount, quick: 2_000)
      let base = environment["IDLEWORK_MODEL_BASE_SEED"].flatMap { UInt64($0) } ?? Self.defaultBaseSeed
      let started = Date()
      var operations = 0
      var totals = IdleQueue.Statistics()
      var checked = 0
      var divergences = 0
      var stragglerSequences = 0
      for index in 0..<count {
        let sequence = ModelSequence.generate(seed: base &+ UInt64(index))
        if let divergence = Self.check(sequence, trace: false) {
          XCTFail(divergence.description)
          divergences += 1
          break
        }
        checked += 1
        if Self.lastSawStragglers { stragglerSequences += 1 }
        operations += sequence.operations.count
        totals.add(Self.lastStatistics)
      }
      XCTAssertEqual(checked, count, "sequences checked")
      if count >= 1000 {
        XCTAssertGreaterThan(stragglerSequences, count / 200, "sequences whose task list kept entries out of its ring")
      }
      print(
        "model check: \(checked) sequences (seeds \(base)..<\(base &+ UInt64(count))), \(operations) operations, "
          + "\(divergences) divergences, \(stragglerSequences) with stragglers, totals: \(totals), "
          + String(format: "%.2f s", Date().timeIntervalSince(started)))
    }
  }

  /// A divergence between the real queue and the model, with what is needed to replay it.
  struct Divergence: CustomStringConvertible {
    let seed: UInt64
    let step: Int
    let operation: String
    let problem: String

    var description: String {
      "model divergence at seed \(seed), step \(step) (\(operation)): \(problem)\n"
        + "replay with: IDLEWORK_SEED=\(seed) swift test --filter PolicyModelCheckTests"
    }
  }

  /// The final statistics of the last sequence checked, for the summary (what the sequences exercised).
  @MainActor static var lastStatistics = IdleQueue.Statistics()
  /// Whether the last sequence checked had the task list keep entries out of its ring (stragglers).
  @MainActor static var lastSawStragglers = false

  /// The task list's compaction for a sequence: for even seeds, thresholds so low that a few pending tasks
  /// make a sparse ring, so that the stragglers' path (an entry left behind while later ones come and go)
  /// is compared with the model too; for odd seeds the standard one, which short sequences never reach.
  static func compaction(seed: UInt64) -> TaskList<QueuedTask>.Compaction {
    seed.isMultiple(of: 2) ? TaskList.Compaction(minimumLength: 2, sparseness: 3) : .standard
  }

  @MainActor
  static func check(_ sequence: ModelSequence, trace: Bool) -> Divergence? {
    let real = RealQueueUnderTest(
      budget: sequence.initialBudget, capacity: sequence.initialCapacity, compaction: compaction(seed: sequence.seed))
    lastSawStragglers = false
    var model = ReferenceQueueModel(budget: sequence.initialBudget, capacity: sequence.initialCapacity)
    var compared = 0
    if trace {
      print("seed \(sequence.seed): budget \(sequence.initialBudget), capacity \(sequence.initialCapacity)")
    }
    for (step, operation) in sequence.operations.enumerated() {
      let realResult = real.apply(operation)
      let modelResult = model.apply(operation)
      if trace {
        print("step \(step): \(operation) -> \(modelResult); executed \(model.log[compared...]); \(model.statistics)")
      }
      let problem = compare(
        real: real, model: model, realResult: realResult, modelResult: modelResult, compared: &compared,
        afterIdlePass: { if case .runPass = operation { return true } else { return false } }())
      if let problem {
        return Divergence(seed: sequence.seed, step: step, operation: operation.description, problem: problem)
      }
      if real.queue.core.list.pendingStragglers > 0 { lastSawStragglers = true }
    }
    lastStatistics = model.statistics
    return nil
  }

  @MainActor
  private static func compare(
    real: RealQueueUnderTest, model: ReferenceQueueModel, realResult: ModelResult, modelResult: ModelResult,
    compared: inout Int, afterIdlePass: Bool
  ) -> String? {
    if realResult != modelResult { return "result \(realResult), model \(modelResult)" }
    if real.log != model.log {
      return "executed \(real.log[min(compared, real.log.count)...]), model \(model.log[compared...])"
    }
    compared = model.log.count
    let statistics = real.queue.statistics
    if statistics != model.statistics { return "statistics\n  real:  \(statistics)\n  model: \(model.statistics)" }
    let s = statistics
    if s.added != s.executed + s.skippedAsStale + s.evicted + s.cancelled + s.pending || !s.isBalanced {
      return "accounting identity broken: \(s)"
    }
    if real.queue.pendingTaskCount != model.pendingCount {
      return "pendingTaskCount \(real.queue.pendingTaskCount), model \(model.pendingCount)"
    }
    if real.queue.maximumQueueLength != model.capacity || real.queue.budget != model.budget {
      return "settings \(real.queue.maximumQueueLength) \(real.queue.budget), model \(model.capacity) \(model.budget)"
    }
    if let problem = real.problems.first { return problem }
    let live = real.lifetimes.liveIDs
    let pending = model.aliveIDs
    if live != pending {
      return "task closures alive \(live.sorted()), but pending \(pending.sorted())"
        + (live.subtracting(pending).isEmpty ? "" : ": \(live.subtracting(pending).sorted()) outlived their fate")
    }
    for index in model.handles.indices.suffix(16) where real.isPending(handle: index) != model.isQueued(handle: index) {
      return "handle \(index) (task #\(model.handles[index])) isPending \(real.isPending(handle: index))"
    }
    if model.isInvalidated {
      if !real.driver.isStopped { return "invalidated, but the driver was not stopped" }
      return nil
    }
    if model.expectsPassRequest, model.pendingCount > 0, !real.driver.isPassRequested {
      return "\(model.pendingCount) tasks pending but no pass requested: they would be stranded"
    }
    if afterIdlePass, model.pendingCount == 0, real.driver.isPassRequested {
      // At most one spurious pass after the queue ran dry; it must change nothing and ask for no other.
      real.driver.runPass()
      if real.driver.isPassRequested { return "the queue is empty but keeps asking for passes" }
      if real.queue.statistics != model.statistics { return "an empty pass changed the statistics" }
    }
    return nil
  }
}
