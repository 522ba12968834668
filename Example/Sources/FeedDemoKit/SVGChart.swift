import Foundation

/// The `--svg` charts, one per profile: each frame's commit latency (vsync → end of its commit) over
/// time, one panel per strategy (rows) and refresh rate (columns), with the tracking phases shaded, the
/// deadline (one period: past it the frame is dropped) as a reference line, and frames with drops in red.
/// Latencies above four periods are clipped to the panel's top and marked.
enum SVGChart {
  private static let panelWidth = 560.0
  private static let panelHeight = 96.0
  private static let leftMargin = 150.0
  private static let columnGap = 40.0
  private static let rowGap = 34.0
  private static let top = 92.0

  /// The chart as an SVG document.
  static func render(_ report: BenchmarkReport, profile: Profile) -> String {
    let figures = report.feed.filter { $0.profile == profile }
    let rates = report.options.refreshRates.filter { hz in figures.contains { $0.refreshHz == hz } }
    let strategies = report.options.strategies
    let width = leftMargin + Double(rates.count) * (panelWidth + columnGap) + 10
    let height = top + Double(strategies.count) * (panelHeight + rowGap) + 40
    var svg: [String] = []
    svg.append(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(i(width))\" height=\"\(i(height))\" "
        + "viewBox=\"0 0 \(i(width)) \(i(height))\" font-family=\"Helvetica, Arial, sans-serif\">")
    svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>")
    svg.append(
      text(
        leftMargin, 24, "FeedDemo, \(profile.rawValue) profile: frame commit latency (first run), per strategy",
        size: 16,
        weight: "bold"))
    svg.append(
      text(
        leftMargin, 44,
        "y: ms from vsync to the end of the frame's commit (0 to 4 periods; taller clipped, ▲). Dashed: the "
          + "deadline, one period. Figures under each panel: medians over all runs.",
        size: 11))
    svg.append(
      "<rect x=\"\(i(leftMargin))\" y=\"54\" width=\"14\" height=\"10\" fill=\"#dbe9f7\"/>"
        + text(leftMargin + 18, 63, "tracking mode (fling, slow drag)", size: 11)
        + "<rect x=\"\(i(leftMargin + 220))\" y=\"54\" width=\"14\" height=\"10\" fill=\"#f2f2f2\"/>"
        + text(leftMargin + 238, 63, "default mode (fill, rest)", size: 11)
        + "<circle cx=\"\(i(leftMargin + 400))\" cy=\"59\" r=\"3\" fill=\"#d62728\"/>"
        + text(leftMargin + 408, 63, "interval with dropped frames", size: 11))
    for (column, hz) in rates.enumerated() {
      let x0 = leftMargin + Double(column) * (panelWidth + columnGap)
      svg.append(text(x0 + panelWidth / 2 - 20, top - 10, "\(hz) Hz", size: 13, weight: "bold"))
      let scenarios = figures.filter { $0.refreshHz == hz }
      let span = scenarios.flatMap { $0.firstRun.phaseSpans.filter { $0.phase != .idle }.map(\.end) }.max() ?? 1
      for (row, kind) in strategies.enumerated() {
        guard let scenario = scenarios.first(where: { $0.strategy == kind }) else { continue }
        let y0 = top + Double(row) * (panelHeight + rowGap)
        if column == 0 {
          svg.append(text(10, y0 + panelHeight / 2 + 4, kind.rawValue, size: 13, weight: "bold"))
        }
        svg.append(panel(scenario, x0: x0, y0: y0, seconds: span, hz: hz))
      }
    }
    svg.append("</svg>")
    return svg.joined(separator: "\n")
  }

