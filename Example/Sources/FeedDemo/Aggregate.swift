/// Medians over repeated runs: each figure is the median of that figure across runs (for an even number
/// of runs, the upper middle value), so one noisy run on a shared machine cannot move a result.
enum Aggregate {
  /// The median run figures of one strategy at one refresh rate.
  struct Scenario {
    /// Median figures (intervals and phase spans are those of the first run, for the chart).
    var median: ScenarioResult
    /// Median of the per-run `contentCompleteMs / contentIdealMs`.
    var contentRatio: Double?
    /// Runs behind the medians.
    var runs: Int
  }

  /// The median of `values` (the upper middle for an even count); 0 for none.
  static func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    return values.sorted()[values.count / 2]
  }

  /// The median of `values` where `nil` ranks above every number (a run that never completed).
  static func median(_ values: [Double?]) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted { ($0 ?? .infinity) < ($1 ?? .infinity) }
    return sorted[values.count / 2]
  }

  private static func median(_ values: [Int]) -> Int { Int(median(values.map(Double.init))) }

  /// Medians of the feed scenario's runs.
  static func scenario(_ runs: [ScenarioResult]) -> Scenario {
    var result = runs[0]
    result.frames = median(runs.map(\.frames))
    result.droppedFrames = median(runs.map(\.droppedFrames))
    for phase in Phase.allCases {
      result.droppedByPhase[phase] = median(runs.map { $0.droppedByPhase[phase] ?? 0 })
    }
    result.p99FrameMs = median(runs.map(\.p99FrameMs))
    result.maxFrameMs = median(runs.map(\.maxFrameMs))
    result.contentCompleteMs = median(runs.map(\.contentCompleteMs))
    result.contentIdealMs = median(runs.map(\.contentIdealMs))
    result.staleExecutions = median(runs.map(\.staleExecutions))
    result.offscreenExecutions = median(runs.map(\.offscreenExecutions))
    result.visibleTasksEvicted = median(runs.map(\.visibleTasksEvicted))
    result.evicted = median(runs.map(\.evicted))
    result.blankCellSecondsSlowDrag = median(runs.map(\.blankCellSecondsSlowDrag))
    result.idleWakeupsPerSecond = median(runs.map(\.idleWakeupsPerSecond))
    result.idleCpuMsPerSecond = median(runs.map(\.idleCpuMsPerSecond))
    result.drawsExecuted = median(runs.map(\.drawsExecuted))
    result.drawMsMedian = median(runs.map(\.drawMsMedian))
    result.pendingAtIdleStart = median(runs.map(\.pendingAtIdleStart))
    let ratios: [Double?] = runs.map { run in
      guard run.contentCompleteMs != nil else { return nil }
      return run.contentRatio ?? (run.contentCompleteMs == 0 ? 1 : nil)
    }
    let allCompleteAtStop = runs.allSatisfy { $0.contentCompleteMs == 0 }
    return Scenario(median: result, contentRatio: allCompleteAtStop ? nil : median(ratios), runs: runs.count)
  }

  /// Medians of the throughput workload's runs.
  static func throughput(_ runs: [ThroughputResult]) -> ThroughputResult {
    var result = runs[0]
    result.tasksPerSecond = median(runs.map(\.tasksPerSecond))
    result.idealTasksPerSecond = median(runs.map(\.idealTasksPerSecond))
    result.droppedFrames = median(runs.map(\.droppedFrames))
    result.executed = median(runs.map(\.executed))
    result.windowSeconds = median(runs.map(\.windowSeconds))
    result.meanTaskMicroseconds = median(runs.map(\.meanTaskMicroseconds))
    result.timedOut = runs.filter(\.timedOut).count * 2 > runs.count
    result.enqueueMs = median(runs.map(\.enqueueMs))
    return result
  }

  /// Median of the per-run `tasksPerSecond / idealTasksPerSecond`.
  static func throughputRatio(_ runs: [ThroughputResult]) -> Double {
    median(runs.map { $0.idealTasksPerSecond > 0 ? $0.tasksPerSecond / $0.idealTasksPerSecond : 0 })
  }
}
