import CoreFoundation
import Foundation

@testable import FeedDemoKit

/// A live feed for a test: the model, a display link, the strategy installed on it, the table view with its
/// first screen, and the recorder — what every test that drives the real `FeedView` sets up the same way.
@MainActor
struct FeedFixture {
  let feed: FeedView
  let recorder: Recorder
  private let link: DisplayLink
  private let strategy: FeedStrategy

  /// Builds the feed for `profile` at 60 Hz with `strategy` installed and the first screen loaded.
  init(profile: Profile, strategy: FeedStrategy) {
    let model = FeedModel.make(profile.settings, seed: 1)
    recorder = Recorder()
    link = DisplayLink(refreshHz: 60, commitFraction: 0.25)
    self.strategy = strategy
    strategy.install(for: .feed, displayLink: link)
    feed = FeedView(model: model, strategy: strategy, recorder: recorder, displayLink: link)
    feed.loadInitialScreen()
  }

  /// Records from `.fill`, reconfigures the visible rows twice in one turn (the second before the first's draws
  /// ran), then turns the main loop until `done` holds or `timeout` seconds pass; a 1 ms timer in `timerMode`
  /// keeps the loop waking meanwhile (workers signal nothing the loop waits on, and DWU draws once per wake-up).
  func reconfigureTwiceAndTurn(
    timerMode: CFRunLoopMode, timeout: Double, until done: @escaping @MainActor () -> Bool
  ) {
    recorder.begin(.fill, at: Clock.now)
    feed.reconfigureVisibleRows()
    feed.reconfigureVisibleRows()
    turn(timerMode: timerMode, timeout: timeout, until: done)
  }

  /// Turns the main loop until `done` holds or `timeout` seconds pass, a 1 ms timer in `timerMode` keeping it
  /// waking meanwhile (see ``reconfigureTwiceAndTurn(timerMode:timeout:until:)``).
  func turn(timerMode: CFRunLoopMode, timeout: Double, until done: @escaping @MainActor () -> Bool) {
    let timer = CFRunLoopTimerCreateWithHandler(nil, CFAbsoluteTimeGetCurrent() + 0.001, 0.001, 0, 0) { _ in }
    CFRunLoopAddTimer(CFRunLoopGetMain(), timer, timerMode)
    defer { CFRunLoopTimerInvalidate(timer) }
    let gate = PhaseGate()
    defer { gate.invalidate() }
    gate.run(mode: RunLoopModes.defaultCF, timeout: timeout, until: done)
  }

  /// Uninstalls the strategy and invalidates the display link (call it with `defer`).
  func tearDown() {
    strategy.uninstall()
    link.invalidate()
  }
}
