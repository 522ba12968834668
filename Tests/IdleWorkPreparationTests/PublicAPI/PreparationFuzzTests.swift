import Foundation
import IdleWork
import IdleWorkPreparation
import IdleWorkTesting
import TestHelpers
import XCTest

/// A seeded fuzz of preparations through the public API: worker and main-thread (whole and sliced) preparations,
/// stored and identified, on cells and plain tasks, with prefetches, cancels, reloads, cells shown and hidden,
/// scrolls, cache pressure and the queue's end. After every step the accounting identity holds, and no result ever
/// reaches a cell configured for other content. A failing sequence is replayed from the seed in the message.
final class PreparationFuzzTests: XCTestCase {
  /// xorshift64*: a failing sequence replays exactly from its seed.
  struct Generator {
    var state: UInt64

    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }

    mutating func next() -> UInt64 {
      state ^= state >> 12
      state ^= state << 25
      state ^= state >> 27
      return state &* 0x2545_F491_4F6C_DD1D
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
  }

  /// A cell that knows the content it was last configured for, and checks every apply against it.
  final class FuzzCell {
    var expected: String?
    var wrong: [String] = []
    func apply(_ value: String) {
      if value != expected { wrong.append("\(value) on a cell configured for \(expected ?? "nothing")") }
    }
  }

  static let sequences = ProcessInfo.processInfo.environment["IDLEWORK_FULL_TESTS"] == "1" ? 3_000 : 300

  func testPreparationsKeepTheAccountingAndNeverApplyToAnotherContent() {
    for seed in 1...UInt64(Self.sequences) {
      MainActor.assumeIsolated { Self.run(seed: seed) }
    }
  }

  @MainActor
  static func run(seed: UInt64) {
    var random = Generator(seed: seed)
    let driver = ManualPassDriver()
    let frames = Frames(driver)
    var configuration = IdleQueue.Configuration(
      budget: random.chance(50) ? .tasks(1 + random.below(4)) : .seconds(0.004 + Double(random.below(12)) / 1000),
      maximumQueueLength: 2 + random.below(12))
    let preparation = Preparer.Configuration(
      workers: 1 + random.below(3), resultCacheLimit: 100 * (1 + random.below(12)))
    if random.chance(60) { configuration.scrolling = .fitToFrames(timeUntilNextFrame: { frames.timeLeft }) }
    let preparer = Preparer(queue: IdleQueue(driver: driver, configuration: configuration), configuration: preparation)
    // Each preparation's result names it and its input, so an apply can be checked against what the cell shows.
    func worker(_ name: String) -> Preparation<Int, String> {
      Preparation(resultBytes: { _ in 100 }) { (input: Int, isCancelled) in
        if input % 7 == 6 { throw CancellationError() }
        return "\(name):\(input)"
      }
    }
    let mainCost = Double(random.below(20)) / 1000
    let preparations: [(name: String, preparation: Preparation<Int, String>)] = [
      ("w", worker("w")),
      ("v", worker("v").identified(by: "v")),
      (
        "m",
        Preparation.mainThread(resultBytes: { _ in 60 }) { (input: Int) in
          driver.advance(by: mainCost)
          return "m:\(input)"
        }
      ),
      (
        "s",
        Preparation.mainThread(
          resultBytes: { _ in 150 },
          slices: { (input: Int) in
            var left = 1 + input % 3
            return { _ in
              driver.advance(by: mainCost / 2)
              left -= 1
              return left == 0 ? "s:\(input)" : nil
            }
          })
      ),
    ]
    let cells = (0..<6).map { _ in FuzzCell() }
    var plainWrong: [String] = []
    var ended = false
    for step in 0..<120 {
      let (name, preparation) = preparations[random.below(preparations.count)]
      let input = random.below(16)
      let cellIndex = random.below(cells.count)
      let cell = cells[cellIndex]
      switch random.below(15) {
      case 0, 1, 2:  // a cell configured, with one prepared task
        let row = random.below(40)
        preparer.queue.bind(cell, to: row)
        cell.expected = "\(name):\(input)"
        preparer.addTask(
          for: cell, at: row, prepare: preparation, from: input, droppable: random.chance(15)
        ) { cell, value in cell.apply(value) }
      case 3:  // a plain task
        let expected = "\(name):\(input)"
        preparer.addTask(key: random.below(5), prepare: preparation, from: input) { value in
          if value != expected { plainWrong.append("\(value) for \(expected)") }
        }
      case 4, 5:
        preparer.prefetch(
          preparation, from: (0..<(1 + random.below(6))).map { _ in random.below(16) }, first: random.chance(20))
      case 6:
        preparer.cancelPrefetching(preparation, from: (0..<(1 + random.below(4))).map { _ in random.below(16) })
      case 7:
        let row = random.below(40)
        if random.chance(50) {
          preparer.queue.cellDidEndDisplaying(cell, at: row)
        } else {
          preparer.queue.cellWillDisplay(cell, at: row)
        }
      case 8:  // a reload: the cell shows another row, its tasks are stale
        preparer.queue.bind(cell, to: 100 + random.below(40))
        cell.expected = nil
      case 9:
        if random.chance(20) {
          preparer.queue.cancelAllTasks()
        } else {
          preparer.queue.cancelTasks(forKey: random.below(5))
        }
      case 10, 11:
        driver.runPreparations(maximum: 1 + random.below(4))
      case 12:
        driver.runPass()
      case 13:  // a frame of a scroll
        frames.deadline = driver.now + Double(1 + random.below(16)) / 1000
        driver.runTrackingPass()
        frames.deadline = nil
        driver.advance(by: Double(random.below(10)) / 1000)
      default:
        if random.chance(3) {
          preparer.queue.invalidate()
          ended = true
        } else {
          driver.advance(by: Double(random.below(20)) / 1000)
        }
      }
      let s = preparer.queue.statistics
      let accounted = s.executed + s.skippedAsStale + s.evicted + s.cancelled + s.pending
      let p = preparer.statistics
      let prefetchesAccounted =
        p.prefetchesKept + p.prefetchesCancelled + p.prefetchesEvicted + p.prefetchesFailed + p.prefetchesPending
      guard s.added == accounted, p.prefetches == prefetchesAccounted else {
        XCTFail(
          "seed \(seed), step \(step): added \(s.added), accounted for \(accounted); prefetches \(p.prefetches), "
            + "accounted for \(prefetchesAccounted)")
        return
      }
      if ended { break }
    }
    // The rest runs: every preparation and every pass, until nothing is requested.
    for _ in 0..<50 where !ended {
      driver.runPreparations()
      driver.runPass()
    }
    assertBalanced(preparer)
    let wrong = cells.flatMap(\.wrong) + plainWrong
    XCTAssertEqual(wrong, [], "seed \(seed)")
    preparer.queue.invalidate()
    XCTAssertEqual(
      [preparer.queue.statistics.pending, preparer.statistics.prefetchesPending], [0, 0],
      "seed \(seed): pending after the queue ended")
  }
}
