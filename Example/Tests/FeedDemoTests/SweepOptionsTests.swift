import XCTest

@testable import FeedDemoKit

/// The README's run command makes the newcomer's run, `--full` the full sweep, `--quick` CI's smoke run; each
/// selection can be narrowed by the usual flags, and the throughput workloads run only where asked for.
final class SweepOptionsTests: XCTestCase {
  private func parse(_ arguments: [String]) throws -> Options {
    switch Options.parse(arguments) {
    case .success(let options): return options
    case .failure(let error): throw XCTSkip("unexpected error: \(error.message ?? "help")")
    }
  }

  func testNoFlagIsTheNewcomersRunWithoutThroughput() throws {
    let options = try parse([])
    XCTAssertEqual(options.profiles, Sweep.newcomer.profiles)
    XCTAssertEqual(options.strategies, Sweep.newcomer.strategies)
    XCTAssertEqual(options.runs, Sweep.newcomer.runs)
    XCTAssertTrue(options.skipThroughput)
    XCTAssertTrue(options.skipEnqueueCost)
    XCTAssertFalse(options.tables)
  }

  /// The newcomer's run must finish in about six minutes on 2 cores: at ~1.6 s a feed run, at most 220 of them,
  /// with the runs a verdict needs. (Counted, not timed: a timed test would fail on a busy machine.)
  func testTheNewcomersRunIsSmallAndCanSayBetter() {
    let sweep = Sweep.newcomer
    XCTAssertLessThanOrEqual(sweep.profiles.count * sweep.refreshRates.count * sweep.strategies.count * sweep.runs, 220)
    XCTAssertGreaterThanOrEqual(sweep.runs, RankTest.minimumRuns, "a verdict needs nine runs")
    // Every IdleWork setup it runs meets a peer of its contest.
    XCTAssertEqual(
      Set(Verdict.contests(measured: sweep.strategies).map(\.idleWork)),
      Set(sweep.strategies.filter { $0.rawValue.hasPrefix("idleWork") }))
  }

  /// The full sweep stays under 20 minutes: at ~1.6 s a feed run, at most 700 of them.
  func testTheFullSweepIsBounded() throws {
    let options = try parse(["--full"])
    XCTAssertEqual(options.profiles, Profile.allCases)
    XCTAssertLessThanOrEqual(
      options.profiles.count * options.refreshRates.count * options.strategies.count * options.runs, 700)
    XCTAssertTrue(options.skipThroughput)
  }

  func testQuickKeepsItsThroughputUnlessTold() throws {
    let quick = try parse(["--quick"])
    XCTAssertEqual(quick.profiles, [.reload, .reloadSame])
    XCTAssertEqual(quick.refreshRates, [60])
    XCTAssertFalse(quick.skipThroughput)
    XCTAssertFalse(quick.skipEnqueueCost)
    let narrowed = try parse(["--quick", "--no-throughput", "--no-enqueue-cost", "--strategies", "idleWorkFeed"])
    XCTAssertTrue(narrowed.skipThroughput)
    XCTAssertTrue(narrowed.skipEnqueueCost)
    XCTAssertEqual(narrowed.strategies, [.idleWorkFeed])
  }

  func testFlagsNarrowAndAdd() throws {
    let options = try parse(["--profile", "dense", "--hz", "90", "--runs", "5", "--throughput", "--tables"])
    XCTAssertEqual(options.profiles, [.dense])
    XCTAssertEqual(options.refreshRates, [90])
    XCTAssertEqual(options.runs, 5)
    XCTAssertFalse(options.skipThroughput)
    XCTAssertTrue(options.tables)
  }

  func testQuickAndFullExcludeEachOther() {
    guard case .failure(let error) = Options.parse(["--quick", "--full"]) else {
      return XCTFail("--quick --full was accepted")
    }
    XCTAssertEqual(error.message, "--quick and --full exclude each other")
  }

  /// The usage text's default for --profile is the one parse applies (the newcomer's profiles, not every profile).
  func testTheUsageStatesTheProfileDefaultThatParseApplies() throws {
    let options = try parse([])
    let line = try XCTUnwrap(
      Options.usage.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("--profile LIST") }
    )
    XCTAssertFalse(line.contains("default: all"), "usage says \(line) but the default is \(options.profiles)")
    let defaults = options.profiles.map(\.rawValue).joined(separator: ",")
    XCTAssertTrue(Options.usage.contains("\(defaults) without a flag"), Options.usage)
  }

  /// A contended run keeps a core busy through the whole run; a duty outside (0, 1] is refused by name.
  func testLoadMakesAContendedRunAndRefusesADutyOutsideItsRange() throws {
    XCTAssertEqual(try parse(["--load", "0.5"]).load, 0.5)
    XCTAssertEqual(try parse([]).load, 0)
    for bad in ["0", "1.5", "x"] {
      guard case .failure(let error) = Options.parse(["--load", bad]) else { return XCTFail(bad) }
      XCTAssertEqual(error.message, "--load needs a duty within 0 < DUTY <= 1, e.g. 0.5")
    }
  }
}
