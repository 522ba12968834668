import Foundation
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// A review of "Faster additions": task handles that hold their queue weakly, cell
/// records that read their cell through the Swift runtime rather than a weak reference, and cell tasks whose
/// cell goes between the pass's look and the run.
final class FastAdditionsReviewTests: XCTestCase {
  /// A cell with what a real cell holds: references to other objects and a string.
  final class RichCell {
    let label = Label()
    var text = String(repeating: "row", count: 8)
    let number: Int
    init(number: Int) { self.number = number }
  }

  final class Label {
    var text = ""
  }

  // MARK: Handles

  /// A handle whose queue was freed never reaches a queue made afterwards, even one whose task has the same
  /// sequence number (and perhaps the freed queue's address).
  func testAHandleNeverReachesAQueueMadeAfterItsOwnWasFreed() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      var queue: IdleQueue? = IdleQueue(driver: driver)
      let old = queue!.addTask(key: 1) {}
      var drivers: [ManualPassDriver] = []
      queue = nil
      var later: [IdleQueue] = []
      var handles: [IdleTaskHandle] = []
      for _ in 0..<50 {
        drivers.append(ManualPassDriver())
        let next = IdleQueue(driver: drivers.last!)
        handles.append(next.addTask(key: 1) {})
        later.append(next)
      }
      XCTAssertEqual(handles.map(\.seq).filter { $0 == old.seq }.count, handles.count, "same sequence numbers")
      XCTAssertFalse(old.isPending)
      XCTAssertFalse(old.cancel(), "a freed queue's handle cancelled another queue's task")
      XCTAssertTrue(handles.allSatisfy(\.isPending))
      for queue in later { XCTAssertEqual(queue.statistics.cancelled, 0) }
      for queue in later { queue.invalidate() }
      XCTAssertFalse(handles.contains(where: \.isPending))
    }
  }

  /// Queues made and freed on several threads at once while the main thread asks its handles: each handle still
  /// reaches its own queue (run under ThreadSanitizer).
  func testQueuesMadeAndFreedOnOtherThreadsWhileHandlesAreAsked() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver)
      defer { queue.invalidate() }
      let handles = (0..<30).map { key in queue.addTask(key: key) {} }
      let group = DispatchGroup()
      for _ in 0..<4 {
        group.enter()
        Thread {
          for _ in 0..<300 {
            let made = IdleQueue()
            made.invalidate()
          }
          group.leave()
        }.start()
      }
      var asked = 0
      repeat {
        XCTAssertTrue(handles.allSatisfy(\.isPending), "a live queue's handle lost its queue")
        asked += 1
      } while group.wait(timeout: .now()) == .timedOut
      // The main-queue blocks that end the queues made elsewhere hold their cores until they run.
      for _ in 0..<100 { RunLoop.main.run(until: Date()) }
      XCTAssertTrue(handles.allSatisfy(\.isPending))
      XCTAssertGreaterThan(asked, 0)
    }
  }

  // MARK: Cells

  /// A cell that something else refers to weakly (it has a side table), before or after it is bound, is still
  /// seen alive and then released.
  func testACellWithASideTableIsSeenAliveAndReleased() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver)
      var before: RichCell? = RichCell(number: 0)
      weak let weakBefore = before
      var after: RichCell? = RichCell(number: 1)
      queue.bind(before!, to: 0)
      queue.bind(after!, to: 1)
      weak let weakAfter = after
      var ran: [Int] = []
      queue.addTask(for: before!, at: 0) { cell in ran.append(cell.number) }
      queue.addTask(for: after!, at: 1) { cell in ran.append(cell.number) }
      queue.addTask(for: before!, at: 0) { cell in ran.append(cell.number) }
      queue.addTask(for: after!, at: 1) { cell in ran.append(cell.number) }
      driver.runPass()
      XCTAssertEqual(ran, [0], "the first pass runs one task")
      before = nil
      after = nil
      XCTAssertNil(weakBefore)
      XCTAssertNil(weakAfter)
      driver.drain()
      XCTAssertEqual(ran, [0])
      let s = queue.statistics
      XCTAssertEqual(s.skippedAsStale, 3, s.summary)
      XCTAssertTrue(s.isBalanced, s.summary)
    }
  }

  /// A prepared cell task whose cell goes after its result arrived and before its apply is stale after
  /// prepare, never applied, and the accounting balances.
  func testAPreparedTaskWhoseCellGoesBeforeItsApplyIsStale() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver)
      var cell: RichCell? = RichCell(number: 0)
      var applied = 0
      queue.bind(cell!, to: 0)
      queue.addTask(for: cell!, at: 0) { _ in
        "image"
      } apply: { cell, value in
        cell.label.text = value
        applied += 1
      }
      XCTAssertEqual(driver.runPreparations(), 1)
      cell = nil
      driver.drain()
      XCTAssertEqual(applied, 0)
      let s = queue.statistics
      XCTAssertEqual(s.skippedAsStale, 1, s.summary)
      XCTAssertEqual(s.staleAfterPrepare, 1, s.summary)
      XCTAssertTrue(s.isBalanced, s.summary)
    }
  }

  /// Cells released on another thread while the main thread binds new cells (so that the registry prunes
  /// its records of released cells, freeing their memory) and runs passes. Run under ThreadSanitizer.
  func testCellsReleasedOnAnotherThreadWhileRecordsArePruned() {
    MainActor.assumeIsolated {
      let cellCount = 10_000
      let driver = ManualPassDriver()
      var configuration = IdleQueue.Configuration()
      configuration.maximumQueueLength = Int.max
      configuration.budget = .tasks(5)
      let queue = IdleQueue(driver: driver, configuration: configuration)
      defer { queue.invalidate() }
      var cells: [RichCell] = []
      var ran = 0
      var misplaced = 0
      for index in 0..<cellCount {
        let cell = RichCell(number: index)
        queue.bind(cell, to: index)
        if index.isMultiple(of: 2) {
          queue.addTask(for: cell, at: index) { cell in
            ran += 1
            if cell.number != index { misplaced += 1 }
            cell.label.text = cell.text
          }
        }
        cells.append(cell)
      }
      var fresh = 0
      releaseOnAnotherThread(&cells, seed: 7) {
        driver.runPass()
        for _ in 0..<16 {
          let cell = RichCell(number: -1)
          queue.bind(cell, to: cellCount + fresh)
          fresh += 1
        }
      }
      driver.drain()
      let s = queue.statistics
      XCTAssertEqual(misplaced, 0)
      XCTAssertEqual(s.executed, ran)
      XCTAssertEqual(s.executed + s.skippedAsStale, cellCount / 2, s.summary)
      XCTAssertTrue(s.isBalanced, s.summary)
    }
  }
}
