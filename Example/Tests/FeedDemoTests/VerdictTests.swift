import XCTest

@testable import FeedDemoKit

/// The verdict names every profile-rate where IdleWork lost to a peer of its contest, fits in ten lines, and
/// warns when the machine was busy.
final class VerdictTests: XCTestCase {
  /// A report of `profiles` at 60 Hz where every strategy has `values` but for the `overrides`
  /// (strategy → metric → median per profile).
  private func report(
    strategies: [StrategyKind], profiles: [Profile] = [.light, .heavy],
    overrides: [StrategyKind: [ScenarioMetric: [Profile: Double]]] = [:], otherCores: Double? = 0
  ) -> BenchmarkReport {
    var options = Options()
    options.strategies = strategies
    options.profiles = profiles
    options.refreshRates = [60]
    var feed: [BenchmarkReport.FeedFigure] = []
    for profile in profiles {
      for kind in strategies {
        var values: [ScenarioMetric: Double] = [
          .droppedFrames: 0, .blankCellSeconds: 0.5, .contentCompleteMs: 100,
        ]
        for (metric, byProfile) in overrides[kind] ?? [:] { values[metric] = byProfile[profile] ?? values[metric] }
        let stats = values.mapValues { Stat([$0, $0, $0]) }
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

  func testNamesTheProfileRateWhereIdleWorkLeftMoreBlankCells() throws {
    let lost = report(
      strategies: [.idleWorkPrepare, .workItem, .textureAsync],
      overrides: [
        .idleWorkPrepare: [.blankCellSeconds: [.heavy: 0.9]], .workItem: [.blankCellSeconds: [.heavy: 0.7]],
        .textureAsync: [.blankCellSeconds: [.heavy: 0.8]],
      ])
    let line = try XCTUnwrap(Verdict.lines(lost).first { $0.hasPrefix("Background, no prefetching") })
    XCTAssertTrue(line.contains("lost on blank in heavy 60 Hz (0.90 against 0.70 for DispatchWorkItem per draw)"), line)
    XCTAssertTrue(line.contains("blank cell·s 1.40 / 1.20"), line)

    let close = report(
      strategies: [.idleWorkPrepare, .workItem],
      overrides: [
        .idleWorkPrepare: [.blankCellSeconds: [.heavy: 0.503]], .workItem: [.blankCellSeconds: [.heavy: 0.501]],
      ])
    let closeLine = try XCTUnwrap(Verdict.lines(close).first { $0.hasPrefix("Background, no prefetching") })
    XCTAssertTrue(
      closeLine.contains("(0.503 against 0.501 for"), "figures equal at two decimals get three: \(closeLine)")

    let even = report(strategies: [.idleWorkPrepare, .workItem])
    let evenLine = try XCTUnwrap(Verdict.lines(even).first { $0.hasPrefix("Background, no prefetching") })
    XCTAssertTrue(evenLine.hasSuffix("IdleWork lost nowhere."), evenLine)
  }

  func testNamesTheProfileRateWhereIdleWorkDroppedMoreFrames() throws {
    let lost = report(
      strategies: [.idleWorkPrepare, .workItem],
      overrides: [.idleWorkPrepare: [.droppedFrames: [.light: 3]]])
    let line = try XCTUnwrap(Verdict.lines(lost).first { $0.hasPrefix("Background, no prefetching") })
    XCTAssertTrue(line.contains("frames in light 60 Hz (3 against 0 for DispatchWorkItem per draw)"), line)
  }

  func testFitsTenLinesAndWarnsWhenBusy() {
    let lines = Verdict.lines(report(strategies: StrategyKind.allCases, otherCores: 0.9))
    XCTAssertLessThanOrEqual(lines.count, Verdict.maximumLines)
    XCTAssertTrue(lines[0].contains("WARNING: the machine was busy (other processes used 0.90 of 2 cores)"), lines[0])
    XCTAssertTrue(lines.last?.hasPrefix("Results:") ?? false)
    let quiet = Verdict.lines(report(strategies: [.idleWorkPrepare, .workItem], otherCores: 0.05))
    XCTAssertFalse(quiet[0].contains("WARNING"), quiet[0])
  }

  func testFaultsAreNamed() throws {
    let faulty = report(
      strategies: [.idleWorkPrepare, .asyncDraw], overrides: [.asyncDraw: [.wrongCellApplies: [.light: 4]]])
    let line = try XCTUnwrap(Verdict.lines(faulty).first { $0.hasPrefix("Faults") })
    XCTAssertEqual(line, "Faults (wrong-cell applies, flicker): AsyncDraw 4 wrong-cell applies.")
  }

  /// When no peer is about as smooth as IdleWork (its drops plus one per profile-rate), the best peer is the one
  /// with the fewest blank cell·s of all, not the one that dropped fewest: the harder comparison.
  func testWithNoSmoothPeerTheLeastBlankIsTheBest() throws {
    let rough = report(
      strategies: [.idleWorkPreparePrefetch, .workItemPrefetch, .msCachedAsyncPrefetch],
      overrides: [
        .workItemPrefetch: [.droppedFrames: [.light: 10, .heavy: 10], .blankCellSeconds: [.light: 0.1, .heavy: 0.1]],
        .msCachedAsyncPrefetch: [
          .droppedFrames: [.light: 5, .heavy: 5], .blankCellSeconds: [.light: 0.9, .heavy: 0.9],
        ],
      ])
    let line = try XCTUnwrap(Verdict.lines(rough).first { $0.hasPrefix("Background, prefetching") })
    XCTAssertTrue(line.contains("against DispatchWorkItem per draw, prefetching (the best of 2 peers)"), line)
  }

  /// A canary is built to fail: it is no one's peer.
  func testNoCanaryIsAPeer() {
    XCTAssertFalse(Verdict.allContests.flatMap(\.peers).contains { $0.isCanary })
    XCTAssertFalse(Verdict.contests(measured: StrategyKind.allCases).flatMap(\.peers).contains { $0.isCanary })
  }
}
