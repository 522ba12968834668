/// The `--json` document (format 2, revision 4; every field documented in Example/README.md): the machine
/// and settings, the strategies (their kind, the granularity their main-thread work is handed over at, whether
/// they prefetch, their result byte limit, the recommended IdleWork setup of each kind and the canaries
/// flagged), the contests the verdict and the README judge, then
/// `profiles[] → rates[] → strategies[] → metrics{}` and `throughput[] → strategies[] → metrics{}`, every
/// figure as `{median, min, max, runs}` over the runs, and `addTaskCost`.
enum JSONReport {
  /// The document. Revision 4 added `blankCellSecondsAfterReload` (`null` in profiles without a reload),
  /// each strategy's `resultByteLimit` (`null`: none) and each profile's `imagePixels`.
  @MainActor
  static func document(_ report: BenchmarkReport) -> JSONValue {
    let s = report.settings
    let strategies = report.options.strategies.map(strategy)
    let profiles = report.options.profiles.map { profile -> JSONValue in
      let p = profile.settings
      let rates = report.options.refreshRates.map { hz -> JSONValue in
        let entries = report.feed(profile, hz).map { figure -> JSONValue in
          .object([
            ("strategy", .string(figure.strategy.rawValue)),
            (
              "metrics",
              .object(
                ScenarioMetric.allCases.map { metric in
                  (metric.rawValue, stat(figure.stats[metric] ?? Stat([]), metric.digits))
                })
            ),
          ])
        }
        return .object([("refreshHz", .int(hz)), ("strategies", .array(entries))])
      }
      return .object([
        ("name", .string(profile.rawValue)), ("description", .string(profile.summary)),
        ("rowHeightPt", .number(p.rowHeight, 0)), ("drawPasses", .int(p.drawPasses)),
        ("commitFractionOfPeriod", .number(p.commitFraction, 2)), ("flingRows", .number(p.flingRows, 1)),
        ("backRows", .number(p.backRows, 1)), ("reloads", .bool(p.reloads)), ("imagePixels", .int(p.imagePixels)),
        ("rates", .array(rates)),
      ])
    }
    let throughput = report.options.refreshRates.flatMap { hz in
      ThroughputMode.allCases.compactMap { mode -> JSONValue? in
        let figures = report.throughput.filter { $0.refreshHz == hz && $0.mode == mode }
        guard !figures.isEmpty else { return nil }
        return .object([
          ("mode", .string(mode.rawValue)), ("refreshHz", .int(hz)),
          ("tasks", .int(mode == .oneFrame ? s.oneFrameTasks : s.batchedTasks)),
          ("tasksPerFrame", .int(mode == .oneFrame ? s.oneFrameTasks : s.batchSize)),
          (
            "strategies",
            .array(
              figures.map { figure in
                .object([
                  ("strategy", .string(figure.strategy.rawValue)),
                  (
                    "metrics",
                    .object(
                      ThroughputMetric.allCases.map { metric in
                        (metric.rawValue, stat(figure.stats[metric] ?? Stat([]), metric.digits))
                      })
                  ),
                ])
              })
          ),
        ])
      }
    }
    var addTaskCost: [(String, JSONValue)] = []
    if let append = report.arrayAppend {
      addTaskCost = [
        ("enqueues", .int(s.enqueueCount)), ("repetitions", .int(s.enqueueRepetitions)),
        ("arrayAppendNsPerTask", stat(append, 1)),
        (
          "strategies",
          .array(
            report.enqueue.map { entry in
              .object([
                ("strategy", .string(entry.strategy.rawValue)), ("nsPerTask", stat(entry.stat, 1)),
                ("ratioToArrayAppend", .number(append.median > 0 ? entry.stat.median / append.median : nil, 1)),
              ])
            })
        ),
      ]
    }
    return .object([
      ("benchmark", .string("FeedDemo")),
      ("format", .int(2)),
      ("formatRevision", .int(5)),
      ("command", .string(report.command)),
      ("quick", .bool(report.options.quick)),
      ("runsPerFigure", .int(report.options.runs)),
      (
        "machine",
        .object([
          ("cpu", .string(report.machine.cpuModel)), ("processors", .int(report.machine.processors)),
          ("uname", .string(report.machine.unameText)), ("loadAverage", .string(report.machine.loadAverage)),
          ("date", .string(report.machine.date)),
          ("otherProcessesCores", report.otherCores.map { .number($0, 2) } ?? .null),
          ("busy", .bool(MachineLoad.isBusy(report.otherCores))),
          ("mainThreadPriority", .string(ThreadPriority.mainThread)),
        ])
      ),
      (
        "settings",
        .object([
          ("rows", .int(399)), ("viewportPt", .int(812)), ("imagesPerRow", .int(3)),
          ("imagePixels", .int(ImageRasterizer.pixelSize)), ("imageDrawMsMedian", .number(report.imageDrawMs, 3)),
          ("decelerationRatePerMs", .number(s.decelerationRate, 3)),
          ("dragRowsPerSecond", .number(s.dragRowsPerSecond, 1)), ("dragSeconds", .number(s.dragSeconds, 2)),
          ("idleSeconds", .number(s.idleSeconds, 2)), ("reloadDelaySeconds", .number(s.reloadDelaySeconds, 3)),
          ("throughputTaskMicroseconds", .number(s.throughputTaskMicroseconds, 1)),
          ("throughputCommitFractionOfPeriod", .number(s.throughputCommitFraction, 2)),
          ("seed", .int(Int(s.seed))), ("cores", .int(report.machine.processors)),
        ])
      ),
      ("strategies", .array(strategies)),
      (
        "contests",
        .array(
          Verdict.contests(measured: report.options.strategies).map { contest in
            .object([
              ("title", .string(contest.title)), ("idleWork", .string(contest.idleWork.rawValue)),
              ("peers", .array(contest.peers.map { .string($0.rawValue) })),
            ])
          })
      ),
      ("profiles", .array(profiles)),
      ("throughput", .array(throughput)),
      ("addTaskCost", addTaskCost.isEmpty ? .null : .object(addTaskCost)),
      ("elapsedSeconds", .number(report.elapsedSeconds, 1)),
    ])
  }

  /// A strategy's entry in `strategies[]`: its name, kind, policy, the granularity its main-thread work is
  /// handed over at (`"whole"` or `"tiles"`, ``StrategyKind/granularity``), and its flags.
  @MainActor
  static func strategy(_ kind: StrategyKind) -> JSONValue {
    let made = kind.make()
    return .object([
      ("name", .string(kind.rawValue)), ("kind", .string(kind.kindName)), ("policy", .string(kind.policy)),
      ("granularity", .string(kind.granularity.rawValue)), ("prefetches", .bool(made.drawsAhead)),
      ("resultByteLimit", made.resultByteLimit.map { .int($0) } ?? .null),
      ("recommended", .bool(kind.isRecommended)), ("canary", .bool(kind.isCanary)),
    ])
  }

  /// `{median, min, max, runs}` (`runs`: every run's value, for rank tests); infinity ("never") becomes `null`.
  static func stat(_ stat: Stat, _ digits: Int) -> JSONValue {
    .object([
      ("median", .number(stat.median, digits)), ("min", .number(stat.min, digits)),
      ("max", .number(stat.max, digits)), ("runs", .array(stat.values.map { .number($0, digits) })),
    ])
  }
}
