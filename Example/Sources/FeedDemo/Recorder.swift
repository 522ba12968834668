/// Everything one scenario run observed, as raw samples; `ScenarioMetrics` turns it into figures.
@MainActor
final class Recorder {
  /// One display-link callback.
  struct FrameSample {
    let start: UInt64
    let end: UInt64
    let phase: Phase
    /// The first frame after the display link was paused: no interval is measured before it.
    let afterResume: Bool
  }

  /// One image draw that ran.
  struct DrawSample {
    let start: UInt64
    let end: UInt64
    let row: Int
    /// The cell showed another row: the draw was wasted and put wrong content in the cell.
    let stale: Bool
    /// The row was outside the viewport: the draw was wasted (nobody sees it unless the user scrolls back).
    let offscreen: Bool
  }

  /// The phase now running.
  var phase: Phase = .fling
  private(set) var frames: [FrameSample] = []
  private(set) var draws: [DrawSample] = []
  /// Tasks dropped by a strategy's capacity limit.
  var evicted = 0
  /// Of those, tasks whose row was on screen and whose cell still showed it: that cell stays blank.
  var visibleEvicted = 0
  /// When each phase started and ended.
  var phaseStart: [Phase: UInt64] = [:]
  var phaseEnd: [Phase: UInt64] = [:]
  /// When every visible cell first had all its images after the fling stopped.
  var contentComplete: UInt64?
  /// Rows on screen when the fling stopped.
  var rowsVisibleAtFlingStop: ClosedRange<Int>?
  /// Integral over the slow drag of the visible cells' missing-image fraction, in cell-seconds.
  var blankCellSeconds = 0.0
  /// Run-loop wake-ups and main-thread CPU during the idle phase.
  var idleWakeups = 0
  var idleCPUSeconds = 0.0
  var idleSeconds = 0.0
  /// Tasks the strategy still held when the idle phase began.
  var pendingAtIdleStart = 0

  /// Logs a display-link callback.
  func recordFrame(start: UInt64, end: UInt64, afterResume: Bool) {
    frames.append(FrameSample(start: start, end: end, phase: phase, afterResume: afterResume))
  }

  /// Logs an image draw.
  func recordDraw(start: UInt64, end: UInt64, row: Int, stale: Bool, offscreen: Bool) {
    draws.append(DrawSample(start: start, end: end, row: row, stale: stale, offscreen: offscreen))
  }

  /// Marks the start of `phase`.
  func begin(_ phase: Phase, at time: UInt64) {
    self.phase = phase
    phaseStart[phase] = time
  }

  /// Marks the end of the current phase.
  func end(at time: UInt64) { phaseEnd[phase] = time }
}
