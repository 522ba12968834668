import Foundation
import IdleWork
import IdleWorkTesting

/// A frame clock source that records when the queue starts and stops it.
@MainActor
package final class FakeFrameClockSource: FrameClockSource {
  package init() {}
  package private(set) var log: [String] = []
  package var timeLeft: TimeInterval?
  package func start() { log.append("start") }
  package func stop() { log.append("stop") }
  package func timeUntilDeadline() -> TimeInterval? { timeLeft }
  package var frameDuration: TimeInterval? { nil }
}

/// A frame clock source whose reading the test sets.
@MainActor
package final class ScriptedSource: FrameClockSource {
  package init() {}
  package var seconds: TimeInterval?
  package var duration: TimeInterval?
  package func start() {}
  package func stop() {}
  package func timeUntilDeadline() -> TimeInterval? { seconds }
  package var frameDuration: TimeInterval? { duration }
}

/// A frame clock that knows a frame as a display link does: only while running, and after a start only
/// once it has ticked (a paused link neither ticks nor has a target time).
@MainActor
package final class LinkLikeSource: FrameClockSource {
  package let driver: ManualPassDriver
  /// When the next frame must be committed, on the driver's clock.
  package var deadline: TimeInterval = 1.0 / 60
  package private(set) var isRunning = false
  /// Times a running link was stopped.
  package private(set) var stops = 0
  private var hasTicked = false
  package init(_ driver: ManualPassDriver) { self.driver = driver }
  /// A vsync: a running link's callback comes.
  package func tick() { hasTicked = isRunning }
  package func start() { isRunning = true }
  package func stop() {
    if isRunning { stops += 1 }
    isRunning = false
    hasTicked = false
  }
  package func timeUntilDeadline() -> TimeInterval? { isRunning && hasTicked ? deadline - driver.now : nil }
  package var frameDuration: TimeInterval? { nil }
  package var startsTicking: Bool { true }
}

/// A `.scrollingFeed` queue on a manual driver whose frame clock is a ``LinkLikeSource``, after one pass that
/// ran a task at a tick: the clock knows its frame.
@MainActor
package func queueOnALinkThatKnowsItsFrame() -> (IdleQueue, ManualPassDriver, LinkLikeSource) {
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
