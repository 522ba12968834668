import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// Randomized sequences on the manual driver that mix frame clocks (none, ticking at a rate
/// that changes, a deadline that stays passed, a deadline far ahead), cells shown, parked, configured again
/// and released, tasks of every form with costs up to longer than a frame, idle and scroll passes — and
/// check after every step:
/// - the accounting identity holds (and the debug-build invariant checks inside the list);
/// - **no pass loop without progress**: a pass that ran, skipped or dropped nothing leaves no pass due at
///   once (a wait for a deadline is due only after the clock moves), and `drain` ends;
/// - **no wrong cell**: a cell task runs only on a cell still showing its row's configuration;
/// - **released cells' tasks leave**: whenever an idle pass leaves the queue at rest (no pass asked for or
///   waited for), and once the sequence settles, nothing a released cell's task captured is alive;
/// - **every runnable task eventually runs**: once every live cell is shown and frames tick steadily,
///   idle passes at each frame's start empty the queue (at 120 Hz: a task longer than the frame must not
///   wait for the frames of an earlier, slower rate).
///
/// `IDLEWORK_FUZZ_SEED=<n>` replays one sequence; `IDLEWORK_FUZZ_SEQUENCES=<n>` changes the count (10,000 with
/// `IDLEWORK_FULL_TESTS=1`, else 2,000).
final class DeadlineFuzzTests: XCTestCase {
  func testRandomSequencesNeitherSpinNorStarveNorLeak() {
    MainActor.assumeIsolated {
      let environment = ProcessInfo.processInfo.environment
      if let seed = environment["IDLEWORK_FUZZ_SEED"].flatMap({ UInt64($0) }) {
        if let failure = FuzzSequence(seed: seed, trace: true).run() { XCTFail(failure) }
        return
      }
      let count = testScale("IDLEWORK_FUZZ_SEQUENCES", full: 10_000, quick: 2_000)
      var checked = 0
      var totals = IdleQueue.Statistics()
      for index in 0..<count {
        let sequence = FuzzSequence(seed: 0xF0_0000 &+ UInt64(index), trace: false)
        if let failure = sequence.run() {
          XCTFail(failure)
          break
        }
        checked += 1
        totals.add(sequence.statistics)
      }
      XCTAssertEqual(checked, count, "sequences checked")
      XCTAssertGreaterThan(totals.skippedAsStale, 0, "the sequences exercise staleness")
      XCTAssertGreaterThan(totals.executed, count * 5, "the sequences run work")
      print("deadline fuzz: \(checked) sequences, totals: \(totals.summary)")
    }
  }
}

/// One randomized sequence and its checks.
@MainActor
final class FuzzSequence {
  /// What the frame clock says.
  enum ClockMode: CustomStringConvertible {
    /// No frame pending (`nil`).
    case absent
    /// Frames every `1 / hz` seconds on the driver's clock; the deadline is the next vsync.
    case ticking(hz: Double)
    /// A deadline fixed at this driver time, which passes and never moves (a stopped display link).
    case stopped(at: TimeInterval)
    /// A huge finite time left.
    case farAhead

    var description: String {
      switch self {
      case .absent: return "absent"
      case .ticking(let hz): return "ticking \(Int(hz)) Hz"
      case .stopped(let at): return "stopped at \(at)"
      case .farAhead: return "far ahead"
      }
    }
  }

  private var random: SeededGenerator
  private let seed: UInt64
  private let trace: Bool
  private let driver = ManualPassDriver()
  private var queue: IdleQueue!
  private var clock = ClockMode.ticking(hz: 60)
  /// The cells in their slots (`nil`: released) and the row each shows.
  private var cells: [FakeCell?] = []
  private var rows: [Int] = []
  private var failure: String?
  private var nextID = 0
  private var log: [String] = []
  private(set) var statistics = IdleQueue.Statistics()

  init(seed: UInt64, trace: Bool) {
    self.seed = seed
    self.trace = trace
    random = SeededGenerator(seed: seed)
  }

