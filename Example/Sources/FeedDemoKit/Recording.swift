/// Everything one scenario run observed, as raw samples; ``ScenarioMetrics`` turns it into figures. A
/// value type, so that the metric tests can build one by hand (a synthetic trace).
struct Recording: Sendable {
  /// One image draw that ran.
  struct DrawSample: Sendable {
    /// When it started and ended, clock ns.
    var start: UInt64
    var end: UInt64
    /// The row it drew.
    var row: Int
    /// What it was worth.
    var verdict: DrawVerdict
  }

  /// The display link's vsync grid: tick 0 and the period, ns.
  var origin: UInt64 = 0
  var period: UInt64 = 16_666_667
  /// Committed frames, in order.
  var frames: [FrameRecord] = []
  /// Draws that ran, in order.
  var draws: [DrawSample] = []
  /// Draws a strategy dropped because its queue was full, and of those the ones that left a visible cell
  /// blank.
  var evicted = 0
  var visibleEvicted = 0
  /// When each phase started and ended, clock ns.
  var phaseStart: [Phase: UInt64] = [:]
  var phaseEnd: [Phase: UInt64] = [:]
  /// Blank cell-seconds integrated over each motion phase.
  var blankCellSeconds: [Phase: Double] = [:]
  /// When the content the screen must show became known (the scroll's stop, or the reload), and when every
  /// visible cell first showed it all.
  var contentStart: UInt64?
  var contentComplete: UInt64?
  /// The strategy-independent lower bound for the content-complete time, ms: the visible rows' draws
  /// measured in isolation (``ContentBound``).
  var contentLowerBoundMs = 0.0
  /// Run-loop wake-ups, main-thread CPU seconds and the window length during the idle phase.
  var idleWakeups = 0
  var idleCPUSeconds = 0.0
  var idleSeconds = 0.0
  /// Tasks the strategy still held when the idle phase began.
  var pendingAtIdleStart = 0
}

/// The live recorder the feed writes into during a run.
@MainActor
final class Recorder {
  /// What has been recorded.
  var recording = Recording()
  /// The phase now running.
  private(set) var phase: Phase = .fling
  /// The blank-cell integral of the motion phase now running.
  private var blank = BlankIntegral()

  /// Marks the start of `phase` at `time`.
  func begin(_ phase: Phase, at time: UInt64) {
    self.phase = phase
    recording.phaseStart[phase] = time
    blank = BlankIntegral()
  }

  /// Marks the end of the current phase at `time`.
  func end(at time: UInt64) {
    recording.phaseEnd[phase] = time
    if phase.isMotion {
      blank.stop(at: time)
      recording.blankCellSeconds[phase] = blank.cellSeconds
    }
  }

  /// Samples the visible blank cells during a motion phase.
  func sampleBlank(at time: UInt64, blank cells: Double) {
    guard phase.isMotion else { return }
    blank.sample(at: time, blank: cells)
  }

  /// Logs a committed frame.
  func recordFrame(tick: Int64, start: UInt64, commitEnd: UInt64, afterResume: Bool) {
    recording.frames.append(
      FrameRecord(tick: tick, start: start, commitEnd: commitEnd, phase: phase, afterResume: afterResume))
  }

  /// Logs a draw.
  func recordDraw(start: UInt64, end: UInt64, row: Int, verdict: DrawVerdict) {
    recording.draws.append(Recording.DrawSample(start: start, end: end, row: row, verdict: verdict))
  }
}
