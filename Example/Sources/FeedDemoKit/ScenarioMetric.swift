/// The feed scenario's metrics, in report order. Each one can fail — come out non-zero or bad — for some
/// strategy in some profile, and the test suite has a synthetic trace that makes it do so.
enum ScenarioMetric: String, CaseIterable, Sendable {
  /// Frames dropped over the whole run (every frame the display link served).
  case droppedFrames
  /// Dropped frames in the motion phases. The link runs only while the list moves, so the rest phases
  /// (fill, rest) have no frames of their own and no per-phase figure: a metric that cannot fail is not
  /// reported.
  case droppedFramesFling, droppedFramesFlingBack, droppedFramesSlowDrag
  /// The 99th percentile of vsync → commit end, ms (over one period: dropped).
  case p99CommitLatencyMs
  /// Visible cells' missing images integrated over every motion phase (fling tail and slow drag included).
  case blankCellSeconds
  /// The same over the flings only, and over the slow drag only.
  case blankCellSecondsFling, blankCellSecondsSlowDrag
  /// From the scroll's stop (reload profile: from the reload) until every visible cell shows its content;
  /// infinite (JSON `null`) if that never happened.
  case contentCompleteMs
  /// The strategy-independent lower bound: the visible rows' draws measured in isolation, ms.
  case contentLowerBoundMs
  /// `contentCompleteMs / contentLowerBoundMs`.
  case contentRatio
  /// Draws that put a row's old content (another row's, or this row's before the reload) in a cell.
  case staleExecutions
  /// Draws for rows off screen whose cell still showed them (wasted work).
  case offscreenExecutions
  /// Draws a queue limit dropped while their row was on screen and its cell still showed it.
  case visibleTasksEvicted
  /// Draws any queue limit dropped.
  case tasksEvicted
  /// Run-loop wake-ups per second at rest with nothing queued.
  case idleWakeupsPerSecond
  /// Main-thread CPU ms per second at rest.
  case idleCpuMsPerSecond
  /// Draws that ran.
  case drawsExecuted
  /// Tasks the strategy still held when the idle phase began.
  case pendingAtIdleStart

  /// Decimals shown.
  var digits: Int {
    switch self {
    case .p99CommitLatencyMs, .contentCompleteMs, .contentLowerBoundMs, .idleWakeupsPerSecond: return 1
    case .blankCellSeconds, .blankCellSecondsFling, .blankCellSecondsSlowDrag, .contentRatio,
      .idleCpuMsPerSecond:
      return 3
    default: return 0
    }
  }
}
