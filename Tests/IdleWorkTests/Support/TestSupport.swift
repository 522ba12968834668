import Foundation

@testable import IdleWork
@testable import IdleWorkTesting

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
