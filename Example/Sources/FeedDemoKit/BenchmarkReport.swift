/// Everything one invocation measured, ready for the table, the JSON document and the charts.
struct BenchmarkReport {
  /// One strategy's figures in one profile at one refresh rate.
  struct FeedFigure {
    let profile: Profile
    let refreshHz: Int
    let strategy: StrategyKind
    /// Median, min and max of every metric over the runs.
    let stats: [ScenarioMetric: Stat]
    /// The first run, for the chart.
    let firstRun: ScenarioResult
  }

  /// One strategy's figures in one throughput workload at one refresh rate.
  struct ThroughputFigure {
    let mode: ThroughputMode
    let refreshHz: Int
    let strategy: StrategyKind
    let stats: [ThroughputMetric: Stat]
  }

  /// How the run was invoked.
  let command: String
  let options: Options
  let settings: ScenarioSettings
  let machine: MachineInfo
  /// Median time of one plain image draw (one rasterisation), measured before the runs.
  let imageDrawMs: Double
  let feed: [FeedFigure]
  let throughput: [ThroughputFigure]
  /// Nanoseconds per enqueue per strategy, and for `Array.append`.
  let enqueue: [(strategy: StrategyKind, stat: Stat)]
  let arrayAppend: Stat?
  let elapsedSeconds: Double
  /// Other processes' average CPU use over the run, in cores (``MachineLoad``; `nil`: unknown).
  let otherCores: Double?

  /// The feed figures of `profile` at `hz`, in strategy order.
  func feed(_ profile: Profile, _ hz: Int) -> [FeedFigure] {
    feed.filter { $0.profile == profile && $0.refreshHz == hz }
  }
}
