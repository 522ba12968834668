import Foundation

@testable import IdleWork
@testable import IdleWorkPreparation
@testable import IdleWorkTesting

/// The size of a long run (soak, fuzz, model check, stress): `full` when `IDLEWORK_FULL_TESTS=1` (CI sets it),
/// else `quick`, so that a plain `swift test` takes well under a minute; `variable`, when set, overrides both.
func testScale(_ variable: String, full: Int, quick: Int) -> Int {
  let environment = ProcessInfo.processInfo.environment
  if let text = environment[variable], let value = Int(text) { return value }
  return environment["IDLEWORK_FULL_TESTS"] == "1" ? full : quick
}

/// A cell as a table view would reuse it. IdleWork needs nothing from it: any class will do.
final class FakeCell {}

/// `IndexPath(row:section:)` is a UIKit addition; on Linux build it from its indexes.
func row(_ row: Int, section: Int = 0) -> IndexPath {
  IndexPath(indexes: [section, row])
}

/// Detects when an object is freed.
final class Probe {}

/// A queue on a manual driver, with the driver, for stepping passes exactly.
@MainActor
func manualQueue(budget: IdleQueue.Budget = .tasks(1), maximumQueueLength: Int = 30) -> (IdleQueue, ManualPassDriver) {
  let driver = ManualPassDriver()
  return (
    IdleQueue(driver: driver, configuration: .init(budget: budget, maximumQueueLength: maximumQueueLength)), driver
  )
}

/// Test-only equality: the public types need none, the tests compare whole values.
extension IdleQueue.Statistics: Equatable {
  /// Every counter equal, the internal ones included.
  public static func == (a: Self, b: Self) -> Bool {
    [a.added, a.executed, a.slicesRun, a.skippedAsStale, a.evicted, a.cancelled, a.pending, a.passes]
      == [b.added, b.executed, b.slicesRun, b.skippedAsStale, b.evicted, b.cancelled, b.pending, b.passes]
      && a.longestPassDuration == b.longestPassDuration
  }
}

/// Test-only equality of budgets.
extension IdleQueue.Budget: Equatable {
  /// The same case with the same value.
  public static func == (a: Self, b: Self) -> Bool {
    switch (a, b) {
    case (.tasks(let x), .tasks(let y)): return x == y
    case (.seconds(let x), .seconds(let y)): return x == y
    default: return false
    }
  }
}

extension IdleQueue.Statistics {
  /// Adds another queue's counters (the longest pass is the longer of the two), for totals over many
  /// sequences.
  mutating func add(_ other: IdleQueue.Statistics) {
    added += other.added
    executed += other.executed
    slicesRun += other.slicesRun
    skippedAsStale += other.skippedAsStale
    evicted += other.evicted
    cancelled += other.cancelled
    pending += other.pending
    passes += other.passes
    longestPassDuration = max(longestPassDuration, other.longestPassDuration)
  }
}

/// A non-Sendable value carried into a `prepare` that never touches it off the main thread (tests only).
final class UncheckedBox<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}

extension QueueCore {
  /// The queue's preparation half, if it has one, for tests that look into it.
  var preparation: QueuePreparation? { client as? QueuePreparation }

  /// The queue's preparation half, made if it has none.
  func preparationMade() -> QueuePreparation { QueuePreparation.of(self) }
}
