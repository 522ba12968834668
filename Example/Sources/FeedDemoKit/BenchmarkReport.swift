/// Everything one invocation measured, ready for the table, the JSON document and the chart.
struct BenchmarkReport {
  /// How the run was invoked.
  let command: String
  let options: Options
  let settings: ScenarioSettings
  let machine: MachineInfo
  /// Median time of one image draw, measured before the runs.
  let imageDrawMs: Double
  /// Kernel iterations of one throughput task, and the measured mean task time.
  let taskIterations: Int
  /// Feed scenario medians, by refresh rate then strategy.
  let scenarios: [Aggregate.Scenario]
  /// Throughput medians with the median of the per-run ratio to ideal.
  let throughput: [(result: ThroughputResult, ratio: Double)]
  let targets: [TargetCheck]
  let elapsedSeconds: Double
}
