import XCTest

@testable import FeedDemoKit

/// The rank test behind the verdict agrees with `Example/compare.py`'s, and says better, level or worse.
final class RankTestTests: XCTestCase {
  func testPValuesMatchTheComparisonScripts() {
    XCTAssertEqual(
      RankTest.pValue([1, 2, 3, 4, 5, 6, 7, 8, 9], [5, 6, 7, 8, 9, 10, 11, 12, 13]), 0.014908, accuracy: 1e-6)
    XCTAssertEqual(RankTest.pValue([1, 1, 2, 2, 3], [2, 3, 3, 4, 4, 5]), 0.031633, accuracy: 1e-6)
    XCTAssertEqual(RankTest.pValue([2, 2, 2], [2, 2, 2]), 1, "all tied: no difference")
    XCTAssertEqual(RankTest.pValue([], [1]), 1)
  }

  func testHolmRejectsStepDownFromTheSmallest() {
    XCTAssertEqual(RankTest.holm([0.01, 0.04, 0.03, 0.005]), [true, false, false, true])
    XCTAssertEqual(RankTest.holm([0.01, 0.02]), [true, true])
  }

  func testThreeRunsThatNeverOverlapAreStillLevel() {
    XCTAssertEqual(RankTest.outcomes([(mine: [1, 2, 3], theirs: [7, 8, 9])]), [.level])
  }

  func testEqualMediansAreLevelEvenWhenTheTestRejects() {
    let a: [Double] = [0, 0, 0, 0, 0, 0, 0, 0, 0]
    let b: [Double] = [0, 0, 0, 0, 0, 1, 1, 1, 1]
    XCTAssertLessThan(RankTest.pValue(a, b), 0.05)
    XCTAssertEqual(RankTest.outcomes([(mine: a, theirs: b)]), [.level])
  }

  func testNineRunsApartAreBetterOrWorseByTheMedian() {
    let low = (0..<9).map { 1 + Double($0) / 100 }
    let high = low.map { $0 + 1 }
    XCTAssertEqual(
      RankTest.outcomes([(mine: low, theirs: high), (mine: high, theirs: low), (mine: low, theirs: low)]),
      [.better, .worse, .level])
  }
}
