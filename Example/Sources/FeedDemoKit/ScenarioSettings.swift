/// The scenario's numbers, full and quick.
struct ScenarioSettings: Sendable {
  /// Rows the fling travels: ~100, ending mid-row so that rows enter during the slow drag at 0.59 s,
  /// 1.59 s and 2.59 s rather than at its very end.
  var flingRows = 100.4
  /// `UIScrollView.DecelerationRate`: `.normal` (0.998 per ms) for the full run.
  var decelerationRate = 0.998
  /// Velocity below which the deceleration ends, pt/s.
  var stopVelocity = 50.0
  /// Slow drag speed in rows per second.
  var dragRowsPerSecond = 1.0
  /// Slow drag duration, s.
  var dragSeconds = 3.0
  /// The idle measurement window, s.
  var idleSeconds = 2.0
  /// The longest a rest phase waits for the screen to complete, s.
  var restTimeout = 5.0
  /// Throughput workload: tasks, their approximate cost in µs, the display link's rate, and the longest
  /// the workload may take, s.
  var throughputTasks = 20_000
  var throughputTaskMicroseconds = 20.0
  var throughputRefreshHz = 120
  var throughputTimeout = 3.0
  /// The feed's seed.
  var seed: UInt64 = 0x1D1E_3001

  /// The full scenario of issue 3.
  static let full = ScenarioSettings()

  /// A short smoke scenario for CI: a 30-row fling at `.fast` deceleration (0.99 per ms), a 1 s drag,
  /// 0.5 s idle, 2,000 throughput tasks.
  static var quick: ScenarioSettings {
    var settings = ScenarioSettings()
    settings.flingRows = 30.4
    settings.decelerationRate = 0.99
    settings.dragSeconds = 1
    settings.idleSeconds = 0.5
    settings.restTimeout = 2
    settings.throughputTasks = 2_000
    settings.throughputTimeout = 1
    return settings
  }
}
