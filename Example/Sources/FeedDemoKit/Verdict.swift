/// What a run comes to, in at most ten lines, for the end of the console output: for each contest the run
/// measured — each kind's IdleWork setup against the peers of the same kind, granularity and prefetching — the
/// sums over the profile-rates, and every profile-rate where IdleWork lost; then the faults peers showed, and
/// whether the machine was quiet enough to believe it.
enum Verdict {
  /// The most lines ``lines(_:written:printedJSON:)`` returns.
  static let maximumLines = 10

  /// One comparison: an IdleWork setup and the peers it is judged against.
  struct Contest: Equatable {
    /// What is compared, e.g. "Main thread, tiles".
    let title: String
    let idleWork: StrategyKind
    let peers: [StrategyKind]
  }

  /// The contests: each IdleWork setup against the peers given the same work at the same granularity, with the
  /// same lever (prefetching or none). Canaries are no one's peers.
  static let allContests: [Contest] = [
    Contest(
      title: "Main thread, tiles", idleWork: .idleWorkFeed, peers: [.runLoopQueueTiles, .dwuTiles, .mainQueueTiles]),
    Contest(
      title: "Main thread, tiles, prefetching", idleWork: .idleWorkMainPrefetch,
      peers: [.runLoopQueueTiles, .textureSyncRanges]),
    Contest(
      title: "Main thread, tiles, prefetching + landing", idleWork: .idleWorkMainPrefetchLanding,
      peers: [.runLoopQueueTiles, .textureSyncRanges]),
    Contest(
      title: "Main thread, whole draws", idleWork: .idleWorkFeedWhole,
      peers: [.runLoopQueue, .runLoopQueueTuned, .dwu, .dwuUnbind, .mainQueue, .sync]),
    Contest(
      title: "Background, prefetching", idleWork: .idleWorkPreparePrefetch,
      peers: [.workItemPrefetch, .textureAsyncPrefetch, .msCachedAsyncPrefetch]),
    Contest(
      title: "Background, no prefetching", idleWork: .idleWorkPrepare,
      peers: [.workItem, .textureAsync, .yyAsyncLayer, .yyAsyncLayerLabel, .asyncDraw, .msCachedAsync]),
  ]

  /// The contests `measured` allows: its IdleWork setup and at least one of its peers were run.
  static func contests(measured: [StrategyKind]) -> [Contest] {
    allContests.compactMap { contest in
      guard measured.contains(contest.idleWork) else { return nil }
      let peers = contest.peers.filter { measured.contains($0) }
      return peers.isEmpty ? nil : Contest(title: contest.title, idleWork: contest.idleWork, peers: peers)
    }
  }

  /// The blank-cell metric that judges `profile`: from the reload on for the reload profiles (their motion is
  /// `light`'s), over the motion otherwise.
  static func blankMetric(_ profile: Profile) -> ScenarioMetric {
    if profile.settings.reloads, let afterReload = ScenarioMetric(rawValue: "blankCellSecondsAfterReload") {
      return afterReload
    }
    return .blankCellSeconds
  }

