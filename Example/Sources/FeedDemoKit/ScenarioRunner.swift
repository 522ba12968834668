import CoreFoundation
import Foundation

/// Runs the feed scenario for one strategy, profile and refresh rate on the real main run loop: a fling
/// down (and, dense, back up) in the tracking mode; rest in the default mode until the screen is complete
/// or nothing more can come (reload profile: the visible rows reconfigured shortly after the stop); a slow
/// drag (tracking);
/// rest until the strategy holds nothing; then idle, measuring wake-ups and CPU.
@MainActor
struct ScenarioRunner {
  let settings: ScenarioSettings
  /// The lower bounds, measured once per visible set — before the runs (``prepareBound(for:)``), so that
  /// measuring them never blocks the main thread inside a strategy's run.
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
    recorder.recording.threadBaseline = ProcessProbe.liveThreads()
    recorder.recording.drawNanos = bound.fastestDrawNanos(model: model)
    recorder.recording.workerCores = ProcessInfo.processInfo.activeProcessorCount
    recorder.recording.imagesPerRow = model.imagesPerRow
    let strategy = kind.make()
    strategy.install(for: .feed, displayLink: displayLink)
    let ledger = RenderLedger()
    let feed = FeedView(
      model: model, strategy: strategy, recorder: recorder, displayLink: displayLink, ledger: ledger)
    feed.loadInitialScreen()
    recorder.recording.initialRows = feed.visibleRows
    displayLink.onFrame = { _, start in feed.frame(at: start) }
    displayLink.commit.onCommit = { tick, start, end, afterResume in
      recorder.recordFrame(tick: tick, start: start, commitEnd: end, afterResume: afterResume)
    }
    let gate = PhaseGate()
    // The busy profile's load runs through the motion, the fill, the drag and the rest (not the idle window,
    // whose wake-ups and CPU are the strategy's own); its CPU shows in every strategy's process figure alike.
    let load = p.backgroundLoad > 0 ? BackgroundLoad(duty: p.backgroundLoad) : nil
    let origin = Clock.now
    let cpuStart = ProcessProbe.processCPUMilliseconds()
    let mainCPUStart = ProcessProbe.threadCPUMilliseconds()

    // Fling down (and, dense, straight back up). Each motion phase starts with a blank sample, so that the
    // cells already blank when it begins (the second fling starts where the first left rows unfilled)
    // count from its first instant, not from its first frame.
    recorder.begin(.fling, at: Clock.now)
    recorder.sampleBlank(at: Clock.now, blank: feed.blankCells)
    recorder.sampleVisible(at: Clock.now, rows: feed.visibleRows)
    if p.flingRows > 0 { fling(rows: p.flingRows, model: model, feed: feed, gate: gate) }
    if let rowsPerSecond = p.dragRowsPerSecond, let seconds = p.dragSeconds {
      // The profile's motion is a drag begun as soon as the first screen loaded: its rows fill while it moves.
      feed.begin(.drag(speed: rowsPerSecond * model.rowHeight, duration: seconds))
      gate.run(mode: RunLoopModes.trackingCF, timeout: seconds + 5) { !feed.isScrolling }
    }
    if p.backRows > 0 {
      recorder.end(at: Clock.now)
      recorder.begin(.flingBack, at: Clock.now)
      recorder.sampleBlank(at: Clock.now, blank: feed.blankCells)
      recorder.sampleVisible(at: Clock.now, rows: feed.visibleRows)
      fling(rows: -p.backRows, model: model, feed: feed, gate: gate)
    }
    let stop = Clock.now
    recorder.end(at: stop)
    let rowsAtStop = feed.visibleRows

    // Rest until the screen is complete, or nothing more can come (a queue that evicted a visible draw
    // leaves its cell blank for good). Reload profile: the data changes shortly after the stop.
    recorder.begin(.fill, at: stop)
    if p.reloads {
      RunLoopModes.run(mode: RunLoopModes.defaultCF, timeout: settings.reloadDelaySeconds, until: { false })
    }
    Self.startContent(
      feed: feed, recorder: recorder, reconfigure: p.reloads, newContent: !p.reloadKeepsContent)
    gate.run(mode: RunLoopModes.defaultCF, timeout: settings.fillTimeout) {
      !displayLink.isRunning && (feed.isVisibleContentComplete || strategy.pendingCount == 0)
    }
    recorder.end(at: Clock.now)

