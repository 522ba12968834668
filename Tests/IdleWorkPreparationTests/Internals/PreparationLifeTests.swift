import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkPreparation

/// A preparation's life, stepped as a pure value: every event in every phase, and the bookkeeping it hands the pool
/// over long random sequences.
final class PreparationLifeTests: XCTestCase {
  typealias Life = PreparationLife
  typealias Requests = PreparationLife.Requests

  /// A visible row's cell task joining, a prefetch joining, a cell going off screen and coming back, everything
  /// leaving.
  static let visibleJoins = Life.Event.requests(Requests(live: 1, wanted: 1, urgent: 1, cells: 1))
  static let prefetchJoins = Life.Event.requests(Requests(live: 1, wanted: 1))
  static let cellHidden = Life.Event.requests(Requests(wanted: -1, urgent: -1))
  static let cellShown = Life.Event.requests(Requests(wanted: 1, urgent: 1))
  static let visibleLeaves = Life.Event.requests(Requests(live: -1, wanted: -1, urgent: -1, cells: -1))
  static let prefetchLeaves = Life.Event.requests(Requests(live: -1, wanted: -1))

  /// A life taken through `events` from a new one.
  static func life(after events: [Life.Event]) -> Life {
    var life = Life()
    for event in events { _ = life.apply(event) }
    return life
  }

  /// A prefetch's run, waiting, in each phase it can reach.
  static let phases: [(name: String, events: [Life.Event])] = [
    ("waiting", [prefetchJoins]),
    ("running", [prefetchJoins, .started]),
    ("succeeded", [prefetchJoins, .started, .finished(succeeded: true)]),
    ("failed", [prefetchJoins, .started, .finished(succeeded: false)]),
    ("dropped", [prefetchJoins, prefetchLeaves]),
  ]

  /// Every event in every phase: the phase it leads to and what the pool must do, or that it cannot happen.
  func testEveryEventInEveryPhase() {
    typealias Effects = Life.Effects
    let running = Life.Phase.running
    let succeeded = Life.Phase.finished(succeeded: true)
    let failed = Life.Phase.finished(succeeded: false)
    // For each phase, each event: `nil` when it cannot happen, else the phase after it and the effects.
    let expected: [String: [(Life.Event, (Life.Phase, Effects)?)]] = [
      "waiting": [
        (Self.visibleJoins, (.waiting, Effects(becameVisible: true))),
        (Self.prefetchJoins, (.waiting, Effects())),
        (Self.prefetchLeaves, (.dropped, Effects(wantedWaiting: -1, dropped: true))),
        (Self.cellHidden, nil),
        (.requests(Requests(wanted: -1)), (.waiting, Effects(wantedWaiting: -1))),
        (.started, (running, Effects(wantedWaiting: -1))),
        (.finished(succeeded: true), nil),
        (.queueEnded, (.dropped, Effects(wantedWaiting: -1, dropped: true))),
      ],
      "running": [
        (Self.visibleJoins, (running, Effects(joinedWhileRunning: true))),
        (Self.prefetchJoins, (running, Effects())),
        (Self.prefetchLeaves, (running, Effects(cancelRunning: true))),
        (.started, nil),
        (.finished(succeeded: true), (succeeded, Effects())),
        (.finished(succeeded: false), (failed, Effects())),
        (.queueEnded, (running, Effects())),
      ],
      "succeeded": [
        (Self.visibleJoins, (succeeded, Effects())),
        (Self.prefetchLeaves, (succeeded, Effects())),
        (.started, nil),
        (.finished(succeeded: true), nil),
        (.queueEnded, (succeeded, Effects())),
      ],
      "failed": [
        (Self.visibleJoins, (failed, Effects())),
        (.started, nil),
        (.finished(succeeded: false), nil),
        (.queueEnded, (failed, Effects())),
      ],
      "dropped": [
        (Self.visibleJoins, (.dropped, Effects())),
        (.started, nil),
        (.finished(succeeded: true), nil),
        (.queueEnded, (.dropped, Effects())),
      ],
    ]
    XCTAssertEqual(Set(expected.keys), Set(Self.phases.map(\.name)))
    for (name, events) in Self.phases {
      for (event, outcome) in expected[name]! {
        var life = Self.life(after: events)
        guard let (phase, effects) = outcome else {
          XCTAssertFalse(life.allows(event), "\(name): \(event) should not happen")
          continue
        }
        XCTAssertTrue(life.allows(event), "\(name): \(event)")
        XCTAssertEqual(life.apply(event), effects, "\(name): \(event)")
        XCTAssertEqual(life.phase, phase, "\(name): \(event)")
      }
    }
  }

