/// The markdown report (stdout, and `--markdown PATH`): one table per profile and refresh rate, the
/// throughput tables and the enqueue costs, each figure `median [min–max]` over the runs.
enum TableReport {
  /// The columns of a feed table.
  static let feedColumns: [(title: String, metric: ScenarioMetric)] = [
    ("dropped", .droppedFrames), ("fling", .droppedFramesFling), ("back", .droppedFramesFlingBack),
    ("drag", .droppedFramesSlowDrag), ("blank cell·s", .blankCellSeconds),
    ("content ms", .contentCompleteMs), ("content / bound", .contentRatio), ("stale", .staleExecutions),
    ("off-screen", .offscreenExecutions), ("vis. evicted", .visibleTasksEvicted),
    ("idle wakes/s", .idleWakeupsPerSecond), ("idle CPU ms/s", .idleCpuMsPerSecond),
  ]

  /// The columns of the second table of each profile: what drawing costs, and the background path's faults.
  static let costColumns: [(title: String, metric: ScenarioMetric)] = [
    ("blank bound", .blankCellSecondsLowerBound), ("blank / bound", .blankRatio), ("CPU ms", .cpuMs),
    ("main CPU ms", .mainThreadCpuMs), ("draws", .drawsExecuted), ("wasted", .rendersWasted),
    ("wrong-cell", .wrongCellApplies), ("flicker", .flicker), ("threads", .peakThreads),
    ("result bytes", .peakResultBytes),
  ]

  /// The report as markdown.
  static func render(_ report: BenchmarkReport) -> String {
    var lines: [String] = []
    let runs = report.options.runs
    lines.append(
      "# FeedDemo\(report.options.quick ? " (quick)" : "") — median [min–max] of \(runs) run\(runs == 1 ? "" : "s")")
    lines.append("")
    lines.append(
      "Machine: \(report.machine.cpuModel), \(report.machine.processors) cores, \(report.machine.unameText); "
        + "load \(report.machine.loadAverage); \(report.machine.date). One rasterisation: \(fmt(report.imageDrawMs, 2)) ms."
    )
    lines.append("")
    lines.append("`\(report.command)`")
    for profile in report.options.profiles {
      for hz in report.options.refreshRates {
        let figures = report.feed(profile, hz)
        guard !figures.isEmpty else { continue }
        let bound = figures.first?.stats[.contentLowerBoundMs]?.median ?? 0
        lines.append("")
        lines.append("## \(profile.rawValue), \(hz) Hz")
        lines.append("")
        lines.append("\(profile.summary); content lower bound \(fmt(bound, 0)) ms.")
        lines.append("")
        let columns = feedColumns.filter { $0.metric != .droppedFramesFlingBack || profile.settings.backRows > 0 }
        lines.append("| strategy | " + columns.map(\.title).joined(separator: " | ") + " |")
        lines.append("|---|" + String(repeating: "---|", count: columns.count))
        for figure in figures {
          let name = Self.name(figure.strategy)
          let cells = columns.map { (figure.stats[$0.metric] ?? Stat([])).text($0.metric.digits) }
          lines.append("| \(name) | " + cells.joined(separator: " | ") + " |")
        }
        lines.append("")
        lines.append("| strategy | kind | " + costColumns.map(\.title).joined(separator: " | ") + " |")
        lines.append("|---|---|" + String(repeating: "---|", count: costColumns.count))
        for figure in figures {
          let name = Self.name(figure.strategy)
          let cells = costColumns.map { (figure.stats[$0.metric] ?? Stat([])).text($0.metric.digits) }
          lines.append("| \(name) | \(figure.strategy.kindName) | " + cells.joined(separator: " | ") + " |")
        }
      }
    }
    for hz in report.options.refreshRates {
      for mode in ThroughputMode.allCases {
        let figures = report.throughput.filter { $0.refreshHz == hz && $0.mode == mode }
        guard !figures.isEmpty else { continue }
        let s = report.settings
        lines.append("")
        lines.append(
          "## Throughput, \(mode.rawValue), \(hz) Hz: "
            + (mode == .oneFrame
              ? "\(s.oneFrameTasks) tasks in one frame" : "\(s.batchedTasks) tasks, \(s.batchSize) per frame")
            + ", ~\(fmt(s.throughputTaskMicroseconds, 0)) µs each")
        lines.append("")
        lines.append("| strategy | tasks/s | ideal | ratio | dropped | of which after the window | timed out |")
        lines.append("|---|---|---|---|---|---|---|")
        for figure in figures {
          let t = { (metric: ThroughputMetric) in (figure.stats[metric] ?? Stat([])).text(metric.digits) }
          lines.append(
            "| \(figure.strategy.reportName) | \(t(.tasksPerSecond)) | \(t(.idealTasksPerSecond)) | \(t(.ratioToIdeal)) | "
              + "\(t(.droppedFrames)) | \(t(.droppedFramesAfterWindow)) | \(t(.timedOut)) |")
        }
      }
    }
    if let append = report.arrayAppend {
      lines.append("")
      lines.append("## addTask cost, ns per task (\(report.settings.enqueueCount) enqueues)")
      lines.append("")
      lines.append("| strategy | ns per task | × Array.append |")
      lines.append("|---|---|---|")
      lines.append("| Array.append | \(append.text(1)) | 1 |")
      for entry in report.enqueue {
        let ratio = append.median > 0 ? fmt(entry.stat.median / append.median, 1) : "-"
        lines.append("| \(entry.strategy.reportName) | \(entry.stat.text(1)) | \(ratio) |")
      }
    }
    lines.append("")
    lines.append(contentsOf: legend)
    return lines.joined(separator: "\n")
  }

  /// A strategy's name in a table: the README's, then its identifier; the recommended setups in bold.
  static func name(_ strategy: StrategyKind) -> String {
    strategy.isRecommended ? "**\(strategy.displayName)** · `\(strategy.rawValue)`" : strategy.reportName
  }

  static let legend = [
    "dropped: frames whose commit ended after the next vsync, plus vsyncs no frame served (fling / back /",
    "drag: by motion phase). blank cell·s: visible cells' missing images over the flings and the slow drag.",
    "content: scroll stop (reload: the reload) → every visible cell shows its images (0: all drawn during",
    "the motion; never: not within the fill timeout); bound: those draws measured in isolation.",
    "stale: draws that showed a row's old content; off-screen: wasted draws;",
    "vis. evicted: draws a queue limit dropped while their cell was on screen. idle: at rest, nothing queued.",
    "blank bound: the blank cell·s no strategy drawing rows once they appear (not in their frame) can beat with",
    "the machine's cores. CPU: all threads (getrusage), main: the main thread, first fling → end of rest. draws:",
    "images drawn on main or rendered off it; wasted: rendered, never applied; wrong-cell: applied to a cell",
    "showing another row/version; flicker: a visible image lost (seen by a commit) then set again to the same",
    "content; threads: threads the strategy used; result bytes: peak bytes of rendered results alive.",
    "strategy: the README's name, then the identifier --strategies and the JSON use; the recommended in bold.",
  ]
}
