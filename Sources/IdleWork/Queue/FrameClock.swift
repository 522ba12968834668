import Foundation

/// Where a queue reads the time left before the next frame must be committed.
///
/// A source may cost something while it runs (a display link wakes the main thread at every frame), so
/// the queue starts it when work becomes pending and stops it when the queue is drained. Platform-neutral,
/// so the start/stop decisions are tested on Linux with a fake source; on UIKit the source is a
/// `CADisplayLink` (see `DisplayLinkFrameClock`).
@MainActor
protocol FrameClockSource: AnyObject {
  /// Work is pending: start ticking (a no-op if running).
  func start()
  /// The queue is drained: stop ticking (a no-op if stopped).
  func stop()
  /// Seconds until the next frame must be committed, or `nil` if no frame is pending.
  func timeUntilDeadline() -> TimeInterval?
  /// The length of a whole frame in seconds, if the source knows it; otherwise the queue takes the most
  /// time left it has seen.
  var frameDuration: TimeInterval? { get }
}

/// A source made of the caller's closure (`Configuration.frameDeadline`): nothing to start or stop.
@MainActor
final class ClosureFrameClockSource: FrameClockSource {
  let deadline: @MainActor @Sendable () -> TimeInterval?

  init(_ deadline: @escaping @MainActor @Sendable () -> TimeInterval?) {
    self.deadline = deadline
  }

  func start() {}
  func stop() {}
  func timeUntilDeadline() -> TimeInterval? { deadline() }
  var frameDuration: TimeInterval? { nil }
}

/// A queue's frame clock: its source, whether it is running, and the frame length learnt so far.
@MainActor
final class FrameClock {
  let source: any FrameClockSource
  private(set) var isRunning = false
  /// The most time left ever read, in nanoseconds: a whole frame, once a pass has come at a frame's start.
  private var longestTimeLeft: UInt64 = 0

  init(source: any FrameClockSource) {
    self.source = source
  }

  func start() {
    guard !isRunning else { return }
    isRunning = true
    source.start()
  }

  func stop() {
    guard isRunning else { return }
    isRunning = false
    source.stop()
  }

  /// Nanoseconds until the deadline (negative once it has passed), or `nil` with no frame pending.
  /// A value that is not a number, or infinite, stops the program with a message naming the parameter.
  func timeLeft() -> Int64? {
    guard let seconds = source.timeUntilDeadline() else { return nil }
    Validation.require(Validation.frameDeadlineFailure(seconds))
    let nanoseconds = Int64((seconds * 1e9).rounded())
    if nanoseconds > 0 { longestTimeLeft = max(longestTimeLeft, UInt64(nanoseconds)) }
    return nanoseconds
  }

  /// The length of a whole frame in nanoseconds.
  var frameLength: UInt64 {
    guard let duration = source.frameDuration, duration.isFinite, duration > 0 else { return longestTimeLeft }
    return UInt64((duration * 1e9).rounded())
  }
}
