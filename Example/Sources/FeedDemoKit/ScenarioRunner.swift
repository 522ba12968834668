import Foundation

/// Runs the feed scenario of issue 3 for one strategy at one refresh rate, on the real main run loop:
/// a fling through ~100 rows then stop (tracking mode); rest until every visible cell is complete
/// (default mode); a slow 3 s drag at one row per second (tracking); rest until the screen is complete and
/// nothing is queued; then idle with nothing queued, measuring wake-ups and CPU.
@MainActor
struct ScenarioRunner {
  let settings: ScenarioSettings
  /// The unmeasured settle before the idle window, s.
  static let settleSeconds = 0.05

  /// Runs the scenario once and returns its figures.
  func run(_ kind: StrategyKind, refreshHz: Int) -> ScenarioResult {
    let model = FeedModel.standard(seed: settings.seed)
    let displayLink = DisplayLink(refreshHz: refreshHz)
    let recorder = Recorder()
    let strategy = kind.make()
    strategy.install(for: .feed, displayLink: displayLink)
    let feed = FeedView(model: model, strategy: strategy, recorder: recorder, displayLink: displayLink)
    feed.loadInitialScreen()
    displayLink.onFrame = { feed.frame(at: $0) }
    displayLink.onFrameEnd = { recorder.recordFrame(start: $0, end: $1, afterResume: $2) }
    let gate = PhaseGate()
    let origin = Clock.now

    // Fling through ~100 rows, then stop.
    recorder.begin(.fling, at: Clock.now)
    let velocity = ScrollMotion.flingVelocity(
      distance: settings.flingRows * model.rowHeight, rate: settings.decelerationRate,
      stopVelocity: settings.stopVelocity)
    feed.begin(.fling(velocity: velocity, rate: settings.decelerationRate, stopVelocity: settings.stopVelocity))
    let flingSeconds = ScrollMotion.flingDuration(
      velocity: velocity, rate: settings.decelerationRate, stopVelocity: settings.stopVelocity)
    gate.run(mode: RunLoopModes.trackingCF, timeout: flingSeconds + 10) { !feed.isScrolling }
    let flingStop = Clock.now
    recorder.end(at: flingStop)
    recorder.rowsVisibleAtFlingStop = feed.visibleRows

    // Rest until every visible cell is complete (and its fade-in is over).
    recorder.begin(.fill, at: flingStop)
    if feed.isVisibleContentComplete { recorder.contentComplete = flingStop }
    gate.run(mode: RunLoopModes.defaultCF, timeout: settings.restTimeout) {
      feed.isVisibleContentComplete && !displayLink.isRunning
    }
    recorder.end(at: Clock.now)

    // A slow drag at one row per second.
    let dragStart = Clock.now
    recorder.begin(.slowDrag, at: dragStart)
    feed.startBlankMeter(at: dragStart)
    feed.begin(.drag(speed: settings.dragRowsPerSecond * model.rowHeight, duration: settings.dragSeconds))
    gate.run(mode: RunLoopModes.trackingCF, timeout: settings.dragSeconds + 10) { !feed.isScrolling }
    let dragEnd = Clock.now
    feed.sampleBlank(at: dragEnd)
    recorder.end(at: dragEnd)

    // Rest until the screen is complete and the strategy holds nothing.
    recorder.begin(.rest, at: dragEnd)
    gate.run(mode: RunLoopModes.defaultCF, timeout: settings.restTimeout) {
      feed.isVisibleContentComplete && !displayLink.isRunning && strategy.pendingCount == 0
    }
    recorder.end(at: Clock.now)

    // Idle: nothing queued, nothing moving. A short unmeasured settle first, so that a wake-up the
    // harness itself left pending (the `CFRunLoopStop` that ended the previous phase) is not counted.
    RunLoopModes.run(mode: RunLoopModes.defaultCF, timeout: ScenarioRunner.settleSeconds, until: { false })
    recorder.pendingAtIdleStart = strategy.pendingCount
    recorder.begin(.idle, at: Clock.now)
    let idle = IdleProbe.measure(seconds: settings.idleSeconds)
    recorder.end(at: Clock.now)
    recorder.idleWakeups = idle.wakeups
    recorder.idleCPUSeconds = idle.cpuSeconds
    recorder.idleSeconds = idle.seconds

    strategy.uninstall()
    displayLink.invalidate()
    gate.invalidate()
    return ScenarioMetrics.result(
      kind: kind, refreshHz: refreshHz, recorder: recorder,
      link: (displayLink.originNanos, displayLink.period), origin: origin)
  }
}
