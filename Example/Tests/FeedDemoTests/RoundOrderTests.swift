import XCTest

@testable import FeedDemoKit

/// The strategies run in another order each round, so none is always first after the content bound's
/// measurement (a warm or cold machine) or always last.
final class RoundOrderTests: XCTestCase {
  func testEachRoundRunsEveryStrategyOnceStartingElsewhere() {
    let strategies = Sweep.full.strategies
    XCTAssertGreaterThan(strategies.count, 3)
    let rounds = (0..<3).map { Benchmark.rotated(strategies, round: $0) }
    XCTAssertEqual(rounds[0], strategies, "the first round keeps the given order")
    for order in rounds { XCTAssertEqual(Set(order), Set(strategies)) }
    XCTAssertEqual(Set(rounds.map { $0.first! }).count, 3, "each round starts with another strategy")
    XCTAssertEqual(Set(rounds.map { $0.last! }).count, 3, "and ends with another")
  }
}
