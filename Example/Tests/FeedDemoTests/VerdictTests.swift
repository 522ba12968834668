import XCTest

@testable import FeedDemoKit

/// The verdict says, contest by contest and in words, where IdleWork left less, as much or more blank time and
/// dropped fewer, as many or more frames than each peer, once the runs are enough to test; it fits in ten lines
/// and marks what a busy machine measured.
final class VerdictTests: XCTestCase {
  /// A report of `profiles` at 60 Hz with `runs` runs a figure, where every strategy's runs spread a little around
  /// 0.5 blank cell·s and 0 drops but for the `overrides` (strategy → metric → median per profile).
  private func report(
    strategies: [StrategyKind], profiles: [Profile] = [.light, .heavy], runs: Int = 9,
    overrides: [StrategyKind: [ScenarioMetric: [Profile: Double]]] = [:], otherCores: Double? = 0
  ) -> BenchmarkReport {
    var options = Options()
    options.strategies = strategies
    options.profiles = profiles
    options.refreshRates = [60]
    options.runs = runs
    var feed: [BenchmarkReport.FeedFigure] = []
    for profile in profiles {
      for kind in strategies {
        var values: [ScenarioMetric: Double] = [
          .droppedFrames: 0, .blankCellSeconds: 0.5, .contentCompleteMs: 100,
        ]
        for (metric, byProfile) in overrides[kind] ?? [:] { values[metric] = byProfile[profile] ?? values[metric] }
        let stats = values.mapValues { value in Stat((0..<runs).map { value + Double($0 - runs / 2) / 1_000 }) }
        feed.append(
          .init(
            profile: profile, refreshHz: 60, strategy: kind, stats: stats,
            firstRun: ScenarioResult(strategy: kind, profile: profile, refreshHz: 60, values: values)))
      }
    }
    return BenchmarkReport(
      command: "test", options: options, settings: .quick,
      machine: MachineInfo(cpuModel: "test", processors: 2, unameText: "test", loadAverage: "0", date: "now"),
      imageDrawMs: 1, feed: feed, throughput: [], enqueue: [], arrayAppend: nil, elapsedSeconds: 125,
      otherCores: otherCores)
  }

  func testSaysInWordsWhereIdleWorkLeftLessAsMuchOrMoreBlankTimeThanEachPeer() throws {
    let measured = report(
      strategies: [.idleWorkPrepare, .workItem, .textureAsync],
      overrides: [
        .idleWorkPrepare: [.blankCellSeconds: [.heavy: 0.3]], .textureAsync: [.blankCellSeconds: [.light: 0.4]],
      ])
    let line = try XCTUnwrap(Verdict.lines(measured).first { $0.hasPrefix("Background, no prefetching") })
    XCTAssertTrue(
      line.contains(
        "IdleWork, background against DispatchWorkItem per draw: less blank time in 1, level in 1, more in 0; "
          + "fewer dropped frames in 0, level in 2, more in 0"), line)
    XCTAssertTrue(line.contains("against Texture async display: less blank time in 1, level in 0, more in 1"), line)
    XCTAssertTrue(line.contains("(of 2 profile-rates, 9 runs each; level: no significant difference"), line)
  }

  func testSaysWhereIdleWorkDroppedMoreFrames() throws {
    let lost = report(
      strategies: [.idleWorkPrepare, .workItem], overrides: [.idleWorkPrepare: [.droppedFrames: [.light: 3]]])
    let line = try XCTUnwrap(Verdict.lines(lost).first { $0.hasPrefix("Background, no prefetching") })
    XCTAssertTrue(line.contains("fewer dropped frames in 0, level in 1, more in 1"), line)
  }

  func testFewerThanNineRunsSayTheyCannotTellBetterFromLevel() throws {
    let short = report(
      strategies: [.idleWorkPrepare, .workItem], runs: 3,
      overrides: [.idleWorkPrepare: [.blankCellSeconds: [.heavy: 0.1]]])
    let line = try XCTUnwrap(Verdict.lines(short).first { $0.hasPrefix("Background, no prefetching") })
    XCTAssertTrue(line.contains("3 runs cannot tell better from level (a verdict needs 9: --runs 9)"), line)
    XCTAssertTrue(line.contains("blank cell·s 0.60 against 1.00"), line)
    XCTAssertFalse(line.contains("less blank time"), line)
  }

  func testFitsTenLinesAndWarnsWhenBusy() {
    let lines = Verdict.lines(report(strategies: StrategyKind.allCases, otherCores: 0.9))
    XCTAssertLessThanOrEqual(lines.count, Verdict.maximumLines)
    XCTAssertTrue(lines[0].contains("WARNING: the machine was busy (other processes used 0.90 of 2 cores)"), lines[0])
    XCTAssertTrue(lines.last?.hasPrefix("Results:") ?? false)
    let contestLines = lines.filter { $0.contains(" against ") }
    XCTAssertFalse(contestLines.isEmpty)
    XCTAssertTrue(contestLines.allSatisfy { $0.hasPrefix("UNRELIABLE (busy machine): ") }, "\(contestLines)")
    let quiet = Verdict.lines(report(strategies: [.idleWorkPrepare, .workItem], otherCores: 0.05))
    XCTAssertFalse(quiet[0].contains("WARNING"), quiet[0])
    XCTAssertFalse(quiet.contains { $0.hasPrefix("UNRELIABLE") })
  }

  func testFaultsAreNamed() throws {
    let faulty = report(
      strategies: [.idleWorkPrepare, .asyncDraw], overrides: [.asyncDraw: [.wrongCellApplies: [.light: 4]]])
    let line = try XCTUnwrap(Verdict.lines(faulty).first { $0.hasPrefix("Faults") })
    XCTAssertEqual(line, "Faults (wrong-cell applies, flicker): AsyncDraw 4 wrong-cell applies.")
  }

  /// A canary is built to fail: it is no one's peer.
  func testNoCanaryIsAPeer() {
    XCTAssertFalse(Verdict.allContests.flatMap(\.peers).contains { $0.isCanary })
    XCTAssertFalse(Verdict.contests(measured: StrategyKind.allCases).flatMap(\.peers).contains { $0.isCanary })
  }
}
