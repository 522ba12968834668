/// The scenario's numbers, full and quick, chosen for about 1.5 s per feed run: the full run (4 profiles ×
/// 2 rates × 3 runs × 10 strategies, plus throughput) is sized for under 10 minutes on a 2-core machine.
/// With 11 strategies, a 0.8 s fill timeout and a 0.5 s rest timeout it took 12 min 18 s there (2026-11-21).
struct ScenarioSettings: Sendable {
  /// `UIScrollView.DecelerationRate.fast` (0.99 per ms): a fling of ~40 rows stops in ~0.7 s, and its slow
  /// tail (under 500 pt/s for its last ~0.23 s) still brings rows in.
  var decelerationRate = 0.99
  /// Velocity below which the deceleration ends, pt/s.
  var stopVelocity = 50.0
  /// Slow drag speed in rows per second, and its duration in seconds.
  var dragRowsPerSecond = 2.0
  var dragSeconds = 0.4
  /// The idle measurement window, s.
  var idleSeconds = 0.2
  /// The longest the fill waits for the screen to complete, s (it ends earlier once nothing more can
  /// come); content not complete by then is reported as never (JSON `null`). DWU, which wakes only on its
  /// 0.1 s timer at rest, fills 10 draws a second and so never makes it.
  var fillTimeout = 0.6
  /// The longest the rest phase waits for the strategy to empty its queue, s; what it still holds then is
  /// counted (`pendingAtIdleStart`) and discarded before the idle window, so idle measures an empty queue.
  /// (IdleWork keeps an off-screen cell's parked draws pending, and DWU drains 10 a second: both wait it out.)
  var restTimeout = 0.25
  /// Reload profile: how long after the scroll's stop the data changes, s ("while images are still
  /// filling": ~15 of the 63 visible draws have run by then under a policy that draws at rest).
  var reloadDelaySeconds = 0.03
  /// Throughput: tasks handed over in one frame; tasks handed over in batches, and the batch size; each
  /// task's cost in µs; how long a workload may run; how long frames keep being counted after the last task.
  var oneFrameTasks = 20_000
  var batchedTasks = 6_000
  var batchSize = 200
  var throughputTaskMicroseconds = 20.0
  var throughputTimeout = 0.8
  var throughputTailSeconds = 0.1
  /// Commit work in the throughput workloads, as a fraction of the period (the light profile's).
  var throughputCommitFraction = 0.25
  /// Enqueue-cost measurement: enqueues per repetition, and repetitions.
  var enqueueCount = 20_000
  var enqueueRepetitions = 5
  /// The feed's seed.
  var seed: UInt64 = 0x1D1E_3001

  /// The full run's numbers.
  static let full = ScenarioSettings()

  /// The CI smoke run: shorter timeouts, fewer throughput tasks (with the reload profile only, < 60 s).
  static var quick: ScenarioSettings {
    var settings = ScenarioSettings()
    settings.restTimeout = 0.25
    settings.oneFrameTasks = 2_000
    settings.batchedTasks = 1_000
    settings.throughputTimeout = 0.5
    settings.enqueueCount = 5_000
    settings.enqueueRepetitions = 3
    return settings
  }
}
