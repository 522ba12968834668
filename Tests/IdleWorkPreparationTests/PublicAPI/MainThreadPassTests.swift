import Foundation
import IdleWork
import IdleWorkPreparation
import IdleWorkTesting
import TestHelpers
import XCTest

/// Main-thread preparations in a pass: work the pass passes over, or that nothing waits for any more, never stops
/// the pass; only a slice of user code teaches the cost model.
final class MainThreadPassTests: XCTestCase {
  /// A main-thread preparation that logs "`name` `input`" and takes `cost` seconds of the driver's clock.
  @MainActor
  static func drawing(
    _ name: String, cost: TimeInterval, log: TextLog, driver: ManualPassDriver
  )
    -> Preparation<String, String>
  {
    Preparation.mainThread { (input: String) in
      log.append("\(name) \(input)")
      driver.advance(by: cost)
      return "\(name) of \(input)"
    }
  }

  /// A main-thread preparation in `slices` slices of `cost` seconds each, logging "`input``n`" for slice n.
  @MainActor
  static func card(
    slices: Int, cost: TimeInterval, log: TextLog, driver: ManualPassDriver
  ) -> Preparation<String, String> {
    Preparation.mainThread(slices: { (input: String) in
      var done = 0
      return { _ in
        done += 1
        log.append("\(input)\(done)")
        driver.advance(by: cost)
        return done == slices ? "card of \(input)" : nil
      }
    })
  }

  /// A card of three 20 ms slices, longer than any frame, and a 2 ms tile.
  @MainActor
  static func cardAndTile(
    log: TextLog, driver: ManualPassDriver
  ) -> (Preparation<String, String>, Preparation<String, String>) {
    (card(slices: 3, cost: 0.020, log: log, driver: driver), drawing("tile", cost: 0.002, log: log, driver: driver))
  }

  /// A queue that fits its work to frames, which knows a 60 Hz frame's length, and a log.
  @MainActor
  static func scene(budget: IdleQueue.Budget) -> (ManualPassDriver, Frames, Preparer, TextLog) {
    let driver = ManualPassDriver()
    let frames = Frames(driver)
    let preparer = frames.preparer(budget: budget)
    frames.learn60Hz(preparer)
    return (driver, frames, preparer, TextLog())
  }

  /// During a scroll, a visible row's card measured at 30 ms — longer than any frame — waits for an idle pass,
  /// while an older visible row's 2 ms tile behind it is drawn and applied.
  func testAVisibleRowsQuickPreparationRunsPastOneThatFitsNoFrame() {
    MainActor.assumeIsolated {
      let (driver, frames, preparer, log) = Self.scene(budget: .tasks(100))
      let card = Self.drawing("card", cost: 0.030, log: log, driver: driver)
      let tile = Self.drawing("tile", cost: 0.002, log: log, driver: driver)
      preparer.addTask(key: "measure", prepare: card, from: "warm-up") { _ in }
      driver.drain()
      XCTAssertEqual(log.entries, ["card warm-up"])
      let (older, newer) = (PhotoCell(), PhotoCell())
      preparer.queue.bind(older, to: 0)
      preparer.addTask(for: older, at: 0, prepare: tile, from: "t") { cell, tile in cell.shown.append(tile) }
      preparer.queue.bind(newer, to: 1)
      preparer.addTask(for: newer, at: 1, prepare: card, from: "c") { cell, card in cell.shown.append(card) }
      frames.scroll(preparer, frames: 5, free: 0.012)
      XCTAssertEqual(older.shown, ["tile of t"], "the tile is drawn during the scroll: \(log.entries)")
      XCTAssertFalse(log.entries.contains("card c"), "the card fits no frame")
      driver.runPass()  // the scroll stopped
      driver.drain()
      XCTAssertEqual(newer.shown, ["card of c"], "the card is drawn once the scroll stops")
      assertBalanced(preparer)
    }
  }

  /// A sliced card begun for a task that was then cancelled, or whose cell shows another row now, is ended without
  /// admission: it does not stop a scroll's passes, and a visible row's tile is drawn.
  func testASlicedPreparationNothingWaitsForDoesNotStopTheScroll() {
    for reuse in [false, true] {
      MainActor.assumeIsolated {
        let (driver, frames, preparer, log) = Self.scene(budget: .tasks(1))
        let (card, tile) = Self.cardAndTile(log: log, driver: driver)
        let reused = PhotoCell()
        preparer.queue.bind(reused, to: 0)
        preparer.addTask(for: reused, at: 0, prepare: card, from: "c") { cell, card in cell.shown.append(card) }
        driver.runPass()
        XCTAssertEqual(log.entries, ["c1"], "begun, measured at 20 ms")
        if reuse {
          preparer.queue.bind(reused, to: 9)
        } else {
          XCTAssertEqual(preparer.queue.cancelTasks(forKey: 0), 1)
        }
        let visible = PhotoCell()
        preparer.queue.bind(visible, to: 1)
        preparer.addTask(for: visible, at: 1, prepare: tile, from: "t") { cell, tile in cell.shown.append(tile) }
        frames.scroll(preparer, frames: 5, free: 0.012)
        XCTAssertEqual(visible.shown, ["tile of t"], reuse ? "cell reused" : "task cancelled")
        XCTAssertEqual(log.entries, ["c1", "tile t"], "the card's work ran no further")
        XCTAssertEqual(reused.shown, [])
        assertBalanced(preparer)
      }
    }
  }