  /// The verdict's lines, from the medians of `report`; the last says where the results went.
  static func lines(
    _ report: BenchmarkReport, written: [(path: String, what: String)] = [], printedJSON: Bool = false
  )
    -> [String]
  {
    let places = report.options.profiles.flatMap { profile in
      report.options.refreshRates.map { (profile: profile, hz: $0) }
    }
    .filter { !report.feed($0.profile, $0.hz).isEmpty }
    var lines: [String] = []
    let minutes = Int(report.elapsedSeconds) / 60
    let seconds = Int(report.elapsedSeconds) % 60
    let rates = report.options.refreshRates.map(String.init).joined(separator: " and ")
    lines.append(
      "FeedDemo verdict: medians of \(report.options.runs) run\(report.options.runs == 1 ? "" : "s") of "
        + "\(report.options.profiles.map(\.rawValue).joined(separator: ", ")) at \(rates) Hz "
        + "(\(minutes) min \(seconds) s); \(MachineLoad.sentence(report.otherCores, processors: report.machine.processors))."
    )
    func stat(_ kind: StrategyKind, _ place: (profile: Profile, hz: Int), _ metric: ScenarioMetric) -> Stat? {
      report.feed(place.profile, place.hz).first { $0.strategy == kind }?.stats[metric]
    }
    func blank(_ kind: StrategyKind, _ place: (profile: Profile, hz: Int)) -> Stat? {
      stat(kind, place, blankMetric(place.profile))
    }
    func sum(_ kind: StrategyKind, _ value: ((profile: Profile, hz: Int)) -> Double?) -> Double {
      places.reduce(0) { $0 + (value($1) ?? 0) }
    }
    func name(_ place: (profile: Profile, hz: Int)) -> String { "\(place.profile.rawValue) \(place.hz) Hz" }

    for contest in contests(measured: report.options.strategies) {
      let mine = contest.idleWork
      let drops = { (kind: StrategyKind) in sum(kind) { stat(kind, $0, .droppedFrames)?.median } }
      let blanks = { (kind: StrategyKind) in sum(kind) { blank(kind, $0)?.median } }
      let contents = { (kind: StrategyKind) in sum(kind) { stat(kind, $0, .contentCompleteMs)?.median } }
      let allowed = drops(mine) + Double(places.count)
      // The least blank among the peers about as smooth as IdleWork; if none is, the least blank of all.
      let smooth = contest.peers.filter { drops($0) <= allowed }
      let best = (smooth.isEmpty ? contest.peers : smooth).min { blanks($0) < blanks($1) }!
      var sentence =
        "\(contest.title): \(mine.displayName) against \(best.displayName)"
        + (contest.peers.count > 1 ? " (the best of \(contest.peers.count) peers)" : "")
        + ": dropped frames \(fmt(drops(mine), 0)) / \(fmt(drops(best), 0)), blank cell·s \(fmt(blanks(mine), 2)) / "
        + "\(fmt(blanks(best), 2)), content ms \(fmt(contents(mine), 0)) / \(fmt(contents(best), 0))"
        + " (sums over \(places.count) profile-rates)."
      var losses: [String] = []
      for place in places {
        guard let myBlank = blank(mine, place) else { continue }
        let rivals = contest.peers.compactMap { peer in blank(peer, place).map { (peer, $0) } }
        if let (peer, theirs) = rivals.min(by: { $0.1.median < $1.1.median }), theirs.median < myBlank.median {
          let spread = myBlank.min <= theirs.max ? ", within the runs' spread" : ""
          // Enough decimals to tell the two apart.
          let digits = fmt(myBlank.median, 2) == fmt(theirs.median, 2) ? 3 : 2
          losses.append(
            "blank in \(name(place)) (\(fmt(myBlank.median, digits)) against \(fmt(theirs.median, digits)) for "
              + "\(peer.displayName)\(spread))")
        }
        guard let myDrops = stat(mine, place, .droppedFrames)?.median else { continue }
        let dropRivals = contest.peers.compactMap { peer in stat(peer, place, .droppedFrames).map { (peer, $0.median) }
        }
        if let (peer, theirs) = dropRivals.min(by: { $0.1 < $1.1 }), theirs < myDrops {
          losses.append(
            "frames in \(name(place)) (\(fmt(myDrops, 0)) against \(fmt(theirs, 0)) for \(peer.displayName))")
        }
      }
      if losses.isEmpty {
        sentence += " IdleWork lost nowhere."
      } else {
        let shown = losses.prefix(3).joined(separator: "; ")
        sentence += " IdleWork lost on " + shown + (losses.count > 3 ? "; and \(losses.count - 3) more" : "") + "."
      }
      lines.append(sentence)
    }

    let faultNames: [ScenarioMetric: String] = [.wrongCellApplies: "wrong-cell applies", .flicker: "flicker"]
    var faults: [String] = []
    for kind in report.options.strategies where kind.isBackground {
      let counts = [ScenarioMetric.wrongCellApplies, .flicker].compactMap { metric -> String? in
        let total = places.reduce(0) { $0 + (stat(kind, $1, metric)?.median ?? 0) }
        return total > 0 ? "\(fmt(total, 0)) \(faultNames[metric] ?? metric.rawValue)" : nil
      }
      if !counts.isEmpty { faults.append("\(kind.displayName) \(counts.joined(separator: ", "))") }
    }
    if report.options.strategies.contains(where: \.isBackground) {
      lines.append(
        "Faults (wrong-cell applies, flicker): "
          + (faults.isEmpty
            ? "none." : faults.prefix(4).joined(separator: "; ") + (faults.count > 4 ? "; …" : "") + "."))
    }
    if !report.options.full && !report.options.quick {
      lines.append("Every figure: --tables (or --json-out PATH); every profile and peer: --full (under 20 minutes).")
    }
    lines.append(savedLine(written, printedJSON: printedJSON))
    return Array(lines.prefix(maximumLines))
  }

  /// Where the results went: the files written, or how to keep them.
  static func savedLine(_ written: [(path: String, what: String)], printedJSON: Bool) -> String {
    let stdout = printedJSON ? "the JSON document (stdout)" : "this verdict (stdout)"
    guard !written.isEmpty else {
      return "Results: \(stdout) only; nothing was saved (--json-out PATH, --markdown PATH or --svg DIR keep them)."
    }
    return "Results: \(stdout); saved: " + written.map { "\($0.what) \($0.path)" }.joined(separator: ", ") + "."
  }
}
