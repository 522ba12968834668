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
  /// The blank cell·s no strategy can beat with the cores the machine has, drawing each row once it has
  /// appeared and not inside its frame (``BlankBound``), and `blankCellSeconds` over it (`null`: blank
  /// with a bound of 0).
  case blankCellSecondsLowerBound, blankRatio
  /// From the scroll's stop (reload profile: from the reload) until every visible cell shows its content;
  /// infinite (JSON `null`) if that never happened.
  case contentCompleteMs
  /// The strategy-independent lower bound: the visible rows' draws measured in isolation, ms.
  case contentLowerBoundMs
  /// `contentCompleteMs / contentLowerBoundMs`.
  case contentRatio
  /// Draws that put a row's old content (another row's, or this row's before the reload) in a cell.
  /// Applies of a background render count as its draw, so this equals `wrongCellApplies` (kept for the
  /// readers of format 2).
  case staleExecutions
  /// Images applied to a cell that shows another row, or another content version of the row — on the main
  /// thread's draw or a background render's apply.
  case wrongCellApplies
  /// Images a cell on screen lost (cleared, or set back to other content), a commit showed lost, and then
  /// got again with the same content.
  case flicker
  /// Images rendered off the main thread and never applied to a cell (cancelled after the draw, dropped by
  /// a stale check, or cached and never used).
  case rendersWasted
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
  /// CPU ms of every thread of the process (`getrusage(RUSAGE_SELF)`), first fling → end of rest.
  case cpuMs
  /// CPU ms of the main thread (`CLOCK_THREAD_CPUTIME_ID` read on it) over the same span.
  case mainThreadCpuMs
  /// Threads the strategy used: the larger of the live threads' growth over the count before it was
  /// installed (`/proc/self/task`) and the most renders running at once.
  case peakThreads
  /// The most bytes of rendered results alive at once: in flight, queued for the main thread, cached.
  case peakResultBytes
  /// Images drawn: on the main thread, or rendered off it.
  case drawsExecuted
  /// Tasks the strategy still held when the idle phase began.
  case pendingAtIdleStart
  /// Reload profiles: visible cells' missing images (as `blankCellSeconds` counts them) integrated from the
  /// reload — the visible rows reconfigured in the fill, after the scroll stopped, where no frame runs and the
  /// motion figures see nothing — until every visible cell shows its content, or the fill ends. Sampled at the
  /// reload and at every image set or cleared, integrated exactly between them. Not a number (JSON `null`,
  /// table "-") in a profile without a reload, where it would be a 0 that cannot fail. Format revision 4.
  case blankCellSecondsAfterReload

  /// Decimals shown.
  var digits: Int {
    switch self {
    case .p99CommitLatencyMs, .contentCompleteMs, .contentLowerBoundMs, .idleWakeupsPerSecond, .cpuMs,
      .mainThreadCpuMs:
      return 1
    case .blankCellSeconds, .blankCellSecondsFling, .blankCellSecondsSlowDrag, .contentRatio,
      .idleCpuMsPerSecond, .blankCellSecondsLowerBound, .blankRatio, .blankCellSecondsAfterReload:
      return 3
    default: return 0
    }
  }
}
