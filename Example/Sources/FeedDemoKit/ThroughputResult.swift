/// The two throughput workloads: the same small tasks handed over all at once, or in steady batches.
enum ThroughputMode: String, CaseIterable, Sendable {
  /// Every task handed over inside one display-link frame (a bulk hand-over, such as a data-set import).
  case oneFrame
  /// A batch handed over in every frame until all are (a steady producer, such as a stream of prefetches).
  case batched
}

/// The throughput metrics, in report order.
enum ThroughputMetric: String, CaseIterable, Sendable {
  /// Tasks run per second over the window (first hand-over to last task's end, or to the timeout).
  case tasksPerSecond
  /// What the main thread could have run, the same for every strategy: the share of each period the
  /// nominal commit work leaves (1 − commit fraction), over the task's cost measured in isolation, per
  /// second — and, batched, no more than the producer allows (all tasks over the time from the first
  /// hand-over to the last batch's hand-over plus that batch's isolated cost).
  case idealTasksPerSecond
  /// `tasksPerSecond / idealTasksPerSecond`.
  case ratioToIdeal
  /// Frames dropped in the window *and* the frames after it (a strategy that runs everything in one long
  /// frame shows its drops after the last task).
  case droppedFrames
  /// The part of `droppedFrames` counted at frames after the window.
  case droppedFramesAfterWindow
  /// Tasks that ran inside the window (by its end: tasks run in the tail after a timeout do not count).
  case tasksExecuted
  /// 1 if the workload timed out before every task ran.
  case timedOut

  /// Decimals shown.
  var digits: Int {
    switch self {
    case .ratioToIdeal: return 3
    default: return 0
    }
  }
}

/// Figures from one run of a throughput workload for one strategy at one refresh rate.
struct ThroughputResult: Sendable {
  var strategy: StrategyKind
  var mode: ThroughputMode
  var refreshHz: Int
  var values: [ThroughputMetric: Double]

  /// The value of `metric` (0 if absent).
  subscript(metric: ThroughputMetric) -> Double { values[metric] ?? 0 }

  /// Computes the figures from a run's trace; pure, for the tests.
  ///
  /// The ideal depends on nothing the strategy did: a strategy's own task times or its own commits would
  /// let a strategy that slows tasks down (cache misses, preemption) or commits fewer frames raise or lower
  /// its own bar.
  ///
  /// - Parameters:
  ///   - frames: every committed frame from the first hand-over until the run stopped (the tail included:
  ///     drops counted at frames that start after `window.end` are `droppedFramesAfterWindow`).
  ///   - window: first hand-over frame's start to the last task's end (or the timeout).
  ///   - executed: tasks that ended by `window.end`.
  ///   - taskNanos: one task's cost measured in isolation, no run loop turning (``ThroughputWorkload/isolatedTaskNanos(iterations:)``).
  ///   - commitFraction: the nominal commit work per period, as a fraction of it.
  ///   - offeredPerSecond: the fastest rate the producer allows, batched; `nil` for one frame.
  static func compute(
    strategy: StrategyKind, mode: ThroughputMode, refreshHz: Int, frames: [FrameRecord], origin: UInt64,
    period: UInt64, window: (start: UInt64, end: UInt64), total: Int, executed: Int, taskNanos: UInt64,
    commitFraction: Double, offeredPerSecond: Double?
  ) -> ThroughputResult {
    let seconds = max(Double(window.end &- window.start) / 1e9, 1e-9)
    let task = Double(taskNanos) / 1e9
    var ideal = task > 0 ? max(0, 1 - commitFraction) / task : 0
    if let offeredPerSecond { ideal = min(ideal, offeredPerSecond) }
    let perFrame = DroppedFrames.perFrame(frames, origin: origin, period: period)
    var inWindow = 0
    var after = 0
    for (frame, dropped) in zip(frames, perFrame) {
      if frame.start <= window.end { inWindow += dropped } else { after += dropped }
    }
    let tasksPerSecond = Double(executed) / seconds
    return ThroughputResult(
      strategy: strategy, mode: mode, refreshHz: refreshHz,
      values: [
        .tasksPerSecond: tasksPerSecond, .idealTasksPerSecond: ideal,
        .ratioToIdeal: ideal > 0 ? tasksPerSecond / ideal : 0, .droppedFrames: Double(inWindow + after),
        .droppedFramesAfterWindow: Double(after), .tasksExecuted: Double(executed),
        .timedOut: executed < total ? 1 : 0,
      ])
  }
}
