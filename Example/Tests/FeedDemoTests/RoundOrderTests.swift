import XCTest

@testable import FeedDemoKit

/// The strategies run in a new random order in each profile-rate of each round, so none always follows the same
/// one (a peer's leftover work would always land on it) or always runs first after the content bound's measurement.
final class RoundOrderTests: XCTestCase {
  func testEachProfileRateRunsEveryStrategyOnceInANewOrder() {
    let strategies = Sweep.full.strategies
    XCTAssertGreaterThan(strategies.count, 3)
    var generator = SplitMix(seed: 7)
    let orders = (0..<30).map { _ in Benchmark.shuffled(strategies, using: &generator) }
    let names = strategies.map(\.rawValue).sorted()
    for order in orders { XCTAssertEqual(order.map(\.rawValue).sorted(), names) }
    XCTAssertGreaterThan(Set(orders).count, 25, "orders differ")
    XCTAssertEqual(Set(orders.map { $0.first! }), Set(strategies), "every strategy runs first somewhere")
    let followers = Set(
      orders.compactMap { order in
        order.firstIndex(of: strategies[0]).flatMap { $0 + 1 < order.count ? order[$0 + 1] : nil }
      })
    XCTAssertGreaterThan(followers.count, 2, "no strategy always comes right after the same one")
    var again = SplitMix(seed: 7)
    XCTAssertEqual(Benchmark.shuffled(strategies, using: &again), orders[0], "a seed gives its order")
  }
}
