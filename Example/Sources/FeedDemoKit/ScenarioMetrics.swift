/// Computes a scenario's figures from its ``Recording``; pure, so that every metric can be tested over a
/// hand-built trace.
enum ScenarioMetrics {
  /// The figures of one run.
  static func result(
    kind: StrategyKind, profile: Profile, refreshHz: Int, recording r: Recording, origin: UInt64
  ) -> ScenarioResult {
    var values: [ScenarioMetric: Double] = [:]
    let perFrame = DroppedFrames.perFrame(r.frames, origin: r.origin, period: r.period)
    let byPhase = DroppedFrames.byPhase(r.frames, origin: r.origin, period: r.period)
    values[.droppedFrames] = Double(perFrame.reduce(0, +))
    values[.droppedFramesFling] = Double(byPhase[.fling] ?? 0)
    values[.droppedFramesFlingBack] = Double(byPhase[.flingBack] ?? 0)
    values[.droppedFramesSlowDrag] = Double(byPhase[.slowDrag] ?? 0)
    let latencies = DroppedFrames.commitLatencies(r.frames, origin: r.origin, period: r.period)
    values[.p99CommitLatencyMs] = percentile(latencies, 0.99)

    let fling = (r.blankCellSeconds[.fling] ?? 0) + (r.blankCellSeconds[.flingBack] ?? 0)
    let drag = r.blankCellSeconds[.slowDrag] ?? 0
    values[.blankCellSecondsFling] = fling
    values[.blankCellSecondsSlowDrag] = drag
    values[.blankCellSeconds] = fling + drag
    let bound = BlankBound.cellSeconds(
      spans: blankSpans(r), initialRows: r.initialRows, imagesPerRow: r.imagesPerRow, drawNanos: r.drawNanos,
      workers: r.workerCores)
    values[.blankCellSecondsLowerBound] = bound
    values[.blankRatio] = bound > 0 ? (fling + drag) / bound : (fling + drag > 0 ? .infinity : 1)

    var completeMs = Double.infinity
    if let start = r.contentStart, let complete = r.contentComplete {
      completeMs = Clock.milliseconds(from: start, to: complete)
    }
    values[.contentCompleteMs] = completeMs
    values[.blankCellSecondsAfterReload] = r.blankCellSecondsAfterReload ?? .nan
    values[.contentLowerBoundMs] = r.contentLowerBoundMs
    values[.contentRatio] = r.contentLowerBoundMs > 0 ? completeMs / r.contentLowerBoundMs : .infinity

    values[.staleExecutions] = Double(r.draws.filter { $0.verdict == .stale }.count)
    values[.wrongCellApplies] = values[.staleExecutions]
    values[.flicker] = Double(r.flicker)
    values[.rendersWasted] = Double(max(0, r.backgroundRenders - r.appliedRenders.count))
    values[.cpuMs] = r.cpuProcessMs
    values[.mainThreadCpuMs] = r.cpuMainMs
    values[.peakThreads] = Double(max(0, r.threadPeak - r.threadBaseline, r.peakConcurrentRenders))
    values[.peakResultBytes] = Double(r.peakResultBytes)
    values[.offscreenExecutions] = Double(r.draws.filter { $0.verdict == .offscreen }.count)
    values[.visibleTasksEvicted] = Double(r.visibleEvicted)
    values[.tasksEvicted] = Double(r.evicted)
    let idleSeconds = max(r.idleSeconds, 1e-9)
    values[.idleWakeupsPerSecond] = Double(r.idleWakeups) / idleSeconds
    values[.idleCpuMsPerSecond] = r.idleCPUSeconds * 1000 / idleSeconds
    values[.drawsExecuted] = Double(r.draws.filter { !$0.background }.count + r.backgroundRenders)
    values[.pendingAtIdleStart] = Double(r.pendingAtIdleStart)

    let seconds = { (time: UInt64) in Double(Int64(bitPattern: time &- origin)) / 1e9 }
    let chart = zip(zip(r.frames, latencies), perFrame).map { pair, dropped in
      (time: seconds(pair.0.start), latencyMs: pair.1, dropped: dropped)
    }
    let spans = Phase.allCases.compactMap { phase -> (phase: Phase, start: Double, end: Double)? in
      guard let start = r.phaseStart[phase], let end = r.phaseEnd[phase] else { return nil }
      return (phase, seconds(start), seconds(end))
    }
    return ScenarioResult(
      strategy: kind, profile: profile, refreshHz: refreshHz, values: values, chart: chart, phaseSpans: spans)
  }

  /// The motion phases' visibility samples, in time order, each ending with its phase.
  static func blankSpans(_ r: Recording) -> [BlankBound.Span] {
    Phase.allCases.filter(\.isMotion).compactMap { phase -> BlankBound.Span? in
      guard let samples = r.visibility[phase], let end = r.phaseEnd[phase] else { return nil }
      return BlankBound.Span(samples: samples, end: end)
    }.sorted { ($0.samples.first?.time ?? 0) < ($1.samples.first?.time ?? 0) }
  }

  /// The `p`-th percentile (0...1) by nearest rank; 0 for no values.
  static func percentile(_ values: [Double], _ p: Double) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let rank = Int((p * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
  }
}
