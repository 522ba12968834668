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
  /// One task's cost measured in isolation (``isolatedTaskNanos(iterations:)``), the basis of every
  /// strategy's ideal; the benchmark re-measures it before each rate of each round and keeps the smallest.
  var taskNanos: UInt64

  /// Creates the workload, measuring the task's isolated cost once.
  init(settings: ScenarioSettings, taskIterations: Int) {
    self.settings = settings
    self.taskIterations = taskIterations
    self.taskNanos = Self.isolatedTaskNanos(iterations: taskIterations)
  }

  /// One task's cost with no run loop turning and no strategy around it: the smallest mean over 10 rounds
  /// of 50 tasks back to back (a lower bound wants the round least disturbed by the shared machine), as
  /// ``ContentBound`` measures the draws.
  static func isolatedTaskNanos(iterations: Int) -> UInt64 {
    var sink: UInt64 = 0
    var best = UInt64.max
    for round in 0..<10 {
      let start = Clock.now
      for index in 0..<50 { sink &+= CPUWork.run(iterations: iterations, seed: UInt64(round * 50 + index)) }
      best = min(best, (Clock.now - start) / 50)
    }
    return max(1, best) + (sink & 1)
  }

  /// The run's mutable state, shared by the task closures and the frame callback.
  private final class State {
    var executed = 0
    var handedOver = 0
    /// Every task's end, in order, so that the tasks run by the window's end can be counted afterwards.
    var taskEnds: [UInt64] = []
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
      state.taskEnds.append(end)
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
    // The window ends with the last task if every task ran before the timeout, else at the timeout; tasks
    // that ran in the tail after a timeout are not counted (they would flatter a strategy that timed out).
    let deadline = windowStart + timeout
    let done = state.executed >= total && state.lastTaskEnd <= deadline
    let windowEnd = done ? state.lastTaskEnd : deadline
    let executed = state.taskEnds.prefix { $0 <= windowEnd }.count
    strategy.uninstall()
    displayLink.invalidate()
    gate.invalidate()
    // Batched, no strategy can finish before the last batch is handed over (one period per batch after the
    // first) and run: the producer's rate caps the ideal.
    let handOvers = (total + batch - 1) / batch
    let fastestBatchedSeconds =
      Double(handOvers - 1) / Double(refreshHz) + Double(batch) * Double(taskNanos) / 1e9
    return ThroughputResult.compute(
      strategy: kind, mode: mode, refreshHz: refreshHz, frames: state.frames, origin: displayLink.originNanos,
      period: displayLink.period, window: (windowStart, windowEnd), total: total, executed: executed,
      taskNanos: taskNanos, commitFraction: settings.throughputCommitFraction,
      offeredPerSecond: mode == .batched ? Double(total) / fastestBatchedSeconds : nil)
  }
}
