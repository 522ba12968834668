/// The terminal report: the feed table, the throughput table, the targets, and how to read them.
enum TableReport {
  /// The report as text.
  static func render(_ report: BenchmarkReport) -> String {
    var lines: [String] = []
    let runs = report.options.runs
    lines.append(
      "FeedDemo — \(report.options.quick ? "quick smoke scenario" : "feed scenario") — "
        + "median of \(runs) run\(runs == 1 ? "" : "s") per figure")
    lines.append(
      "Machine: \(report.machine.cpuModel), \(report.machine.processors) cores, \(report.machine.unameText); "
        + "load \(report.machine.loadAverage); \(report.machine.date)")
    lines.append("Image draw (255×255 px, clip + blend): median \(fmt(report.imageDrawMs, 2)) ms")
    lines.append("")
    let header = [
      "strategy", "Hz", "frames", "dropped", "fl/fi/dr/re", "p99 ms", "max ms", "content ms", "ideal ms", "ratio",
      "stale", "offscr", "vis.evict", "blank s", "wakes/s", "idle cpu ms/s",
    ]
    var rows: [[String]] = []
    for scenario in report.scenarios {
      let r = scenario.median
      let phases = [Phase.fling, .fill, .slowDrag, .rest].map { String(r.droppedByPhase[$0] ?? 0) }
        .joined(separator: "/")
      rows.append([
        r.strategy.rawValue, String(r.refreshHz), String(r.frames), String(r.droppedFrames), phases,
        fmt(r.p99FrameMs, 1), fmt(r.maxFrameMs, 1), r.contentCompleteMs.map { fmt($0, 0) } ?? "never",
        r.contentIdealMs.map { fmt($0, 0) } ?? "-", scenario.contentRatio.map { fmt($0, 2) } ?? "-",
        String(r.staleExecutions), String(r.offscreenExecutions), String(r.visibleTasksEvicted),
        fmt(r.blankCellSecondsSlowDrag, 2), fmt(r.idleWakeupsPerSecond, 1), fmt(r.idleCpuMsPerSecond, 2),
      ])
    }
    lines += table(header: header, rows: rows, leftAligned: 1)
    if !report.throughput.isEmpty {
      lines.append("")
      lines.append(
        "Throughput: \(report.settings.throughputTasks) tasks of ~\(fmt(report.settings.throughputTaskMicroseconds, 0)) µs "
          + "while a \(report.settings.throughputRefreshHz) Hz display link runs")
      let tHeader = ["strategy", "tasks/s", "ideal tasks/s", "ratio", "dropped", "executed", "window s", "task µs"]
      let tRows = report.throughput.map { entry -> [String] in
        let t = entry.result
        return [
          t.strategy.rawValue, fmt(t.tasksPerSecond, 0), fmt(t.idealTasksPerSecond, 0), fmt(entry.ratio, 2),
          String(t.droppedFrames), String(t.executed) + (t.timedOut ? " (timed out)" : ""), fmt(t.windowSeconds, 2),
          fmt(t.meanTaskMicroseconds, 1),
        ]
      }
      lines += table(header: tHeader, rows: tRows, leftAligned: 1)
    }
    if !report.targets.isEmpty {
      lines.append("")
      lines.append("Targets:")
      for check in report.targets {
        lines.append(
          "  [\(check.passed ? "pass" : "MISS")] \(check.scope): \(check.name) = \(check.measured) (target \(check.limit))"
        )
      }
    }
    lines.append("")
    lines.append(contentsOf: legend)
    return lines.joined(separator: "\n")
  }

  static let legend = [
    "dropped: refresh periods with no display-link callback (fl/fi/dr/re: fling / fill / slow drag / rest).",
    "content: fling stop → every visible cell has its 3 images; ideal: the main thread's measured work in that",
    "  window (visible draws + frames) with no idle gap; ratio = content / ideal.",
    "stale: draws for a cell showing another row; offscr: draws for rows off screen (wasted);",
    "vis.evict: tasks dropped by a queue limit while their cell was on screen (the cell stays blank).",
    "blank s: visible cells missing images, integrated over the slow drag (cell-seconds).",
    "wakes/s, idle cpu: run-loop wake-ups and main-thread CPU during the idle phase (nothing queued).",
  ]

  private static func table(header: [String], rows: [[String]], leftAligned: Int) -> [String] {
    var widths = header.map(\.count)
    for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
    func line(_ cells: [String]) -> String {
      cells.enumerated().map { i, cell in
        let pad = String(repeating: " ", count: widths[i] - cell.count)
        return i < leftAligned ? cell + pad : pad + cell
      }.joined(separator: "  ")
    }
    return [line(header), widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")] + rows.map(line)
  }
}
