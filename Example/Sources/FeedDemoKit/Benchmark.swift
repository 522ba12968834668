import Foundation

/// Runs every selected strategy through every selected profile at every refresh rate, and through the
/// throughput workloads, `runs` times, interleaved (run 1 of everything, then run 2, …) so that a noisy
/// stretch of the shared machine hits all strategies alike; then the enqueue cost; then takes median, min
/// and max of every figure.
@MainActor
struct Benchmark {
  let options: Options
  let command: String

  /// Runs everything and returns the report. Progress goes to stderr.
  func run() -> BenchmarkReport {
    let started = Clock.now
    let load = MachineLoad.Watch()
    let settings: ScenarioSettings = options.quick ? .quick : .full
    RunLoopModes.install()
    Self.warmUpDispatch()
    let imageDrawMs = Self.measureImageDraw()
    let taskIterations = CPUWork.iterations(forMicroseconds: settings.throughputTaskMicroseconds)
    progress(
      "FeedDemo: \(options.profiles.map(\.rawValue).joined(separator: ",")) × "
        + "\(options.refreshRates.map { "\($0) Hz" }.joined(separator: ", ")) × \(options.strategies.count) strategies "
        + "× \(options.runs) run(s) = \(scenarioCount) feed runs; image draw \(fmt(imageDrawMs, 2)) ms")
    if let before = load.otherCores(), MachineLoad.isBusy(before) {
      progress(MachineLoad.sentence(before, processors: ProcessInfo.processInfo.activeProcessorCount))
    }
    var done = 0
    progress("FeedDemo: the commit kernel runs \(fmt(CPUWork.iterationsPerNanosecond * 1000, 0)) rounds a microsecond")
    let contention = options.load > 0 ? BackgroundLoad(duty: options.load) : nil
    defer { contention?.stop() }

    let bound = ContentBound()
    let runner = ScenarioRunner(settings: settings, bound: bound)
    var workload = ThroughputWorkload(settings: settings, taskIterations: taskIterations)
    var feedRuns: [String: [ScenarioResult]] = [:]
    var throughputRuns: [String: [ThroughputResult]] = [:]
    var order = SplitMix(seed: Clock.now)
    for run in 1...options.runs {
      for profile in options.profiles {
        for hz in options.refreshRates {
          // Each profile-rate of each round runs the strategies in a new random order (seeded by the clock, so each
          // sweep differs): no strategy always follows the same one, or runs first after the bound's measurement.
          let strategies = Self.shuffled(options.strategies, using: &order)
          // The bound's draws are timed again before every profile and rate (~0.2–0.6 s): each draw keeps
          // its fastest time over the whole benchmark, not one moment's (``ContentBound``).
          bound.refresh()
          runner.prepareBound(for: profile)
          for kind in strategies {
            let begin = Clock.now
            let result = runner.run(kind, profile: profile, refreshHz: hz)
            feedRuns["\(profile.rawValue)/\(hz)/\(kind.rawValue)", default: []].append(result)
            if debug { dumpDrops(result) }
            done += 1
            progress(
              progressLine(
                done: done, run: run, profile: profile, hz: hz, kind: kind, result: result, since: started, began: begin
              ))
          }
        }
      }
      if !options.skipThroughput {
        for hz in options.refreshRates {
          // The ideal's task cost, re-measured before each rate of each round like the content bound; the
          // smallest is kept.
          workload.taskNanos = min(
            workload.taskNanos, ThroughputWorkload.isolatedTaskNanos(iterations: workload.taskIterations))
          for mode in ThroughputMode.allCases {
            // The throughput workloads and the enqueue cost measure main-thread task queues: the background
            // strategies would hand every task to the main queue (`mainQueue`'s figures).
            for kind in Self.shuffled(options.strategies, using: &order) where !kind.isBackground {
              let result = workload.run(kind, mode: mode, refreshHz: hz)
              throughputRuns["\(mode.rawValue)/\(hz)/\(kind.rawValue)", default: []].append(result)
              progress(
                "  run \(run)/\(options.runs) throughput \(mode.rawValue) \(hz) Hz \(kind.displayName): "
                  + "\(fmt(result[.tasksPerSecond], 0)) tasks/s (×\(fmt(result[.ratioToIdeal], 2)) of ideal), dropped "
                  + "\(fmt(result[.droppedFrames], 0)) (\(fmt(result[.droppedFramesAfterWindow], 0)) after)")
            }
          }
        }
      }
    }

    var enqueue: [(strategy: StrategyKind, stat: Stat)] = []
    var arrayAppend: Stat?
    if !options.skipEnqueueCost {
      arrayAppend = Stat(
        EnqueueCost.arrayAppend(count: settings.enqueueCount, repetitions: settings.enqueueRepetitions))
      for kind in options.strategies where !kind.isBackground {
        let stat = Stat(
          EnqueueCost.strategy(kind, count: settings.enqueueCount, repetitions: settings.enqueueRepetitions))
        enqueue.append((kind, stat))
        progress("  addTask cost \(kind.displayName): \(stat.text(1)) ns per task")
        // Drain what the main queue strategy left behind (its blocks are no-ops after `uninstall`).
        RunLoopModes.run(mode: RunLoopModes.defaultCF, timeout: 0.01, until: { false })
      }
    }

    var feed: [BenchmarkReport.FeedFigure] = []
    for profile in options.profiles {
      for hz in options.refreshRates {
        for kind in options.strategies {
          guard var runs = feedRuns["\(profile.rawValue)/\(hz)/\(kind.rawValue)"] else { continue }
          // Every run's ratio against the smallest bound any round measured for that profile and rate.
          let smallest = feedRuns.filter { $0.key.hasPrefix("\(profile.rawValue)/\(hz)/") }.values
            .flatMap { $0.map { $0[.contentLowerBoundMs] } }.filter { $0 > 0 }.min()
          if let smallest {
            for index in runs.indices {
              runs[index].values[.contentLowerBoundMs] = smallest
              runs[index].values[.contentRatio] = runs[index][.contentCompleteMs] / smallest
            }
          }
          var stats: [ScenarioMetric: Stat] = [:]
          for metric in ScenarioMetric.allCases { stats[metric] = Stat(runs.map { $0[metric] }) }
          feed.append(.init(profile: profile, refreshHz: hz, strategy: kind, stats: stats, firstRun: runs[0]))
        }
      }
    }
    var throughput: [BenchmarkReport.ThroughputFigure] = []
    for hz in options.refreshRates {
      for mode in ThroughputMode.allCases {
        for kind in options.strategies {
          guard let runs = throughputRuns["\(mode.rawValue)/\(hz)/\(kind.rawValue)"] else { continue }
          var stats: [ThroughputMetric: Stat] = [:]
          for metric in ThroughputMetric.allCases { stats[metric] = Stat(runs.map { $0[metric] }) }
          throughput.append(.init(mode: mode, refreshHz: hz, strategy: kind, stats: stats))
        }
      }
    }
    return BenchmarkReport(
      command: command, options: options, settings: settings, machine: MachineInfo.current(),
      imageDrawMs: imageDrawMs, feed: feed, throughput: throughput, enqueue: enqueue, arrayAppend: arrayAppend,
      elapsedSeconds: Double(Clock.now - started) / 1e9, otherCores: load.otherCores())
  }