  /// Seconds left before the next frame under the current mode.
  private func timeLeft() -> TimeInterval? {
    switch clock {
    case .absent: return nil
    case .ticking(let hz):
      // In whole nanoseconds, so that advancing by the time left lands exactly on the next vsync.
      let period = UInt64(1e9 / hz)
      let now = UInt64((driver.now * 1e9).rounded())
      return Double(period - now % period) / 1e9
    case .stopped(let at): return at - driver.now
    case .farAhead: return 1e10
    }
  }

  func run() -> String? {
    let deadline: @MainActor @Sendable () -> TimeInterval? = { [unowned self] in self.timeLeft() }
    let configuration: IdleQueue.Configuration
    let isPreset = random.chance(50)
    if isPreset {
      configuration = .scrollingFeed(timeUntilNextFrame: deadline)
    } else {
      configuration = .init(
        budget: random.chance(50) ? .tasks(random.int(1...4)) : .seconds(Double(random.int(1...20)) / 1000),
        maximumQueueLength: random.int(4...40), scrolling: .fitToFrames(timeUntilNextFrame: deadline))
    }
    queue = IdleQueue(driver: driver, configuration: configuration)
    cells = (0..<4).map { _ in FakeCell() }
    rows = [0, 1, 2, 3]
    for (slot, cell) in cells.enumerated() { queue.bind(cell!, to: row(rows[slot])) }
    note("seed \(seed): \(isPreset ? "scrollingFeed" : "fitToFrames, budget \(configuration.budget)")")
    for _ in 0..<random.int(10...60) {
      step()
      if let failure { return describe(failure) }
    }
    settle()
    statistics = queue.statistics
    queue.invalidate()
    return failure.map(describe)
  }

  private func describe(_ failure: String) -> String {
    "seed \(seed): \(failure)\n" + log.suffix(12).joined(separator: "\n")
      + "\nreplay with: IDLEWORK_FUZZ_SEED=\(seed) swift test --filter DeadlineFuzzTests"
  }

  private func note(_ line: String) {
    log.append(line)
    if trace { print(line) }
  }

  private func fail(_ message: String) {
    if failure == nil { failure = message }
  }

  /// The cost a task advances the clock by: mostly small, sometimes a whole frame or more.
  private func randomCost() -> TimeInterval {
    random.pick([0, 0.0005, 0.001, 0.002, 0.004, 0.008, 0.012, 0.020])
  }

  private func randomEstimate(_ cost: TimeInterval) -> TimeInterval? {
    random.chance(40) ? cost : nil
  }

  private func step() {
    switch random.int(0...15) {
    case 0, 1:
      let cost = randomCost()
      let id = nextID
      nextID += 1
      note("add key task #\(id) cost \(cost)")
      queue.addTask(key: id % 5, estimatedCost: randomEstimate(cost)) { [driver] in driver.advance(by: cost) }
    case 2, 3:
      addCellTask()
    case 4:
      let cost = randomCost()
      var slices = random.int(1...3)
      note("add resumable cost \(cost) x\(slices)")
      queue.addResumableTask(key: "job", estimatedCost: randomEstimate(cost)) { [driver] _ in
        driver.advance(by: cost)
        slices -= 1
        return slices == 0
      }
    case 5:
      let slot = random.int(0...3)
      guard let cell = cells[slot] else { return }
      note("park slot \(slot)")
      queue.cellDidEndDisplaying(cell, at: row(rows[slot]))
    case 6:
      let slot = random.int(0...3)
      guard let cell = cells[slot] else { return }
      note("show slot \(slot)")
      queue.cellWillDisplay(cell, at: row(rows[slot]))
    case 7:
      let slot = random.int(0...3)
      note("reconfigure slot \(slot)")
      if cells[slot] == nil { cells[slot] = FakeCell() }
      rows[slot] += 4
      queue.bind(cells[slot]!, to: row(rows[slot]))
    case 8:
      let slot = random.int(0...3)
      note("release slot \(slot)")
      cells[slot] = nil
    case 9:
      clock = random.pick([
        .absent, .ticking(hz: 60), .ticking(hz: 120), .ticking(hz: 30), .stopped(at: driver.now - 0.002),
        .stopped(at: driver.now + 0.005), .farAhead,
      ])
      note("clock \(clock)")
    case 10, 11:
      let seconds = Double(random.int(0...20)) / 1000
      note("advance \(seconds)")
      driver.advance(by: seconds)
    case 12, 13:
      pass(tracking: false)
    case 14:
      pass(tracking: true)
    default:
      note("drain")
      let passes = driver.drain(maximumPasses: 1_000)
      if passes >= 1_000 { fail("drain ran 1,000 passes: a pass loop") }
    }
    checkIdentity()
  }

