import Foundation

/// The second workload of issue 3: 20,000 small tasks (about 20 µs of real work each) handed to the
/// strategy at once, from a display-link frame, while a 120 Hz display link keeps running with its fixed
/// frame work. It measures how much of the main thread's spare time the strategy turns into tasks.
@MainActor
struct ThroughputWorkload {
  let settings: ScenarioSettings
  /// Kernel iterations of one task (calibrated to `settings.throughputTaskMicroseconds`).
  let taskIterations: Int

  /// Runs the workload once for `kind`.
  func run(_ kind: StrategyKind) -> ThroughputResult {
    let displayLink = DisplayLink(refreshHz: settings.throughputRefreshHz)
    let strategy = kind.make()
    strategy.install(for: .throughput, displayLink: displayLink)
    let gate = PhaseGate()
    let total = settings.throughputTasks
    let iterations = taskIterations
    let frameWork = displayLink.period / 4

    final class State {
      var executed = 0
      var taskNanos: UInt64 = 0
      var lastTaskEnd: UInt64 = 0
      var windowStart: UInt64?
      var enqueueNanos: UInt64 = 0
      var renderWork: [(start: UInt64, nanos: UInt64)] = []
      var frames: [(start: UInt64, afterResume: Bool)] = []
      var sink: UInt64 = 0
    }
    let state = State()

    let task: @MainActor () -> Void = {
      let start = Clock.now
      state.sink &+= CPUWork.run(iterations: iterations, seed: start)
      let end = Clock.now
      state.taskNanos += end - start
      state.executed += 1
      state.lastTaskEnd = end
    }
    displayLink.onFrame = { start in
      if state.windowStart == nil {
        state.windowStart = start
        for key in 0..<total { strategy.scheduleTask(key: key, task) }
        state.enqueueNanos = Clock.now - start
      }
      let renderStart = Clock.now
      state.sink &+= CPUWork.run(forNanoseconds: frameWork, seed: renderStart)
      state.renderWork.append((renderStart, Clock.now - renderStart))
      return state.executed < total
    }
    displayLink.onFrameEnd = { start, _, afterResume in state.frames.append((start, afterResume)) }

    let tracer =
      ProcessInfo.processInfo.environment["FEEDDEMO_TRACE"] != nil
      ? PassTracer(before: 2_099_999, after: 2_100_001) : nil
    displayLink.start()
    let finished = gate.run(mode: RunLoopModes.defaultCF, timeout: settings.throughputTimeout + 1) {
      state.executed >= total
        || (state.windowStart.map { Clock.now - $0 >= Clock.nanoseconds(settings.throughputTimeout) } ?? false)
    }
    let windowStart = state.windowStart ?? Clock.now
    let done = state.executed >= total
    let windowEnd = done ? state.lastTaskEnd : Clock.now
    strategy.uninstall()
    displayLink.invalidate()
    gate.invalidate()
    if let tracer {
      tracer.invalidate()
      let link = (displayLink.originNanos, displayLink.period)
      let intervals = FrameAnalysis.intervals(starts: state.frames, link: link)
      for interval in intervals where interval.dropped > 0 {
        let previous = state.frames.last { $0.start < interval.time }!.start
        let ms = { (t: UInt64) in fmt(Double(Int64(bitPattern: t &- previous)) / 1e6, 2) }
        let spans = tracer.spans.filter { $0.end > previous && $0.start < interval.time }
          .map { "[\(ms($0.start))–\(ms($0.end))]" }.joined(separator: " ")
        let wakes = tracer.wakes.filter { $0 > previous && $0 < interval.time }.map(ms).joined(separator: ",")
        let tick = { (t: UInt64) in
          fmt(Double(Int64(bitPattern: t &- displayLink.tickTime(displayLink.tickIndex(at: t)))) / 1e6, 2)
        }
        FileHandle.standardError.write(
          Data(
            "drop: prev frame late \(tick(previous)) ms; next at +\(ms(interval.time)) (late \(tick(interval.time))); passes \(spans); wakes \(wakes)\n"
              .utf8))
      }
    }

    let window = Double(windowEnd - windowStart) / 1e9
    let frameWorkSeconds =
      state.renderWork.filter { $0.start >= windowStart && $0.start < windowEnd }
      .reduce(0.0) { $0 + Double($1.nanos) / 1e9 }
    let meanTask = state.executed > 0 ? Double(state.taskNanos) / Double(state.executed) / 1e9 : 0
    let framesInWindow = state.frames.filter { $0.start <= windowEnd }
    let intervals = FrameAnalysis.intervals(starts: framesInWindow, link: (displayLink.originNanos, displayLink.period))
    let dropped = intervals.reduce(0) { $0 + $1.dropped }
    let drops = intervals.filter { $0.dropped > 0 }.map {
      (Double($0.time &- windowStart) / 1e9, $0.milliseconds, $0.dropped)
    }
    _ = finished
    return ThroughputResult(
      strategy: kind, tasksPerSecond: Double(state.executed) / max(window, 1e-9),
      idealTasksPerSecond: meanTask > 0 ? (window - frameWorkSeconds) / meanTask / max(window, 1e-9) : 0,
      droppedFrames: dropped, executed: state.executed, windowSeconds: window,
      meanTaskMicroseconds: meanTask * 1e6, timedOut: !done, enqueueMs: Double(state.enqueueNanos) / 1e6,
      drops: drops)
  }
}
