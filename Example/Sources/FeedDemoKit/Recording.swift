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
    /// Whether it was the apply of an image rendered off the main thread (else a draw on the main thread,
    /// which is its own apply).
    var background = false
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
  /// Visible cells' missing images integrated from the reload (the visible rows reconfigured in the fill) until
  /// the visible content was complete or the fill ended, cell-seconds; `nil` in a run without a reload.
  var blankCellSecondsAfterReload: Double?
  /// The strategy-independent lower bound for the content-complete time, ms: the visible rows' draws
  /// measured in isolation (``ContentBound``).
  var contentLowerBoundMs = 0.0
  /// Run-loop wake-ups, main-thread CPU seconds and the window length during the idle phase.
  var idleWakeups = 0
  var idleCPUSeconds = 0.0
  var idleSeconds = 0.0
  /// Tasks the strategy still held when the idle phase began.
  var pendingAtIdleStart = 0

  /// CPU ms of every thread of the process (`getrusage(RUSAGE_SELF)`) and of the main thread
  /// (`CLOCK_THREAD_CPUTIME_ID`) from the first fling to the end of the rest phase.
  var cpuProcessMs = 0.0
  var cpuMainMs = 0.0
  /// Images rendered off the main thread (finished renders), and the ids of those applied to a cell.
  var backgroundRenders = 0
  var appliedRenders: Set<Int> = []
  /// Flicker: images a cell on screen lost (cleared, or set to other content), a commit showed lost, and
  /// that were then set again with the same content.
  var flicker = 0
  /// Live threads before the strategy was installed, the most seen while it ran, and the most renders that
  /// ran at once.
  var threadBaseline = 0
  var threadPeak = 0
  var peakConcurrentRenders = 0
  /// The most bytes of rendered results alive at once (held by the strategy: in flight, queued, cached).
  var peakResultBytes = 0
  /// The rows on screen over each motion phase (for the blank bound), the first screen's rows, the fastest
  /// draw of one image (ns) and the cores that can draw.
  var visibility: [Phase: [BlankBound.Sample]] = [:]
  var initialRows: ClosedRange<Int>?
  var drawNanos: UInt64 = 0
  var workerCores = 1
  var imagesPerRow = 3
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
  /// The blank-cell integral from the reload on (``beginAfterReload(at:blank:)``), while it runs: until the
  /// visible content is complete (``contentCompleted(at:)``) or the phase ends. The fill has no frames, so it
  /// is sampled at the reload and at every image set or cleared (the table's ``sampleBlank(at:blank:)`` calls),
  /// and integrated exactly as a step function between them.
  private var afterReload: BlankIntegral?

  /// Marks the start of `phase` at `time`.
  func begin(_ phase: Phase, at time: UInt64) {
    self.phase = phase
    recording.phaseStart[phase] = time
    blank = BlankIntegral()
  }

  /// Marks the end of the current phase at `time`.
  func end(at time: UInt64) {
    recording.phaseEnd[phase] = time
    endAfterReload(at: time)
    if phase.isMotion {
      blank.stop(at: time)
      recording.blankCellSeconds[phase] = blank.cellSeconds
    }
  }

  /// Samples the visible blank cells during a motion phase, and from the reload until the content is complete.
  func sampleBlank(at time: UInt64, blank cells: Double) {
    afterReload?.sample(at: time, blank: cells)
    guard phase.isMotion else { return }
    blank.sample(at: time, blank: cells)
  }

  /// The visible rows are about to be reconfigured (the reload): starts integrating blank cells, `cells` of
  /// them blank now, until the visible content is complete or the phase ends.
  func beginAfterReload(at time: UInt64, blank cells: Double) {
    var integral = BlankIntegral()
    integral.sample(at: time, blank: cells)
    afterReload = integral
    recording.blankCellSecondsAfterReload = 0
  }

  /// Every visible cell shows its content since `time`: records it as the content-complete moment and ends the
  /// integral from the reload.
  func contentCompleted(at time: UInt64) {
    recording.contentComplete = time
    endAfterReload(at: time)
  }

  /// Ends the integral from the reload at `time`, if it runs, and records it.
  private func endAfterReload(at time: UInt64) {
    guard var integral = afterReload else { return }
    integral.stop(at: time)
    recording.blankCellSecondsAfterReload = integral.cellSeconds
    afterReload = nil
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

  /// Logs the apply of a rendered image.
  func recordApply(start: UInt64, end: UInt64, row: Int, verdict: DrawVerdict, renderID: Int) {
    recording.draws.append(
      Recording.DrawSample(start: start, end: end, row: row, verdict: verdict, background: true))
    recording.appliedRenders.insert(renderID)
  }

  /// Logs the rows on screen during a motion phase (only when they changed).
  func sampleVisible(at time: UInt64, rows: ClosedRange<Int>) {
    guard phase.isMotion else { return }
    if recording.visibility[phase]?.last?.rows == rows { return }
    recording.visibility[phase, default: []].append(BlankBound.Sample(time: time, rows: rows))
  }
}
