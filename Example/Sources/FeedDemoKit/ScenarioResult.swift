/// Figures from one run of the feed scenario: one strategy, one profile, one refresh rate.
struct ScenarioResult: Sendable {
  /// Who ran and where.
  var strategy: StrategyKind
  var profile: Profile
  var refreshHz: Int
  /// Every metric's value; `.infinity` stands for "never" (content never complete).
  var values: [ScenarioMetric: Double]
  /// Per committed frame, for the chart: seconds since the run began, vsync → commit end in ms, dropped.
  var chart: [(time: Double, latencyMs: Double, dropped: Int)] = []
  /// Phase boundaries for the chart, seconds since the run began.
  var phaseSpans: [(phase: Phase, start: Double, end: Double)] = []

  /// The value of `metric` (0 if absent).
  subscript(metric: ScenarioMetric) -> Double { values[metric] ?? 0 }
}
