import Foundation

@testable import IdleWork
@testable import IdleWorkTesting

/// A frame clock source that records when the queue starts and stops it.
@MainActor
final class FakeFrameClockSource: FrameClockSource {
  private(set) var log: [String] = []
  var timeLeft: TimeInterval?
  func start() { log.append("start") }
  func stop() { log.append("stop") }
  func timeUntilDeadline() -> TimeInterval? { timeLeft }
  var frameDuration: TimeInterval? { nil }
}

/// A frame clock source whose reading the test sets.
@MainActor
final class ScriptedSource: FrameClockSource {
  var seconds: TimeInterval?
  var duration: TimeInterval?
  func start() {}
  func stop() {}
  func timeUntilDeadline() -> TimeInterval? { seconds }
  var frameDuration: TimeInterval? { duration }
}

/// A frame clock that knows a frame as a display link does: only while running, and after a start only
/// once it has ticked (a paused link neither ticks nor has a target time).
@MainActor
final class LinkLikeSource: FrameClockSource {
  let driver: ManualPassDriver
  /// When the next frame must be committed, on the driver's clock.
  var deadline: TimeInterval = 1.0 / 60
  private(set) var isRunning = false
  /// Times a running link was stopped.
  private(set) var stops = 0
  private var hasTicked = false
  init(_ driver: ManualPassDriver) { self.driver = driver }
  /// A vsync: a running link's callback comes.
  func tick() { hasTicked = isRunning }
  func start() { isRunning = true }
  func stop() {
    if isRunning { stops += 1 }
    isRunning = false
    hasTicked = false
  }
  func timeUntilDeadline() -> TimeInterval? { isRunning && hasTicked ? deadline - driver.now : nil }
  var frameDuration: TimeInterval? { nil }
  var startsTicking: Bool { true }
}

/// A `.scrollingFeed` queue on a manual driver whose frame clock is a ``LinkLikeSource``, after one pass that
/// ran a task at a tick: the clock knows its frame.
@MainActor
func queueOnALinkThatKnowsItsFrame() -> (IdleQueue, ManualPassDriver, LinkLikeSource) {
  let driver = ManualPassDriver()
  let source = LinkLikeSource(driver)
  var configuration = IdleQueue.Configuration.scrollingFeed()
  configuration.scrolling = .fitToFrames(source: { source })
  let queue = IdleQueue(driver: driver, configuration: configuration)
  queue.addTask(key: "learn the frame") {}
  source.tick()
  driver.runPass()
  return (queue, driver, source)
}
