/// Tracks what one pass has spent against a ``IdleQueue/Budget``. Pure value: time is nanoseconds from the
/// injected clock.
struct BudgetMeter {
  let budget: IdleQueue.Budget
  let start: UInt64
  private(set) var tasksRun = 0

  init(_ budget: IdleQueue.Budget, start: UInt64) {
    self.budget = budget
    self.start = start
  }

  /// Records one task or slice that ran (stale skips are not recorded).
  mutating func recordTask() { tasksRun += 1 }

  /// Whether another task, predicted to take `predicted` nanoseconds, may start at `now`. With `.seconds`, the
  /// first always starts and a later one only if predicted to end within the budget, so a pass overruns it by
  /// no more than a prediction's error.
  func allowsAnother(now: UInt64, predicted: UInt64 = 0) -> Bool {
    switch budget {
    case .tasks(let limit):
      return tasksRun < limit
    case .seconds(let seconds):
      if tasksRun == 0 { return true }
      let elapsed = Double(now &- start)
      let limit = seconds * 1e9
      return elapsed < limit && elapsed + Double(predicted) <= limit
    }
  }

  /// Nanoseconds left of a `.seconds` budget at `now` (0 when spent); `nil` for `.tasks`.
  func timeLeft(now: UInt64) -> UInt64? {
    guard case .seconds(let seconds) = budget else { return nil }
    let left = seconds * 1e9 - Double(now &- start)
    return left > 0 ? UInt64(min(left, Double(UInt64.max / 2))) : 0
  }
}
