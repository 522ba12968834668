/// What a run comes to, in at most ten lines, for the end of the console output: for each contest the run
/// measured — each kind's IdleWork setup against the peers of the same kind, granularity and prefetching — in how
/// many profile-rates IdleWork left less, as much or more blank time and dropped fewer, as many or more frames than
/// each peer (``RankTest``, once each strategy ran ``RankTest/minimumRuns`` times); then the faults peers showed,
/// and whether the machine was quiet enough to believe it.
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
  /// same lever (prefetching or none), strongest first. Canaries and diagnostics are no one's peers.
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
      peers: [
        .workItemCarefulPrefetch, .nukePrefetch, .workItemPrefetch, .textureAsyncPrefetch, .msCachedAsyncPrefetch,
      ]
    ),
    Contest(
      title: "Background, no prefetching", idleWork: .idleWorkPrepare,
      peers: [
        .workItemCareful, .nukePipeline, .workItem, .textureAsync, .yyAsyncLayer, .yyAsyncLayerLabel, .asyncDraw,
        .msCachedAsync,
      ]),
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

  /// The counts of `outcomes` in words, e.g. "less blank time in 3, level in 13, more in 0".
  static func judged(
    _ outcomes: [RankTest.Outcome], better: String, same: String, worse: String
  ) -> String {
    let count = { (outcome: RankTest.Outcome) in outcomes.filter { $0 == outcome }.count }
    return "\(better) in \(count(.better)), \(same) in \(count(.level)), \(worse) in \(count(.worse))"
  }

  /// The verdict's lines, from the runs of `report`; the last says where the results went.
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
    let busy = MachineLoad.isBusy(report.otherCores)
    lines.append(
      "FeedDemo verdict: \(report.options.runs) run\(report.options.runs == 1 ? "" : "s") of "
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
    func outcomes(
      _ mine: StrategyKind, _ peer: StrategyKind, _ figure: (StrategyKind, (profile: Profile, hz: Int)) -> Stat?
    )
      -> [RankTest.Outcome]
    {
      RankTest.outcomes(
        places.compactMap { place in
          guard let a = figure(mine, place), let b = figure(peer, place) else { return nil }
          return (a.values, b.values)
        })
    }
    let drops = { (kind: StrategyKind, place: (profile: Profile, hz: Int)) in stat(kind, place, .droppedFrames) }

    for contest in contests(measured: report.options.strategies) {
      let mine = contest.idleWork
      var sentence = (busy ? "UNRELIABLE (busy machine): " : "") + "\(contest.title): \(mine.displayName)"
      if report.options.runs < RankTest.minimumRuns {
        let peer = contest.peers[0]
        sentence +=
          " against \(peer.displayName): \(report.options.runs) run\(report.options.runs == 1 ? "" : "s") cannot tell "
          + "better from level (a verdict needs "
          + "\(RankTest.minimumRuns): --runs \(RankTest.minimumRuns)); summed medians: blank cell·s "
          + "\(fmt(sum(mine) { blank(mine, $0)?.median }, 2)) against \(fmt(sum(peer) { blank(peer, $0)?.median }, 2)), "
          + "dropped frames \(fmt(sum(mine) { drops(mine, $0)?.median }, 0)) against "
          + "\(fmt(sum(peer) { drops(peer, $0)?.median }, 0))."
        lines.append(sentence)
        continue
      }
      let clauses = contest.peers.map { peer in
        "against \(peer.displayName): "
          + judged(outcomes(mine, peer, blank), better: "less blank time", same: "level", worse: "more") + "; "
          + judged(outcomes(mine, peer, drops), better: "fewer dropped frames", same: "level", worse: "more")
      }
      sentence +=
        " " + clauses.joined(separator: "; ")
        + " (of \(places.count) profile-rates, \(report.options.runs) runs each; level: no significant difference, "
        + "Mann–Whitney with Holm's correction per peer and metric)."
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