  private func addCellTask() {
    let slot = random.int(0...3)
    guard let cell = cells[slot] else { return }
    let cost = randomCost()
    let taskRow = rows[slot]
    let captured = Probe()
    weak let weakCaptured = captured
    weak let weakCell = cell
    capturedProbes.append(({ weakCell == nil }, { weakCaptured != nil }))
    note("add cell task slot \(slot) row \(taskRow) cost \(cost)")
    queue.addTask(for: cell, at: row(taskRow), estimatedCost: randomEstimate(cost)) {
      [driver, unowned self] shown in
      _ = captured
      if let slotNow = self.cells.firstIndex(where: { $0 === shown }), self.rows[slotNow] != taskRow {
        self.fail("a task for row \(taskRow) ran on a cell showing row \(self.rows[slotNow])")
      }
      driver.advance(by: cost)
    }
  }

  /// Whether each cell task's cell was released, and whether what the task captured is alive.
  private var capturedProbes: [(cellReleased: () -> Bool, isAlive: () -> Bool)] = []

  private func pass(tracking: Bool) {
    let before = queue.statistics
    note(tracking ? "tracking pass" : "idle pass")
    if tracking { driver.runTrackingPass() } else { driver.runPass() }
    let after = queue.statistics
    let progressed =
      after.slicesRun != before.slicesRun || after.skippedAsStale != before.skippedAsStale
      || after.cancelled != before.cancelled || after.evicted != before.evicted
    if !progressed, driver.isPassRequested {
      fail("a pass that did nothing asked for another at once (a pass loop): \(after.summary)")
    }
    // At rest after an idle pass (no pass asked for, none waited for): only parked tasks can be left, and
    // none of a released cell.
    if !tracking, !driver.isPassRequested, driver.core.delayedRequest == nil, releasedCellTaskIsAlive() {
      fail("a released cell's task is still alive with the queue at rest")
    }
  }

  private func releasedCellTaskIsAlive() -> Bool {
    capturedProbes.contains { $0.cellReleased() && $0.isAlive() }
  }

  private func checkIdentity() {
    let s = queue.statistics
    if !s.isBalanced { fail("accounting identity broken: \(s.summary)") }
  }

  /// Every live cell shown, frames ticking at 120 Hz (a rate change for most sequences, which start at
  /// 60 Hz): idle passes at each frame's start must empty the queue, and nothing a released cell's task
  /// captured may stay alive.
  private func settle() {
    guard failure == nil else { return }
    note("settle")
    for (slot, cell) in cells.enumerated() {
      if let cell { queue.cellWillDisplay(cell, at: row(rows[slot])) }
    }
    // Two 60 Hz frames read at their start, then a task longer than a 120 Hz frame (shorter than a 60 Hz
    // one), then 120 Hz frames.
    clock = .ticking(hz: 60)
    for _ in 0..<2 {
      driver.advance(by: timeLeft() ?? 0)
      queue.addTask(key: "tick") {}
      driver.runPass()
    }
    queue.addTask(key: "long", estimatedCost: 0.012) { [driver] in driver.advance(by: 0.012) }
    clock = .ticking(hz: 120)
    var frames = 0
    while queue.pendingTaskCount > 0, frames < 2_000 {
      driver.advance(by: timeLeft() ?? 0)  // the next frame's start
      driver.runPass()
      frames += 1
    }
    if queue.pendingTaskCount > 0 {
      fail("\(queue.pendingTaskCount) tasks still pending after 2,000 frames: \(queue.statistics.summary)")
    }
    if releasedCellTaskIsAlive() { fail("a released cell's task is still alive") }
    checkIdentity()
  }
}
