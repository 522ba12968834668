import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkPreparation

/// The rule a free worker picks by, stepped with plain values: visible work first (plain tasks in the order added,
/// then the row that appeared last), then prefetches nearest first within the cache's room and the pacing.
final class WorkerPickTests: XCTestCase {
  typealias Candidate = WorkerPick.Candidate

  static func row(since: UInt64, startable: Bool = true) -> Candidate {
    Candidate(isStartable: startable, isVisible: true, hasCells: true, visibleSince: since)
  }

  static func plainTask() -> Candidate {
    Candidate(isStartable: true, isVisible: true, hasCells: false)
  }

  static func prefetch(_ distance: Int, fits: Bool = true, paced: Bool = false) -> Candidate {
    Candidate(
      isStartable: true, isVisible: false, hasCells: false, distance: distance, resultsFit: fits, pacingAllows: !paced)
  }

  func testNothingStartableIsNoChoice() {
    XCTAssertEqual(WorkerPick.choose([]), WorkerPick.Choice())
    XCTAssertNil(WorkerPick.choose([Self.row(since: 3, startable: false)]).index)
  }

  func testTheRowThatAppearedLastGoesFirst() {
    let choice = WorkerPick.choose([Self.row(since: 1), Self.row(since: 7), Self.row(since: 4)])
    XCTAssertEqual(choice, WorkerPick.Choice(index: 1))
  }

  func testAPlainTaskGoesBeforeRowsInTheOrderAdded() {
    let choice = WorkerPick.choose([Self.row(since: 9), Self.plainTask(), Self.plainTask()])
    XCTAssertEqual(choice, WorkerPick.Choice(index: 1))
  }

  func testVisibleWorkGoesBeforeEveryPrefetch() {
    let choice = WorkerPick.choose([Self.prefetch(1), Self.row(since: 1, startable: false), Self.row(since: 2)])
    XCTAssertEqual(choice, WorkerPick.Choice(index: 2), "a prefetch waits while a visible row can start")
  }

  func testPrefetchesGoNearestFirstWhateverTheirOrderInLine() {
    let choice = WorkerPick.choose([Self.prefetch(5), Self.prefetch(2), Self.prefetch(3)])
    XCTAssertEqual(choice, WorkerPick.Choice(index: 1, isPrefetch: true))
  }

  func testAPrefetchWhoseResultWouldNotFitTheCacheWaitsForATakeIn() {
    let choice = WorkerPick.choose([Self.prefetch(1, fits: false), Self.prefetch(2)])
    XCTAssertEqual(choice, WorkerPick.Choice(index: 1, isPrefetch: true, waitingForTakeIn: [0]))
    let none = WorkerPick.choose([Self.prefetch(1, fits: false)])
    XCTAssertEqual(none, WorkerPick.Choice(index: nil, waitingForTakeIn: [0]))
  }

  func testThePacingHoldsPrefetchesBackAndSaysSo() {
    let choice = WorkerPick.choose([Self.prefetch(1, paced: true)])
    XCTAssertEqual(choice, WorkerPick.Choice(index: nil, heldBackByPacing: true))
  }

  func testWhatVisibleWorkPassesOverIsNotReported() {
    let choice = WorkerPick.choose([Self.prefetch(1, fits: false), Self.prefetch(2, paced: true), Self.row(since: 1)])
    XCTAssertEqual(choice, WorkerPick.Choice(index: 2))
  }
}
