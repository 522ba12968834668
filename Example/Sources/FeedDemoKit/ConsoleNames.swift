/// The names a reader sees on the console and in the markdown report: the README's (`Example/readme-tables.py`'s
/// chart legend where it names a strategy, else its table's names without the markdown). The JSON keeps the raw
/// identifiers, which `--strategies` takes.
extension StrategyKind {
  /// The strategy as the README names it, e.g. "IdleWork, main thread" for `idleWorkFeed`.
  var displayName: String { Self.displayNames[rawValue] ?? rawValue }

  /// Keyed by the raw identifier, so that a strategy added without a name here still prints (as its identifier).
  private static let displayNames: [String: String] = [
    "sync": "sync (draw in cellForRow)",
    "mainQueue": "DispatchQueue.main.async",
    "dwu": "DWU (faithful)",
    "dwuUnbind": "DWU + currentIndexPath = nil in didEndDisplaying",
    "runLoopQueue": "Texture ASRunLoopQueue",
    "runLoopQueueTuned": "Texture, batch 16, no membership scan",
    "idleWork": "IdleWork defaults",
    "idleWork4ms": "IdleWork, .seconds(0.004)",
    "idleWorkFeed": "IdleWork, main thread",
    "noGuard": "noGuard (canary)",
    "yyAsyncLayer": "YYAsyncLayer",
    "textureAsync": "Texture async display",
    "asyncDraw": "AsyncDraw",
    "msCachedAsync": "MSCachedAsyncViewDrawing",
    "workItem": "DispatchWorkItem per draw",
    "noGuardBackground": "noGuardBackground (canary)",
    "idleWorkPrepare": "IdleWork, background",
    "idleWorkPrepare1": "IdleWork prepared, 1 worker",
    "idleWorkPrepare2": "IdleWork prepared, 2 workers",
    "idleWorkPrepare4": "IdleWork prepared, 4 workers",
    "idleWorkPreparePrefetch": "IdleWork, background, prefetching",
    "workItemPrefetch": "DispatchWorkItem per draw, prefetching",
    "textureAsyncPrefetch": "Texture async display, ranges",
    "msCachedAsyncPrefetch": "MSCachedAsyncViewDrawing, cache warmed ahead",
  ]

  /// The markdown report's name: the README's, then the identifier `--strategies` and the JSON use.
  var reportName: String { "\(displayName) · `\(rawValue)`" }
}

