import Foundation

/// The throughput workloads: small tasks (about 20 µs of real work each) handed to the strategy from
/// display-link frames — all in one frame, or a batch per frame — while the display link keeps running and
/// every frame is committed at the commit observer. It measures how much of the main thread's spare time a
/// strategy turns into tasks, and what it costs the frames, counting drops after the last task too.
@MainActor
struct ThroughputWorkload {
  let settings: ScenarioSettings
  /// Kernel iterations of one task (calibrated to `settings.throughputTaskMicroseconds`).
  let taskIterations: Int

  /// The run's mutable state, shared by the task closures and the frame callback.
  private final class State {
    var executed = 0
    var handedOver = 0
    var taskDurations: [UInt64] = []
    var lastTaskEnd: UInt64 = 0
    var windowStart: UInt64?
    var frames: [FrameRecord] = []
    var sink: UInt64 = 0
  }

  /// Runs `mode` once for `kind` at `refreshHz`.
  func run(_ kind: StrategyKind, mode: ThroughputMode, refreshHz: Int) -> ThroughputResult {
    let displayLink = DisplayLink(refreshHz: refreshHz, commitFraction: settings.throughputCommitFraction)
    let strategy = kind.make()
    strategy.install(for: .throughput, displayLink: displayLink)
    let gate = PhaseGate()
    let total = mode == .oneFrame ? settings.oneFrameTasks : settings.batchedTasks
    let batch = mode == .oneFrame ? total : settings.batchSize
    let iterations = taskIterations
    let state = State()

    let task: @MainActor () -> Void = {
      let start = Clock.now
      state.sink &+= CPUWork.run(iterations: iterations, seed: start)
      let end = Clock.now
      state.taskDurations.append(end - start)
      state.executed += 1
      state.lastTaskEnd = end
    }
    displayLink.onFrame = { _, start in
      if state.windowStart == nil { state.windowStart = start }
      let count = min(batch, total - state.handedOver)
      for _ in 0..<count {
        strategy.scheduleTask(key: state.handedOver, task)
        state.handedOver += 1
      }
      return true
    }
    displayLink.commit.onCommit = { tick, start, end, afterResume in
      guard state.windowStart != nil else { return }
      state.frames.append(FrameRecord(tick: tick, start: start, commitEnd: end, phase: .fill, afterResume: afterResume))
    }

    let tail = Clock.nanoseconds(settings.throughputTailSeconds)
    let timeout = Clock.nanoseconds(settings.throughputTimeout)
    displayLink.start()
    gate.run(mode: RunLoopModes.defaultCF, timeout: settings.throughputTimeout + 2) {
      guard let start = state.windowStart else { return false }
      let now = Clock.now
      return (state.executed >= total && now >= state.lastTaskEnd + tail) || now - start >= timeout + tail
    }
    let windowStart = state.windowStart ?? Clock.now
    let done = state.executed >= total
    let windowEnd = done ? state.lastTaskEnd : windowStart + timeout
    let commitNanos = displayLink.commit.workNanos.filter { $0.start >= windowStart && $0.start < windowEnd }
      .reduce(0) { $0 + $1.nanos }
    strategy.uninstall()
    displayLink.invalidate()
    gate.invalidate()
    let medianTask = state.taskDurations.sorted().dropFirst(state.taskDurations.count / 2).first ?? 0
    // Batched, no strategy can finish before the last batch is handed over (one period per batch after the
    // first) and run: the producer's rate caps the ideal.
    let handOvers = (total + batch - 1) / batch
    let fastestBatchedSeconds =
      Double(handOvers - 1) / Double(refreshHz) + Double(batch) * Double(medianTask) / 1e9
    return ThroughputResult.compute(
      strategy: kind, mode: mode, refreshHz: refreshHz, frames: state.frames, origin: displayLink.originNanos,
      period: displayLink.period, window: (windowStart, windowEnd), total: total, executed: state.executed,
      taskMedianNanos: medianTask, commitNanosInWindow: commitNanos,
      offeredPerSecond: mode == .batched ? Double(total) / fastestBatchedSeconds : nil)
  }
}
