import Foundation

/// Runs every selected strategy through the feed scenario at every refresh rate, and through the
/// throughput workload, `runs` times, interleaved (run 1 of everything, then run 2, …) so that a noisy
/// stretch of the shared machine hits all strategies alike; then takes medians and checks the targets.
@MainActor
struct Benchmark {
  let options: Options
  let command: String

  /// Runs everything and returns the report. Progress goes to stderr.
  func run() -> BenchmarkReport {
    let started = Clock.now
    let settings: ScenarioSettings = options.quick ? .quick : .full
    RunLoopModes.install()
    let imageDrawMs = Self.measureImageDraw()
    let taskIterations = CPUWork.iterations(forMicroseconds: settings.throughputTaskMicroseconds)
    progress(
      "FeedDemo: \(options.strategies.count) strategies × \(options.refreshRates.map { "\($0) Hz" }.joined(separator: ", ")) "
        + "× \(options.runs) run(s); image draw \(fmt(imageDrawMs, 2)) ms")

    let runner = ScenarioRunner(settings: settings)
    var feedRuns: [String: [ScenarioResult]] = [:]
    var throughputRuns: [StrategyKind: [ThroughputResult]] = [:]
    let workload = ThroughputWorkload(settings: settings, taskIterations: taskIterations)
    for run in 1...options.runs {
      for hz in options.refreshRates {
        for kind in options.strategies {
          let begin = Clock.now
          let result = runner.run(kind, refreshHz: hz)
          feedRuns["\(kind.rawValue)@\(hz)", default: []].append(result)
          if debug { dumpDrops(result) }
          progress(
            "  run \(run)/\(options.runs) \(hz) Hz \(kind.rawValue): dropped \(result.droppedFrames), content "
              + "\(result.contentCompleteMs.map { fmt($0, 0) } ?? "never") ms, blank \(fmt(result.blankCellSecondsSlowDrag, 2)) s, "
              + "wakes/s \(fmt(result.idleWakeupsPerSecond, 1)) (\(fmt(Clock.milliseconds(from: begin, to: Clock.now) / 1000, 1)) s)"
          )
        }
      }
      if !options.skipThroughput {
        for kind in options.strategies {
          let result = workload.run(kind)
          throughputRuns[kind, default: []].append(result)
          if debug {
            for drop in result.drops {
              progress("    drop: t=\(fmt(drop.time, 3)) s interval \(fmt(drop.ms, 1)) ms, \(drop.dropped) dropped")
            }
          }
          progress(
            "  run \(run)/\(options.runs) throughput \(kind.rawValue): \(fmt(result.tasksPerSecond, 0)) tasks/s "
              + "(ideal \(fmt(result.idealTasksPerSecond, 0))), dropped \(result.droppedFrames), "
              + "enqueue \(fmt(result.enqueueMs, 1)) ms")
        }
      }
    }

    var scenarios: [Aggregate.Scenario] = []
    for hz in options.refreshRates {
      for kind in options.strategies {
        if let runs = feedRuns["\(kind.rawValue)@\(hz)"] { scenarios.append(Aggregate.scenario(runs)) }
      }
    }
    let throughput = options.strategies.compactMap { kind -> (result: ThroughputResult, ratio: Double)? in
      guard let runs = throughputRuns[kind] else { return nil }
      return (Aggregate.throughput(runs), Aggregate.throughputRatio(runs))
    }
    return BenchmarkReport(
      command: command, options: options, settings: settings, machine: MachineInfo.current(),
      imageDrawMs: imageDrawMs, taskIterations: taskIterations, scenarios: scenarios, throughput: throughput,
      targets: TargetCheck.evaluate(scenarios: scenarios, throughput: throughput),
      elapsedSeconds: Double(Clock.now - started) / 1e9)
  }

  /// Median time of one image draw on this machine (also warms the code up).
  static func measureImageDraw() -> Double {
    var buffer: [UInt8] = []
    var samples: [Double] = []
    var sink: UInt32 = 0
    for seed in 0..<25 {
      let start = Clock.now
      sink &+= ImageRasterizer.draw(seed: UInt64(seed), into: &buffer)
      samples.append(Clock.milliseconds(from: start, to: Clock.now))
    }
    return Aggregate.median(samples) + Double(sink & 1) * 1e-9
  }

  /// `FEEDDEMO_DEBUG=1` lists every interval with dropped frames on stderr.
  private var debug: Bool { ProcessInfo.processInfo.environment["FEEDDEMO_DEBUG"] != nil }

  private func dumpDrops(_ result: ScenarioResult) {
    for interval in result.intervals where interval.dropped > 0 {
      let phase = result.phaseSpans.last { $0.start <= interval.time }?.phase.rawValue ?? "?"
      progress(
        "    drop: \(phase) t=\(fmt(interval.time, 3)) s interval \(fmt(interval.ms, 1)) ms, \(interval.dropped) dropped"
      )
    }
  }

  private func progress(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
  }
}