/// What a run comes to, in plain words, for the end of the console output: which setups dropped no frame, how
/// each kind's recommended IdleWork setup did against the best peer of its kind (chosen as the README's headline
/// table chooses it), and where it lost.
enum Verdict {
  /// The verdict's lines (each a sentence or a short list), from the medians of `report`.
  static func lines(_ report: BenchmarkReport) -> [String] {
    let places = report.options.profiles.flatMap { profile in
      report.options.refreshRates.map { (profile: profile, hz: $0) }
    }
    .filter { !report.feed($0.profile, $0.hz).isEmpty }
    guard !places.isEmpty else { return [] }
    func median(_ kind: StrategyKind, _ place: (profile: Profile, hz: Int), _ metric: ScenarioMetric) -> Double? {
      report.feed(place.profile, place.hz).first { $0.strategy == kind }?.stats[metric]?.median
    }
    func total(_ kind: StrategyKind, _ metric: ScenarioMetric) -> Double {
      places.reduce(0) { $0 + (median(kind, $1, metric) ?? 0) }
    }
    func name(_ place: (profile: Profile, hz: Int)) -> String { "\(place.profile.rawValue) \(place.hz) Hz" }
    /// Summed over the profiles at the first refresh rate only: how `Example/readme-tables.py` picks the headline's
    /// best peer, so that the verdict and the README name the same one.
    func firstRateTotal(_ kind: StrategyKind, _ metric: ScenarioMetric) -> Double {
      places.filter { $0.hz == places[0].hz }.reduce(0) { $0 + (median(kind, $1, metric) ?? 0) }
    }
    let measured = report.options.strategies
    var lines = [
      "Verdict (medians of \(report.options.runs) run(s), \(places.count) profile-rates; a difference of a few "
        + "hundredths may be noise, see the [min–max] ranges):"
    ]

    let smooth = measured.filter { kind in places.allSatisfy { (median(kind, $0, .droppedFrames) ?? 1) == 0 } }
    lines.append(
      "- No dropped frame anywhere: "
        + (smooth.isEmpty ? "none of the strategies." : smooth.map(\.displayName).joined(separator: "; ") + "."))

    for recommended in [StrategyKind.idleWorkFeed, .idleWorkPrepare] where measured.contains(recommended) {
      let kindLabel = recommended.isBackground ? "Background" : "Main thread"
      var sentence = "- \(kindLabel): \(recommended.displayName) "
      let drops = places.compactMap { place -> String? in
        guard let dropped = median(recommended, place, .droppedFrames), dropped > 0 else { return nil }
        return "\(name(place)) (\(fmt(dropped, 0)))"
      }
      sentence += drops.isEmpty ? "dropped no frame" : "dropped frames in " + drops.joined(separator: "; ")
      let faults = [ScenarioMetric.wrongCellApplies, .flicker].filter { total(recommended, $0) > 0 }
      if !faults.isEmpty {
        let words: [ScenarioMetric: String] = [.wrongCellApplies: "wrong-cell applies", .flicker: "flicker"]
        let counts = faults.map { "\(words[$0] ?? $0.rawValue) \(fmt(total(recommended, $0), 0))" }
        sentence += "; it had " + counts.joined(separator: ", ")
      }
      let peers = measured.filter {
        $0.isBackground == recommended.isBackground && !$0.isCanary && !$0.rawValue.hasPrefix("idleWork")
      }
      let allowed = firstRateTotal(recommended, .droppedFrames) + Double(report.options.profiles.count)
      let smoothPeers = peers.filter { firstRateTotal($0, .droppedFrames) <= allowed }
      let best =
        smoothPeers.min { firstRateTotal($0, .blankCellSeconds) < firstRateTotal($1, .blankCellSeconds) }
        ?? peers.min { firstRateTotal($0, .droppedFrames) < firstRateTotal($1, .droppedFrames) }
      guard let best else {
        lines.append(sentence + "; no peer of its kind was measured.")
        continue
      }
      let lostOnBlank = places.compactMap { place -> String? in
        guard let mine = median(recommended, place, .blankCellSeconds),
          let theirs = median(best, place, .blankCellSeconds), theirs < mine
        else { return nil }
        return "\(name(place)) (\(fmt(mine, 2)) against \(fmt(theirs, 2)))"
      }
      let lostOnDrops = places.compactMap { place -> String? in
        guard let mine = median(recommended, place, .droppedFrames),
          let theirs = median(best, place, .droppedFrames), theirs < mine
        else { return nil }
        return "\(name(place)) (\(fmt(mine, 0)) against \(fmt(theirs, 0)))"
      }
      sentence += ". The best \(recommended.isBackground ? "background" : "main-thread") peer, \(best.displayName), "
      let peerDrops = total(best, .droppedFrames)
      sentence += peerDrops == 0 ? "dropped no frame" : "dropped \(fmt(peerDrops, 0)) frames in all"
      if lostOnBlank.isEmpty && lostOnDrops.isEmpty {
        sentence += "; IdleWork left no more blank cell·s and dropped no more frames than it anywhere."
      } else {
        var losses: [String] = []
        if !lostOnBlank.isEmpty {
          losses.append("more blank cell·s in " + lostOnBlank.joined(separator: "; "))
        }
        if !lostOnDrops.isEmpty {
          losses.append("more dropped frames in " + lostOnDrops.joined(separator: "; "))
        }
        sentence += ". IdleWork lost to it with " + losses.joined(separator: "; and with ") + "."
      }
      lines.append(sentence)
    }
    return lines
  }

  /// Where the results went: the files written, or how to keep them.
  static func savedLine(_ written: [(path: String, what: String)], printedJSON: Bool) -> String {
    let stdout = printedJSON ? "the JSON document above (stdout)" : "the tables above (stdout)"
    guard !written.isEmpty else {
      return "Results: \(stdout) only; nothing was saved (--json-out PATH, --markdown PATH or --svg DIR keep them)."
    }
    return "Results: \(stdout); saved: " + written.map { "\($0.what) \($0.path)" }.joined(separator: ", ") + "."
  }
}