    // A slow drag.
    recorder.begin(.slowDrag, at: Clock.now)
    recorder.sampleBlank(at: Clock.now, blank: feed.blankCells)
    recorder.sampleVisible(at: Clock.now, rows: feed.visibleRows)
    feed.begin(.drag(speed: settings.dragRowsPerSecond * model.rowHeight, duration: settings.dragSeconds))
    gate.run(mode: RunLoopModes.trackingCF, timeout: settings.dragSeconds + 5) { !feed.isScrolling }
    recorder.end(at: Clock.now)

    // Rest until the strategy holds nothing.
    recorder.begin(.rest, at: Clock.now)
    gate.run(mode: RunLoopModes.defaultCF, timeout: settings.restTimeout) {
      !displayLink.isRunning && strategy.pendingCount == 0
    }
    recorder.end(at: Clock.now)
    load?.stop()
    recorder.recording.cpuProcessMs = ProcessProbe.processCPUMilliseconds() - cpuStart
    recorder.recording.cpuMainMs = ProcessProbe.threadCPUMilliseconds() - mainCPUStart
    ledger.sampleThreads()
    let ledgerFigures = ledger.snapshot
    recorder.recording.backgroundRenders = ledgerFigures.renders
    recorder.recording.threadPeak = ledgerFigures.peakThreads
    recorder.recording.peakConcurrentRenders = ledgerFigures.peakRunning
    recorder.recording.peakResultBytes = ledgerFigures.peakLiveBytes

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
    // Draws a strategy cannot cancel (MSCachedAsyncViewDrawing's) still run after it is gone: the next run starts
    // only once they have ended, so that they never take its cores.
    Self.waitForLeftovers(ledger, timeout: 3)
    // Normally measured before the run (``prepareBound(for:)``) and only looked up here; measured now, after
    // the run, if the scroll stopped on other rows than predicted.
    recorder.recording.contentLowerBoundMs = bound.milliseconds(
      model: model, rows: rowsAtStop, version: p.versionAtFill)
    return ScenarioMetrics.result(
      kind: kind, profile: profile, refreshHz: refreshHz, recording: recorder.recording, origin: origin)
  }

  /// Starts the content-complete clock when the content to show becomes known: at the scroll's stop, or —
  /// `reconfigure` (the reload profile) — immediately *before* the visible rows are reconfigured with new
  /// content, so that a strategy that draws inside `cellForRow` (`sync`) is charged for those draws rather
  /// than finishing in 0 ms. Then records completion at once if the screen is already complete.
  /// `newContent: false` (`reloadSame`): the rows are reconfigured with their unchanged content.
  /// A reload also starts the blank-cell integral from the reload (``Recorder/beginAfterReload(at:blank:)``).
  static func startContent(feed: FeedView, recorder: Recorder, reconfigure: Bool, newContent: Bool = true) {
    let start = Clock.now
    recorder.recording.contentStart = start
    if reconfigure {
      recorder.beginAfterReload(at: start, blank: feed.blankCells)
      feed.reconfigureVisibleRows(newContent: newContent)
    }
    feed.checkContentComplete(at: Clock.now)
  }

  /// The rows on screen when `profile`'s flings have stopped: a fling travels exactly the distance it was
  /// launched for (``ScrollMotion/flingVelocity(distance:rate:stopVelocity:)``), so they are known before
  /// the run.
  nonisolated static func rowsAtStop(_ profile: Profile, seed: UInt64) -> ClosedRange<Int> {
    let p = profile.settings
    let model = FeedModel.make(p, seed: seed)
    let dragRows = (p.dragRowsPerSecond ?? 0) * (p.dragSeconds ?? 0)
    let offset = min(max(0, (p.flingRows - p.backRows + dragRows) * model.rowHeight), model.maximumOffset)
    return model.visibleRows(atOffset: offset)
  }

  /// Measures `profile`'s content lower bound (the rows on screen at the stop, in the content version the
  /// fill must show) now, before any strategy runs, so that the measurement — ~40 ms of draws on the main
  /// thread — never lands inside a run.
  func prepareBound(for profile: Profile) {
    let p = profile.settings
    _ = bound.milliseconds(
      model: FeedModel.make(p, seed: settings.seed), rows: Self.rowsAtStop(profile, seed: settings.seed),
      version: p.versionAtFill)
  }

  /// Turns the main loop until `ledger` has no job outstanding, or `timeout` seconds pass.
  static func waitForLeftovers(_ ledger: RenderLedger, timeout: Double) {
    let deadline = Clock.now + Clock.nanoseconds(timeout)
    while ledger.outstandingJobs > 0, Clock.now < deadline {
      #if canImport(Darwin)
        _ = CFRunLoopRunInMode(CFRunLoopMode.defaultMode, 0.002, true)
      #else
        _ = CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.002, true)
      #endif
    }
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
