/// The `--json` document: issue 3's `results` and `throughput` shapes (every documented key, in order),
/// plus extra keys that explain them, the targets, the settings and the machine.
enum JSONReport {
  /// The document.
  static func document(_ report: BenchmarkReport) -> JSONValue {
    let results = report.scenarios.map { scenario -> JSONValue in
      let r = scenario.median
      return .object([
        ("strategy", .string(r.strategy.rawValue)),
        ("refreshHz", .int(r.refreshHz)),
        ("frames", .int(r.frames)),
        ("droppedFrames", .int(r.droppedFrames)),
        ("p99FrameMs", .number(r.p99FrameMs, 2)),
        ("maxFrameMs", .number(r.maxFrameMs, 2)),
        ("contentCompleteMs", .number(r.contentCompleteMs, 1)),
        ("contentIdealMs", .number(r.contentIdealMs, 1)),
        ("staleExecutions", .int(r.staleExecutions)),
        ("visibleTasksEvicted", .int(r.visibleTasksEvicted)),
        ("blankCellSecondsSlowDrag", .number(r.blankCellSecondsSlowDrag, 3)),
        ("idleWakeupsPerSecond", .number(r.idleWakeupsPerSecond, 2)),
        ("idleCpuMsPerSecond", .number(r.idleCpuMsPerSecond, 3)),
        // Extras.
        ("contentRatio", .number(scenario.contentRatio, 3)),
        (
          "droppedFramesByPhase",
          .object(Phase.allCases.filter { $0 != .idle }.map { ($0.rawValue, .int(r.droppedByPhase[$0] ?? 0)) })
        ),
        ("offscreenExecutions", .int(r.offscreenExecutions)),
        ("tasksEvicted", .int(r.evicted)),
        ("drawsExecuted", .int(r.drawsExecuted)),
        ("drawMsMedian", .number(r.drawMsMedian, 3)),
        ("pendingAtIdleStart", .int(r.pendingAtIdleStart)),
        ("runs", .int(scenario.runs)),
      ])
    }
    let throughput = report.throughput.map { entry -> JSONValue in
      let t = entry.result
      return .object([
        ("strategy", .string(t.strategy.rawValue)),
        ("tasksPerSecond", .number(t.tasksPerSecond, 0)),
        ("idealTasksPerSecond", .number(t.idealTasksPerSecond, 0)),
        ("droppedFrames", .int(t.droppedFrames)),
        // Extras.
        ("ratioToIdeal", .number(entry.ratio, 3)),
        ("tasksExecuted", .int(t.executed)),
        ("windowSeconds", .number(t.windowSeconds, 3)),
        ("meanTaskMicroseconds", .number(t.meanTaskMicroseconds, 2)),
        ("timedOut", .bool(t.timedOut)),
        ("enqueueMs", .number(t.enqueueMs, 2)),
      ])
    }
    let targets = report.targets.map { check -> JSONValue in
      .object([
        ("name", .string(check.name)), ("scope", .string(check.scope)), ("measured", .string(check.measured)),
        ("limit", .string(check.limit)), ("passed", .bool(check.passed)),
      ])
    }
    let s = report.settings
    return .object([
      ("benchmark", .string("FeedDemo")),
      ("command", .string(report.command)),
      ("quick", .bool(report.options.quick)),
      ("runsPerFigure", .int(report.options.runs)),
      (
        "machine",
        .object([
          ("cpu", .string(report.machine.cpuModel)), ("processors", .int(report.machine.processors)),
          ("uname", .string(report.machine.unameText)), ("loadAverage", .string(report.machine.loadAverage)),
          ("date", .string(report.machine.date)),
        ])
      ),
      (
        "scenario",
        .object([
          ("rows", .int(399)), ("rowHeightPt", .int(135)), ("viewportPt", .int(812)), ("imagesPerRow", .int(3)),
          ("imagePixels", .int(ImageRasterizer.pixelSize)), ("imageDrawMsMedian", .number(report.imageDrawMs, 3)),
          ("flingRows", .number(s.flingRows, 1)), ("decelerationRatePerMs", .number(s.decelerationRate, 3)),
          ("dragRowsPerSecond", .number(s.dragRowsPerSecond, 1)), ("dragSeconds", .number(s.dragSeconds, 1)),
          ("idleSeconds", .number(s.idleSeconds, 1)), ("frameWorkFractionOfPeriod", .number(0.25, 2)),
          ("fadeInSeconds", .number(0.3, 1)), ("throughputTasks", .int(s.throughputTasks)),
          ("throughputTaskMicroseconds", .number(s.throughputTaskMicroseconds, 1)),
          ("throughputRefreshHz", .int(s.throughputRefreshHz)), ("seed", .int(Int(s.seed))),
        ])
      ),
      ("results", .array(results)),
      ("throughput", .array(throughput)),
      ("targets", .array(targets)),
      ("elapsedSeconds", .number(report.elapsedSeconds, 1)),
    ])
  }
}
