import Foundation
import IdleWork
import IdleWorkPreparation
import IdleWorkTesting
import Testing

/// The Swift Testing examples of the article "Testing code that uses IdleWork" (IdleWorkTesting's DocC catalog) and
/// of the README's Testing section, as written there, so that the code a reader copies compiles and passes. Like
/// them, it uses the public API only.
@Suite struct TestingArticleTests {
  /// A cell for the tests: any class will do.
  final class FakeCell {}

  /// A cell of the prepared-task example.
  final class PhotoCell {
    var shown: [String] = []
  }

  /// The test's display: the time on the driver's clock by which the current frame must be committed.
  @MainActor
  final class TestDisplay {
    let driver: ManualPassDriver
    /// `nil`: no frame pending.
    var deadline: TimeInterval?

    init(driver: ManualPassDriver) {
      self.driver = driver
    }

    /// What the queue's frame clock returns: seconds until the deadline (negative once it has passed).
    var timeLeft: TimeInterval? { deadline.map { $0 - driver.now } }
  }

  // MARK: The README

  @MainActor @Test func drawsOneImagePerPass() {
    let driver = ManualPassDriver()
    let queue = IdleQueue(driver: driver)
    var drawn: [Int] = []
    for slot in 0..<3 { queue.addTask(key: slot) { drawn.append(slot) } }
    driver.runPass()
    #expect(drawn == [0])
  }

  // MARK: One pass at a time

  @MainActor @Test func drawsOneImagePerPassAndSkipsReboundCells() {
    let driver = ManualPassDriver()
    let queue = IdleQueue(driver: driver)
    let cell = FakeCell()
    let row7 = IndexPath(indexes: [0, 7])
    var drawn: [Int] = []
    queue.bind(cell, to: row7)
    for slot in 0..<3 {
      queue.addTask(for: cell, at: row7) { _ in drawn.append(slot) }
    }

    driver.runPass()
    #expect(drawn == [0])  // the default budget: one task per pass

    queue.bind(cell, to: IndexPath(indexes: [0, 8]))  // the cell is reused for another row
    #expect(driver.drain() == 1)
    #expect(drawn == [0])  // the other two were skipped, not run
    let statistics = queue.statistics
    #expect(statistics.skippedAsStale == 2)
    #expect(
      statistics.added
        == statistics.executed + statistics.skippedAsStale + statistics.evicted + statistics.cancelled
        + statistics.pending)
  }

  // MARK: The clock

  @MainActor @Test func aTimeBudgetStartsATaskOnlyIfItFits() {
    let driver = ManualPassDriver()
    let queue = IdleQueue(driver: driver, configuration: IdleQueue.Configuration(budget: .seconds(0.004)))
    for i in 0..<10 {
      queue.addTask(key: i) { driver.advance(by: 0.0015) }
    }
    driver.runPass()
    #expect(queue.statistics.executed == 2)  // started at 0 and 1.5 ms; a third, predicted to end at 4.5 ms, waits
  }

  // MARK: A frame clock the test controls

  @MainActor @Test func aDrawThatDoesNotFitWaitsForTheNextFrame() {
    let driver = ManualPassDriver()
    let display = TestDisplay(driver: driver)
    let queue = IdleQueue(driver: driver, configuration: .scrollingFeed(timeUntilNextFrame: { display.timeLeft }))

    // One pass at a frame's start first: the queue learns how long a frame is (1/60 s).
    display.deadline = 1.0 / 60
    queue.addTask(key: "warm-up") {}
    driver.runPass()

    // 4 ms before the deadline, a 6 ms draw (plus a 1 ms margin) does not fit.
    driver.advance(by: 1.0 / 60 - 0.004)
    var drawn = false
    queue.addTask(key: "draw", estimatedCost: 0.006) {
      driver.advance(by: 0.006)  // the draw takes 6 ms
      drawn = true
    }
    driver.runPass()
    #expect(!drawn)
    #expect(!driver.isPassRequested)  // no pass before the deadline: the run loop may sleep

    driver.advance(by: 0.004)  // the deadline passes
    #expect(driver.isPassRequested)
    display.deadline = driver.now + 1.0 / 60  // the next frame begins
    driver.runPass()
    #expect(drawn)  // a whole frame ahead, it fits
  }

  @MainActor @Test func aTaskLongerThanAnyFrameSeenRunsAtOnce() {
    let driver = ManualPassDriver()
    let display = TestDisplay(driver: driver)
    let queue = IdleQueue(driver: driver, configuration: .scrollingFeed(timeUntilNextFrame: { display.timeLeft }))

    display.deadline = 0.005  // the first reading: 5 ms left, so a frame is 5 ms long as far as the queue knows
    var drawn = false
    queue.addTask(key: "draw", estimatedCost: 0.006) { drawn = true }
    driver.runPass()
    #expect(drawn)  // 6 ms + 1 ms never fits a 5 ms frame: rather than wait forever, it runs as a pass's first task
  }

  // MARK: Prepared tasks

  @MainActor @Test func aResultForACellConfiguredAgainIsNeverApplied() {
    let driver = ManualPassDriver()
    let queue = IdleQueue(driver: driver)
    let preparer = Preparer(queue: queue)
    let render = Preparation { (photo: String, _) in "\(photo), rendered" }
    let cell = PhotoCell()
    queue.bind(cell, to: "photo-1")
    preparer.addTask(for: cell, at: "photo-1", prepare: render, from: "photo-1") { cell, image in
      cell.shown.append(image)
    }
    driver.drain()  // a pass finds nothing to apply yet
    #expect(!driver.isPassRequested)  // and asks for no other: the loop may sleep
    #expect(driver.runPreparations() == 1)  // the render, here and now
    #expect(driver.isPassRequested)  // the arrival wakes the loop

    queue.bind(cell, to: "photo-2")  // reused for another photo before the apply
    driver.drain()
    #expect(cell.shown == [])  // never applied to the wrong cell
    #expect(queue.statistics.skippedAsStale == 1)
    #expect(preparer.statistics.wastedPreparations == 0)  // kept in the result cache for the photo's next row
  }

  // MARK: Memory warnings

  @MainActor @Test func aMemoryWarningDropsDroppableTasks() {
    let driver = ManualPassDriver()
    let queue = IdleQueue(driver: driver)
    var shown: [String] = []
    func showHint() { shown.append("hint") }
    queue.addTask(key: "hint", droppable: true) { showHint() }
    driver.sendMemoryWarning()
    #expect(queue.statistics.cancelled == 1)
    driver.drain()
    #expect(shown.isEmpty)
  }
}