  /// A waiting run that no request wanted starts being wanted: a worker may start it; a visible row wanting it
  /// makes it the latest visible row; a cell going off screen and coming back does the same again.
  func testAWaitingRenderBecomingWantedMayStart() {
    var life = Life()
    XCTAssertEqual(life.apply(.requests(Requests(live: 1, cells: 1))), Life.Effects())
    XCTAssertFalse(life.allows(.started), "started while no request wants it")
    XCTAssertEqual(life.apply(Self.cellShown), Life.Effects(wantedWaiting: 1, mayStart: true, becameVisible: true))
    XCTAssertEqual(life.apply(Self.cellHidden), Life.Effects(wantedWaiting: -1))
    XCTAssertEqual(life.apply(Self.cellShown), Life.Effects(wantedWaiting: 1, mayStart: true, becameVisible: true))
    XCTAssertEqual(life.phase, .waiting)
  }

  /// Requests never leave more than joined.
  func testCountsNeverFallBelowZero() {
    let life = Self.life(after: [Self.prefetchJoins])
    XCTAssertFalse(life.allows(Self.visibleLeaves), "a cell task left that never joined")
    XCTAssertFalse(life.allows(.requests(Requests(live: -2))))
    XCTAssertTrue(life.allows(Self.prefetchLeaves))
  }

  /// Thousands of random sequences of what the callers do — cell tasks join, their cells go off screen and come back,
  /// they leave; prefetches join and leave; the run starts, ends, its queue ends — with the events the life allows:
  /// the phase only moves forward (waiting, then running or dropped, then finished); the pool's count of wanted
  /// waiting runs, summed from the effects, is 1 exactly while the run waits wanted; a worker is told it may
  /// start one only while it waits; its work is released once, only if it never started; a running run is
  /// cancelled only once nothing waits for it.
  func testRandomSequencesKeepThePoolsBookkeeping() {
    var generator = SeededGenerator(seed: 0x5EED_11FE)
    func rank(_ phase: Life.Phase) -> Int {
      switch phase {
      case .waiting: return 0
      case .running, .dropped: return 1
      case .finished: return 2
      }
    }
    var applied = 0
    for _ in 0..<2_000 {
      var life = Life()
      // The callers' requests: cell tasks whose cell is on screen, those whose cell is not, prefetches.
      var (shown, hidden, prefetches) = (0, 0, 0)
      var wantedWaiting = 0
      var drops = 0
      var started = false
      for _ in 0..<24 {
        let choice = Int.random(in: 0..<10, using: &generator)
        let event: Life.Event
        switch choice {
        case 0: event = Self.visibleJoins
        case 1: event = shown > 0 ? Self.cellHidden : Self.prefetchJoins
        case 2: event = hidden > 0 ? Self.cellShown : Self.visibleJoins
        case 3: event = shown > 0 ? Self.visibleLeaves : .queueEnded
        case 4: event = hidden > 0 ? .requests(Requests(live: -1, cells: -1)) : Self.prefetchJoins
        case 5: event = Self.prefetchJoins
        case 6: event = prefetches > 0 ? Self.prefetchLeaves : .started
        case 7: event = .started
        case 8: event = .finished(succeeded: Bool.random(using: &generator))
        default: event = .queueEnded
        }
        guard life.allows(event) else { continue }
        switch choice {
        case 0: shown += 1
        case 1: if shown > 0 { (shown, hidden) = (shown - 1, hidden + 1) } else { prefetches += 1 }
        case 2: if hidden > 0 { (shown, hidden) = (shown + 1, hidden - 1) } else { shown += 1 }
        case 3: if shown > 0 { shown -= 1 }
        case 4: if hidden > 0 { hidden -= 1 } else { prefetches += 1 }
        case 5: prefetches += 1
        case 6: if prefetches > 0 { prefetches -= 1 }
        default: break
        }
        let before = life
        let effects = life.apply(event)
        applied += 1
        XCTAssertEqual(
          life.requests,
          Requests(live: shown + hidden + prefetches, wanted: shown + prefetches, urgent: shown, cells: shown + hidden))
        XCTAssertGreaterThanOrEqual(rank(life.phase), rank(before.phase), "\(before.phase) went back to \(life.phase)")
        if case .dropped = life.phase { XCTAssertFalse(started, "a run that started was dropped") }
        if event == .started { started = true }
        wantedWaiting += effects.wantedWaiting
        XCTAssertEqual(wantedWaiting, life.phase == .waiting && life.requests.wanted > 0 ? 1 : 0)
        if effects.mayStart { XCTAssertEqual(life.phase, .waiting) }
        if effects.dropped { drops += 1 }
        XCTAssertLessThanOrEqual(drops, 1)
        if effects.cancelRunning { XCTAssertTrue(life.phase == .running && life.requests.live == 0) }
        if effects.becameVisible { XCTAssertTrue(before.requests.urgent == 0 && life.requests.urgent > 0) }
      }
    }
    XCTAssertGreaterThan(applied, 10_000, "the sequences took too few events to mean anything")
  }
}