  /// Feed runs the options ask for.
  var scenarioCount: Int {
    options.profiles.count * options.refreshRates.count * options.strategies.count * options.runs
  }

  /// One feed run's progress line: how far, an estimate of the time left, the run's headline figures.
  private func progressLine(
    done: Int, run: Int, profile: Profile, hz: Int, kind: StrategyKind, result: ScenarioResult, since started: UInt64,
    began: UInt64
  ) -> String {
    let elapsed = Double(Clock.now - started) / 1e9
    let left = elapsed / Double(done) * Double(scenarioCount - done)
    let counter =
      "[\(done)/\(scenarioCount), ~\(Int(left.rounded(.up)) / 60):\(String(format: "%02d", Int(left.rounded(.up)) % 60)) left]"
    var line =
      "\(counter) run \(run) \(profile.rawValue) \(hz) Hz \(kind.displayName): dropped \(fmt(result[.droppedFrames], 0)), "
      + "blank \(fmt(result[.blankCellSeconds], 2)) cell·s, \(Self.contentText(result, profile: profile))"
    if kind.isBackground {
      line +=
        ", wasted \(fmt(result[.rendersWasted], 0)), wrong-cell \(fmt(result[.wrongCellApplies], 0)), flicker \(fmt(result[.flicker], 0))"
    }
    return line + " (\(fmt(Clock.milliseconds(from: began, to: Clock.now) / 1000, 1)) s)"
  }

  /// `strategies` in a random order drawn from `generator` (Fisher–Yates).
  nonisolated static func shuffled(_ strategies: [StrategyKind], using generator: inout SplitMix) -> [StrategyKind] {
    var result = strategies
    for i in stride(from: result.count - 1, to: 0, by: -1) {
      result.swapAt(i, Int(generator.next() % UInt64(i + 1)))
    }
    return result
  }

  /// libdispatch starts its worker threads lazily: one hop to the global queues and back before the runs,
  /// so that the first scenario's thread count (``ScenarioMetric/peakThreads``) does not include them.
  static func warmUpDispatch() {
    let done = Locked(false)
    for qos in [DispatchQoS.QoSClass.userInteractive, .userInitiated, .default] {
      DispatchQueue.global(qos: qos).async { DispatchQueue.main.async { done.value = true } }
    }
    RunLoopModes.run(mode: RunLoopModes.defaultCF, timeout: 0.05, until: { false })
  }

  /// Median time of one image rasterisation on this machine (also warms the code up).
  static func measureImageDraw() -> Double {
    var buffer: [UInt8] = []
    var samples: [Double] = []
    var sink: UInt32 = 0
    for seed in 0..<15 {
      let start = Clock.now
      sink &+= ImageRasterizer.draw(seed: UInt64(seed), into: &buffer)
      samples.append(Clock.milliseconds(from: start, to: Clock.now))
    }
    return Stat(samples).median + Double(sink & 1) * 1e-9
  }

  /// When the visible content was complete, in words: at the scroll's stop (drawn during the motion) or the
  /// reload, so many ms after it (and that over the draws' own time in isolation), or never (not within the fill
  /// timeout).
  static func contentText(_ result: ScenarioResult, profile: Profile) -> String {
    let ms = result[.contentCompleteMs]
    let start = profile.rawValue.hasPrefix("reload") ? "the reload" : "the stop"
    if !ms.isFinite { return "content never complete" }
    if ms == 0 { return "content complete at \(start)" }
    return "content complete \(fmt(ms, 0)) ms after \(start) (×\(fmt(result[.contentRatio], 2)) the bound)"
  }

  /// `FEEDDEMO_DEBUG=1` lists every frame with drops on stderr.
  private var debug: Bool { ProcessInfo.processInfo.environment["FEEDDEMO_DEBUG"] != nil }

  private func dumpDrops(_ result: ScenarioResult) {
    for point in result.chart where point.dropped > 0 {
      let phase = result.phaseSpans.last { $0.start <= point.time }?.phase.rawValue ?? "?"
      progress(
        "    drop: \(phase) t=\(fmt(point.time, 3)) s, commit \(fmt(point.latencyMs, 1)) ms after vsync, \(point.dropped) dropped"
      )
    }
  }

  private func progress(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
  }
}
