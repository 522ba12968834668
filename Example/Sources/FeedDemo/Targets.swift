/// Issue 3's targets for IdleWork (defaults unless stated) and issue 5's for the scrolling slack, checked
/// against the medians. A missed target is reported with its measured value, never hidden.
struct TargetCheck: Sendable {
  /// What is checked.
  let name: String
  /// The strategy and refresh rate it applies to ("throughput" for the throughput workload).
  let scope: String
  /// The measured value, as shown.
  let measured: String
  /// The limit, as shown.
  let limit: String
  let passed: Bool

  /// Checks every target that the run has the figures for.
  static func evaluate(scenarios: [Aggregate.Scenario], throughput: [(ThroughputResult, Double)]) -> [TargetCheck] {
    var checks: [TargetCheck] = []
    let byKey = Dictionary(
      scenarios.map { ("\($0.median.strategy.rawValue)@\($0.median.refreshHz)", $0) }, uniquingKeysWith: { a, _ in a })
    for scenario in scenarios where scenario.median.strategy == .idleWork {
      let r = scenario.median
      let scope = "idleWork @ \(r.refreshHz) Hz"
      let dropped = [Phase.fling, .fill, .slowDrag].reduce(0) { $0 + (r.droppedByPhase[$1] ?? 0) }
      checks.append(
        TargetCheck(
          name: "dropped frames in fling, fill and slow drag", scope: scope, measured: "\(dropped)", limit: "0",
          passed: dropped == 0))
      let ratio = scenario.contentRatio
      checks.append(
        TargetCheck(
          name: "contentCompleteMs / contentIdealMs", scope: scope, measured: ratio.map { fmt($0, 2) } ?? "never",
          limit: "<= 1.10", passed: (ratio ?? .infinity) <= 1.10))
      checks.append(
        TargetCheck(
          name: "stale executions", scope: scope, measured: "\(r.staleExecutions)", limit: "0",
          passed: r.staleExecutions == 0))
      checks.append(
        TargetCheck(
          name: "visible tasks evicted", scope: scope, measured: "\(r.visibleTasksEvicted)", limit: "0",
          passed: r.visibleTasksEvicted == 0))
      checks.append(
        TargetCheck(
          name: "idle wake-ups per second", scope: scope, measured: fmt(r.idleWakeupsPerSecond, 1), limit: "<= 1",
          passed: r.idleWakeupsPerSecond <= 1))
      checks.append(
        TargetCheck(
          name: "idle CPU ms per second", scope: scope, measured: fmt(r.idleCpuMsPerSecond, 2), limit: "<= 2",
          passed: r.idleCpuMsPerSecond <= 2))
    }
    for scenario in scenarios where scenario.median.strategy == .idleWorkSlack {
      let r = scenario.median
      let scope = "idleWorkSlack @ \(r.refreshHz) Hz"
      let dropped = [Phase.fling, .fill, .slowDrag].reduce(0) { $0 + (r.droppedByPhase[$1] ?? 0) }
      checks.append(
        TargetCheck(
          name: "dropped frames in fling, fill and slow drag", scope: scope, measured: "\(dropped)", limit: "0",
          passed: dropped == 0))
      if let dwu = byKey["dwu@\(r.refreshHz)"]?.median {
        let factor =
          r.blankCellSecondsSlowDrag > 0 ? dwu.blankCellSecondsSlowDrag / r.blankCellSecondsSlowDrag : .infinity
        checks.append(
          TargetCheck(
            name: "blank-cell s in slow drag, DWU / slack", scope: scope,
            measured: "\(fmt(dwu.blankCellSecondsSlowDrag, 3)) / \(fmt(r.blankCellSecondsSlowDrag, 3)) = "
              + (factor.isFinite ? "\(fmt(factor, 1))x" : "inf"),
            limit: ">= 5x", passed: factor >= 5))
      }
    }
    for (result, ratio) in throughput where result.strategy == .idleWork4ms {
      checks.append(
        TargetCheck(
          name: "throughput / ideal at 0 dropped frames", scope: "idleWork4ms, throughput @ 120 Hz",
          measured: "\(fmt(ratio, 2)), \(result.droppedFrames) dropped", limit: ">= 0.90, 0 dropped",
          passed: ratio >= 0.90 && result.droppedFrames == 0))
    }
    return checks
  }
}

/// `value` with `digits` decimals.
func fmt(_ value: Double, _ digits: Int) -> String {
  guard value.isFinite else { return value > 0 ? "inf" : "-" }
  var result = String(Int64((abs(value) * pow10(digits)).rounded()))
  if digits > 0 {
    while result.count <= digits { result = "0" + result }
    result.insert(".", at: result.index(result.endIndex, offsetBy: -digits))
  }
  return (value < 0 && result.contains(where: { $0 != "0" && $0 != "." }) ? "-" : "") + result
}

private func pow10(_ n: Int) -> Double { (0..<n).reduce(1.0) { acc, _ in acc * 10 } }
