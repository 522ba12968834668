/// Computes a scenario's figures from its recording; the definitions are issue 3's.
@MainActor
enum ScenarioMetrics {
  /// The figures of one run.
  static func result(
    kind: StrategyKind, refreshHz: Int, recorder: Recorder, link: (origin: UInt64, period: UInt64), origin: UInt64
  ) -> ScenarioResult {
    let frames = recorder.frames
    let intervals = FrameAnalysis.intervals(starts: frames.map { ($0.start, $0.afterResume) }, link: link)
    var droppedByPhase: [Phase: Int] = [:]
    // Each interval belongs to the phase of its later callback.
    var frameIndex = 0
    for interval in intervals {
      while frames[frameIndex].start != interval.time { frameIndex += 1 }
      droppedByPhase[frames[frameIndex].phase, default: 0] += interval.dropped
    }
    let milliseconds = intervals.map(\.milliseconds)

    // Content: from the fling's stop until every visible cell had its images.
    let flingStop = recorder.phaseEnd[.fling] ?? origin
    var completeMs: Double?
    var idealMs: Double?
    if let complete = recorder.contentComplete {
      completeMs = Clock.milliseconds(from: flingStop, to: complete)
      let visible = recorder.rowsVisibleAtFlingStop ?? 0...(-1)
      let frameWork = frames.filter { $0.start >= flingStop && $0.start < complete }
        .reduce(0.0) { $0 + Clock.milliseconds(from: $1.start, to: min($1.end, complete)) }
      let drawWork = recorder.draws.filter {
        $0.start >= flingStop && $0.end <= complete && visible.contains($0.row) && !$0.stale && !$0.offscreen
      }.reduce(0.0) { $0 + Clock.milliseconds(from: $1.start, to: $1.end) }
      idealMs = frameWork + drawWork
    }

    let toSeconds = { (time: UInt64) in Double(Int64(bitPattern: time &- origin)) / 1e9 }
    let spans = Phase.allCases.compactMap { phase -> (phase: Phase, start: Double, end: Double)? in
      guard let start = recorder.phaseStart[phase], let end = recorder.phaseEnd[phase] else { return nil }
      return (phase, toSeconds(start), toSeconds(end))
    }
    let idleSeconds = max(recorder.idleSeconds, 1e-9)
    let drawDurations = recorder.draws.map { Clock.milliseconds(from: $0.start, to: $0.end) }
    return ScenarioResult(
      strategy: kind, refreshHz: refreshHz, frames: frames.count,
      droppedFrames: intervals.reduce(0) { $0 + $1.dropped }, droppedByPhase: droppedByPhase,
      p99FrameMs: FrameAnalysis.percentile(milliseconds, 0.99), maxFrameMs: milliseconds.max() ?? 0,
      contentCompleteMs: completeMs, contentIdealMs: idealMs,
      staleExecutions: recorder.draws.filter(\.stale).count,
      offscreenExecutions: recorder.draws.filter(\.offscreen).count,
      visibleTasksEvicted: recorder.visibleEvicted, evicted: recorder.evicted,
      blankCellSecondsSlowDrag: recorder.blankCellSeconds,
      idleWakeupsPerSecond: Double(recorder.idleWakeups) / idleSeconds,
      idleCpuMsPerSecond: recorder.idleCPUSeconds * 1000 / idleSeconds,
      drawsExecuted: recorder.draws.count, drawMsMedian: FrameAnalysis.percentile(drawDurations, 0.5),
      pendingAtIdleStart: recorder.pendingAtIdleStart,
      intervals: intervals.map { (toSeconds($0.time), $0.milliseconds, $0.dropped) }, phaseSpans: spans)
  }
}