  private static func panel(
    _ figure: BenchmarkReport.FeedFigure, x0: Double, y0: Double, seconds: Double, hz: Int
  )
    -> String
  {
    let r = figure.firstRun
    let period = 1000 / Double(hz)
    let yMax = 4 * period
    let sx = { (t: Double) in x0 + min(max(t, 0), seconds) / seconds * panelWidth }
    let sy = { (ms: Double) in y0 + panelHeight - min(ms, yMax) / yMax * panelHeight }
    var parts: [String] = []
    parts.append(
      "<rect x=\"\(f(x0))\" y=\"\(f(y0))\" width=\"\(f(panelWidth))\" height=\"\(f(panelHeight))\" fill=\"#f2f2f2\"/>")
    for span in r.phaseSpans where span.phase.isMotion {
      parts.append(
        "<rect x=\"\(f(sx(span.start)))\" y=\"\(f(y0))\" width=\"\(f(max(1, sx(span.end) - sx(span.start))))\" "
          + "height=\"\(f(panelHeight))\" fill=\"#dbe9f7\"/>")
    }
    // Phase names, where the phase is wide enough to hold one.
    for span in r.phaseSpans where span.phase != .idle && sx(span.end) - sx(span.start) >= 34 {
      parts.append(text(sx(span.start) + 2, y0 + 10, span.phase.rawValue, size: 9, fill: "#666"))
    }
    parts.append(
      "<line x1=\"\(f(x0))\" y1=\"\(f(sy(period)))\" x2=\"\(f(x0 + panelWidth))\" y2=\"\(f(sy(period)))\" "
        + "stroke=\"#2ca02c\" stroke-width=\"1\" stroke-dasharray=\"4 3\"/>")
    // Segments: break the line across display-link pauses (gaps longer than 4 periods with no drop).
    var path = ""
    var previousTime: Double?
    for point in r.chart {
      let command = previousTime == nil || point.time - (previousTime ?? 0) > 0.25 ? "M" : "L"
      path += "\(command)\(f(sx(point.time))),\(f(sy(point.latencyMs))) "
      previousTime = point.time
    }
    parts.append("<path d=\"\(path)\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1\"/>")
    for point in r.chart where point.dropped > 0 {
      if point.latencyMs > yMax {
        let x = sx(point.time)
        parts.append(
          "<path d=\"M\(f(x - 3)),\(f(y0 + 6)) L\(f(x + 3)),\(f(y0 + 6)) L\(f(x)),\(f(y0)) Z\" fill=\"#d62728\"/>")
      } else {
        parts.append("<circle cx=\"\(f(sx(point.time)))\" cy=\"\(f(sy(point.latencyMs)))\" r=\"2\" fill=\"#d62728\"/>")
      }
    }
    // Axes labels.
    parts.append(text(x0 - 4, y0 + 8, fmt(yMax, 0), size: 9, anchor: "end", fill: "#666"))
    parts.append(text(x0 - 4, sy(period) + 3, fmt(period, 1), size: 9, anchor: "end", fill: "#2ca02c"))
    parts.append(text(x0 - 4, y0 + panelHeight, "0", size: 9, anchor: "end", fill: "#666"))
    parts.append(text(x0 + panelWidth, y0 + panelHeight + 11, "\(fmt(seconds, 1)) s", size: 9, anchor: "end"))
    let m = { (metric: ScenarioMetric) in (figure.stats[metric] ?? Stat([])).median }
    let summary =
      "dropped \(fmt(m(.droppedFrames), 0)) · p99 latency \(fmt(m(.p99CommitLatencyMs), 1)) ms · blank "
      + "\(fmt(m(.blankCellSeconds), 2)) cell·s · content ×\(fmt(m(.contentRatio), 2)) · stale \(fmt(m(.staleExecutions), 0))"
    parts.append(text(x0, y0 + panelHeight + 11, summary, size: 10))
    return parts.joined(separator: "\n")
  }

  private static func text(
    _ x: Double, _ y: Double, _ content: String, size: Int, weight: String = "normal", anchor: String = "start",
    fill: String = "#222"
  ) -> String {
    let escaped = content.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;")
    return "<text x=\"\(f(x))\" y=\"\(f(y))\" font-size=\"\(size)\" font-weight=\"\(weight)\" "
      + "text-anchor=\"\(anchor)\" fill=\"\(fill)\">\(escaped)</text>"
  }

  private static func f(_ value: Double) -> String { fmt(value, 1) }
  private static func i(_ value: Double) -> String { String(Int(value.rounded())) }
}
