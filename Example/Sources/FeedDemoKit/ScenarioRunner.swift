import Foundation

/// Runs the feed scenario for one strategy, profile and refresh rate on the real main run loop: a fling
/// down (and, dense, back up) in the tracking mode; rest in the default mode until the screen is complete
/// or nothing more can come (reload profile: reloadData shortly after the stop); a slow drag (tracking);
/// rest until the strategy holds nothing; then idle, measuring wake-ups and CPU.
@MainActor
struct ScenarioRunner {
  let settings: ScenarioSettings
  /// The lower bounds, measured once per visible set.
  let bound: ContentBound
  /// The unmeasured settle before the idle window, s.
  static let settleSeconds = 0.05

  /// Runs the scenario once and returns its figures.
  func run(_ kind: StrategyKind, profile: Profile, refreshHz: Int) -> ScenarioResult {
    let p = profile.settings
    let model = FeedModel.make(p, seed: settings.seed)
    let displayLink = DisplayLink(refreshHz: refreshHz, commitFraction: p.commitFraction)
    let recorder = Recorder()
    recorder.recording.origin = displayLink.originNanos
    recorder.recording.period = displayLink.period
    let strategy = kind.make()
    strategy.install(for: .feed, displayLink: displayLink)
    let feed = FeedView(model: model, strategy: strategy, recorder: recorder, displayLink: displayLink)
    feed.loadInitialScreen()
    displayLink.onFrame = { _, start in feed.frame(at: start) }
    displayLink.commit.onCommit = { tick, start, end, afterResume in
      recorder.recordFrame(tick: tick, start: start, commitEnd: end, afterResume: afterResume)
    }
    let gate = PhaseGate()
    let origin = Clock.now

    // Fling down (and, dense, straight back up).
    recorder.begin(.fling, at: Clock.now)
    fling(rows: p.flingRows, model: model, feed: feed, gate: gate)
    if p.backRows > 0 {
      recorder.end(at: Clock.now)
      recorder.begin(.flingBack, at: Clock.now)
      fling(rows: -p.backRows, model: model, feed: feed, gate: gate)
    }
    let stop = Clock.now
    recorder.end(at: stop)
    let rowsAtStop = feed.visibleRows

    // Rest until the screen is complete, or nothing more can come (a queue that evicted a visible draw
    // leaves its cell blank for good). Reload profile: the data changes shortly after the stop.
    recorder.begin(.fill, at: stop)
    var version = 0
    if p.reloads {
      RunLoopModes.run(mode: RunLoopModes.defaultCF, timeout: settings.reloadDelaySeconds, until: { false })
      feed.reloadData()
      version = 1
    }
    recorder.recording.contentLowerBoundMs = bound.milliseconds(model: model, rows: rowsAtStop, version: version)
    recorder.recording.contentStart = Clock.now
    feed.checkContentComplete(at: Clock.now)
    gate.run(mode: RunLoopModes.defaultCF, timeout: settings.fillTimeout) {
      !displayLink.isRunning && (feed.isVisibleContentComplete || strategy.pendingCount == 0)
    }
    recorder.end(at: Clock.now)

    // A slow drag.
    recorder.begin(.slowDrag, at: Clock.now)
    recorder.sampleBlank(at: Clock.now, blank: feed.blankCells)
    feed.begin(.drag(speed: settings.dragRowsPerSecond * model.rowHeight, duration: settings.dragSeconds))
    gate.run(mode: RunLoopModes.trackingCF, timeout: settings.dragSeconds + 5) { !feed.isScrolling }
    recorder.end(at: Clock.now)

    // Rest until the strategy holds nothing.
    recorder.begin(.rest, at: Clock.now)
    gate.run(mode: RunLoopModes.defaultCF, timeout: settings.restTimeout) {
      !displayLink.isRunning && strategy.pendingCount == 0
    }
    recorder.end(at: Clock.now)

    // Idle: nothing queued, nothing moving. A short unmeasured settle first, so that a wake-up the harness
    // itself left pending (the `CFRunLoopStop` that ended the previous phase) is not counted.
    RunLoopModes.run(mode: RunLoopModes.defaultCF, timeout: ScenarioRunner.settleSeconds, until: { false })
    recorder.recording.pendingAtIdleStart = strategy.pendingCount
    strategy.discardPending()
    recorder.begin(.idle, at: Clock.now)
    let idle = IdleProbe.measure(seconds: settings.idleSeconds)
    recorder.end(at: Clock.now)
    recorder.recording.idleWakeups = idle.wakeups
    recorder.recording.idleCPUSeconds = idle.cpuSeconds
    recorder.recording.idleSeconds = idle.seconds

    strategy.uninstall()
    displayLink.invalidate()
    gate.invalidate()
    return ScenarioMetrics.result(
      kind: kind, profile: profile, refreshHz: refreshHz, recording: recorder.recording, origin: origin)
  }

  /// One fling of `rows` rows (negative: upwards), run in the tracking mode until it stops.
  private func fling(rows: Double, model: FeedModel, feed: FeedView, gate: PhaseGate) {
    let velocity = ScrollMotion.flingVelocity(
      distance: rows * model.rowHeight, rate: settings.decelerationRate, stopVelocity: settings.stopVelocity)
    feed.begin(.fling(velocity: velocity, rate: settings.decelerationRate, stopVelocity: settings.stopVelocity))
    let seconds = ScrollMotion.flingDuration(
      velocity: velocity, rate: settings.decelerationRate, stopVelocity: settings.stopVelocity)
    gate.run(mode: RunLoopModes.trackingCF, timeout: seconds + 5) { !feed.isScrolling }
  }
}
