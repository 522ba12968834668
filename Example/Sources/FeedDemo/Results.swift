/// Figures from one run of the feed scenario for one strategy at one refresh rate.
struct ScenarioResult: Sendable {
  var strategy: StrategyKind
  var refreshHz: Int
  var frames: Int
  var droppedFrames: Int
  var droppedByPhase: [Phase: Int]
  var p99FrameMs: Double
  var maxFrameMs: Double
  /// From the fling's stop until every visible cell had its images; `nil` if that never happened.
  var contentCompleteMs: Double?
  /// The main thread's measured work in that window (visible draws plus frames), with no idle gap.
  var contentIdealMs: Double?
  var staleExecutions: Int
  var offscreenExecutions: Int
  var visibleTasksEvicted: Int
  var evicted: Int
  var blankCellSecondsSlowDrag: Double
  var idleWakeupsPerSecond: Double
  var idleCpuMsPerSecond: Double
  var drawsExecuted: Int
  var drawMsMedian: Double
  var pendingAtIdleStart: Int
  /// Frame intervals for the chart: seconds since the scenario began, interval in ms, frames dropped.
  var intervals: [(time: Double, ms: Double, dropped: Int)]
  /// Phase boundaries for the chart, seconds since the scenario began.
  var phaseSpans: [(phase: Phase, start: Double, end: Double)]

  /// `contentCompleteMs / contentIdealMs`, when both are known and the ideal is not zero.
  var contentRatio: Double? {
    guard let complete = contentCompleteMs, let ideal = contentIdealMs, ideal > 0 else { return nil }
    return complete / ideal
  }
}

/// Figures from one run of the throughput workload for one strategy.
struct ThroughputResult: Sendable {
  var strategy: StrategyKind
  var tasksPerSecond: Double
  /// What the main thread could do with every moment not spent on frames: (window − frame work) / mean
  /// task time, per second.
  var idealTasksPerSecond: Double
  var droppedFrames: Int
  var executed: Int
  var windowSeconds: Double
  var meanTaskMicroseconds: Double
  var timedOut: Bool
  /// Time to hand all tasks to the strategy, inside the first frame.
  var enqueueMs: Double
  /// Intervals with dropped frames: seconds since the window began, interval ms, frames dropped.
  var drops: [(time: Double, ms: Double, dropped: Int)]
}
