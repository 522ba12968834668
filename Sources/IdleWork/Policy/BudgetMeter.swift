/// Tracks what one pass has spent against a ``IdleQueue/Budget``.
///
/// Pure value: time comes in as nanoseconds from the injected clock, so tests step it exactly.
struct BudgetMeter {
  let budget: IdleQueue.Budget
  let start: UInt64
  private(set) var tasksRun = 0

  init(_ budget: IdleQueue.Budget, start: UInt64) {
    self.budget = budget
    self.start = start
  }

  /// Records one task (or one slice of a resumable task) that ran. Stale skips are not recorded.
  mutating func recordTask() { tasksRun += 1 }

  /// Whether another task may start at time `now`.
  func allowsAnother(now: UInt64) -> Bool {
    switch budget {
    case .tasks(let limit):
      return tasksRun < limit
    case .seconds(let seconds):
      if tasksRun == 0 { return true }
      let elapsed = now &- start
      return Double(elapsed) < seconds * 1e9
    }
  }
}