  /// A sliced card begun for a task that was then cancelled does not hold back a prefetch during a scroll: the
  /// prefetch's measured 2 ms tile is made in the frames' slack.
  func testASlicedPreparationNothingWaitsForDoesNotHoldBackAPrefetch() {
    MainActor.assumeIsolated {
      let (driver, frames, preparer, log) = Self.scene(budget: .tasks(1))
      let (card, tile) = Self.cardAndTile(log: log, driver: driver)
      preparer.addTask(key: "measure", prepare: tile, from: "warm-up") { _ in }
      driver.drain()
      preparer.addTask(key: "card", prepare: card, from: "c") { _ in }
      driver.runPass()
      XCTAssertEqual(log.entries, ["tile warm-up", "c1"])
      XCTAssertEqual(preparer.queue.cancelTasks(forKey: "card"), 1)
      preparer.prefetch(tile, from: ["next row"])
      frames.scroll(preparer, frames: 3, free: 0.012)
      XCTAssertEqual(log.entries, ["tile warm-up", "c1", "tile next row"])
      assertBalanced(preparer)
    }
  }

  /// Main-thread work under way that fits no frame of this scroll — a card for a row gone off screen, or a nearer
  /// prefetched card — does not hold back a farther prefetch's 2 ms tile, made in the frames' slack.
  func testWorkUnderWayThatFitsNoFrameDoesNotHoldBackAPrefetch() {
    for prefetched in [false, true] {
      MainActor.assumeIsolated {
        let (driver, frames, preparer, log) = Self.scene(budget: .tasks(1))
        let (card, tile) = Self.cardAndTile(log: log, driver: driver)
        preparer.addTask(key: "measure", prepare: tile, from: "warm-up") { _ in }
        driver.drain()
        let cell = PhotoCell()
        if prefetched {
          preparer.prefetch(card, from: ["c"])
        } else {
          preparer.queue.bind(cell, to: 0)
          preparer.addTask(for: cell, at: 0, prepare: card, from: "c") { cell, card in cell.shown.append(card) }
        }
        driver.runPass()
        XCTAssertEqual(log.entries, ["tile warm-up", "c1"])
        if !prefetched { preparer.queue.cellDidEndDisplaying(cell, at: 0) }
        preparer.prefetch(tile, from: ["next row"])
        frames.scroll(preparer, frames: 3, free: 0.012)
        XCTAssertEqual(log.entries, ["tile warm-up", "c1", "tile next row"], prefetched ? "prefetched" : "off screen")
        assertBalanced(preparer)
      }
    }
  }

  /// Ending sliced cards that nothing waits for (a reload) is not measured as one of their slices: a 12 ms slice
  /// stays predicted at 12 ms, and is not started with 8 ms left before a frame.
  func testEndingAPreparationDoesNotTeachItsSliceCost() {
    MainActor.assumeIsolated {
      let (driver, frames, preparer, log) = Self.scene(budget: .tasks(1))
      let card = Self.card(slices: 3, cost: 0.012, log: log, driver: driver)
      let cells = (0..<4).map { _ in PhotoCell() }
      for (row, cell) in cells.enumerated() {
        preparer.queue.bind(cell, to: row)
        preparer.addTask(for: cell, at: row, prepare: card, from: "r\(row)") { cell, card in cell.shown.append(card) }
        driver.runPass()  // its first slice
        preparer.queue.cellDidEndDisplaying(cell, at: row)  // the next row's card begins next
      }
      XCTAssertEqual(log.entries, ["r01", "r11", "r21", "r31"], "four cards begun")
      for (row, cell) in cells.enumerated() { preparer.queue.bind(cell, to: "reloaded \(row)") }  // the feed reloads
      driver.drain()
      XCTAssertEqual(preparer.queue.statistics.skippedAsStale, 4)
      let visible = PhotoCell()
      preparer.queue.bind(visible, to: 9)
      preparer.addTask(for: visible, at: 9, prepare: card, from: "e") { cell, card in cell.shown.append(card) }
      frames.scroll(preparer, frames: 3, free: 0.008)
      XCTAssertFalse(log.entries.contains("e1"), "a 12 ms slice started with 8 ms left")
      assertBalanced(preparer)
    }
  }

  /// Ending preparations nothing waits for costs no budget: with one task a pass, the first pass after a reload
  /// draws the new row's tile.
  func testEndingAPreparationCostsNoBudget() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let preparer = Preparer(queue: IdleQueue(driver: driver, configuration: .init(budget: .tasks(1))))
      let log = TextLog()
      let card = Self.card(slices: 3, cost: 0, log: log, driver: driver)
      let tile = Self.drawing("tile", cost: 0, log: log, driver: driver)
      let cells = (0..<4).map { _ in PhotoCell() }
      for (row, cell) in cells.enumerated() {
        preparer.queue.bind(cell, to: row)
        preparer.addTask(for: cell, at: row, prepare: card, from: "r\(row)") { cell, card in cell.shown.append(card) }
        driver.runPass()
        preparer.queue.cellDidEndDisplaying(cell, at: row)
      }
      for (row, cell) in cells.enumerated() { preparer.queue.bind(cell, to: "reloaded \(row)") }
      driver.runPass()  // the reload's pass
      let visible = PhotoCell()
      preparer.queue.bind(visible, to: 9)
      preparer.addTask(for: visible, at: 9, prepare: tile, from: "t") { cell, tile in cell.shown.append(tile) }
      driver.runPass()
      XCTAssertEqual(log.entries.last, "tile t", "the first pass after the tile was added draws it")
      driver.drain()
      XCTAssertEqual(visible.shown, ["tile of t"])
      assertBalanced(preparer)
    }
  }
}
