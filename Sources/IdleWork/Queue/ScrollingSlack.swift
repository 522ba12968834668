import Foundation

extension IdleQueue {
  /// Opt-in work during scrolls, within the slack left before the next frame.
  ///
  /// With the default mode only, a slow drag leaves new cells blank until the scroll ends (drag and
  /// deceleration both run in the tracking mode); running everything in common modes instead drops
  /// frames. With this setting, while the run loop is about to sleep in one of its tracking modes, a task
  /// that has waited at least `minimumWait` may run, but only when `timeUntilNextFrame` reports more than
  /// `minimumFrameSlack` left before the next frame is due — and the check is repeated before every task.
  /// The pass budget still applies. After a tracking pass the queue asks for no further pass to drain
  /// itself — frames pace the work while a scroll lasts — though the run loop is still woken once after
  /// any pass that ran tasks, so that their changes are committed.
  ///
  /// On iOS, give it the display link's target time:
  /// ```swift
  /// let slack = IdleQueue.ScrollingSlack(timeUntilNextFrame: { [weak link] in
  ///   link.map { $0.targetTimestamp - CACurrentMediaTime() }
  /// })
  /// ```
  public struct ScrollingSlack: Sendable {
    /// Seconds a task must have waited before it may run during a scroll. Valid range: finite, `>= 0`;
    /// an invalid value stops the program with a message naming it.
    var minimumWait: Double {
      didSet { Self.validate(minimumWait: minimumWait) }
    }
    /// Seconds that must be left before the next frame for a task to start. Valid range: finite, `> 0`;
    /// an invalid value stops the program with a message naming it.
    var minimumFrameSlack: Double {
      didSet { Self.validate(minimumFrameSlack: minimumFrameSlack) }
    }
    /// Modes in which tracking passes happen; on iOS, `UITrackingRunLoopMode`.
    var trackingModes: [RunLoop.Mode]
    /// Seconds until the next frame must be ready, or `nil` if unknown (then nothing runs during a scroll).
    var timeUntilNextFrame: @MainActor @Sendable () -> Double?
    /// Set by ``IdleQueue/Configuration/scrollingFeed(frameDeadline:)``: the queue's frame clock decides
    /// (`FrameAdmission`), and `timeUntilNextFrame` is not read.
    var followsFrameClock = false

    /// Creates a setting; invalid values stop the program with a message naming the parameter and range.
    ///
    /// - Parameters:
    ///   - minimumWait: seconds a task must have waited before it may run during a scroll; finite, `>= 0`.
    ///   - minimumFrameSlack: seconds that must be left before the next frame for a task to start;
    ///     finite, `> 0`.
    ///   - trackingModes: modes in which tracking passes happen; default UIKit's `UITrackingRunLoopMode`.
    ///   - timeUntilNextFrame: seconds until the next frame must be ready, or `nil` if unknown (then
    ///     nothing runs during a scroll).
    public init(
      minimumWait: Double = 0.05, minimumFrameSlack: Double = 0.004,
      trackingModes: [RunLoop.Mode] = [RunLoop.Mode("UITrackingRunLoopMode")],
      timeUntilNextFrame: @escaping @MainActor @Sendable () -> Double?
    ) {
      Self.validate(minimumWait: minimumWait)
      Self.validate(minimumFrameSlack: minimumFrameSlack)
      self.minimumWait = minimumWait
      self.minimumFrameSlack = minimumFrameSlack
      self.trackingModes = trackingModes
      self.timeUntilNextFrame = timeUntilNextFrame
    }

    private static func validate(minimumWait: Double) {
      Validation.require(
        minimumWait.isFinite && minimumWait >= 0
          ? nil : "IdleWork: scrollingSlack.minimumWait \(minimumWait) is invalid: it must be finite and >= 0")
    }

    private static func validate(minimumFrameSlack: Double) {
      Validation.require(
        minimumFrameSlack.isFinite && minimumFrameSlack > 0
          ? nil
          : "IdleWork: scrollingSlack.minimumFrameSlack \(minimumFrameSlack) is invalid: it must be finite and > 0")
    }

    /// Whether `timeUntilNextFrame` leaves more than `minimumFrameSlack` now (read before every task).
    @MainActor
    func frameSlackAllows() -> Bool {
      guard let slack = timeUntilNextFrame() else { return false }
      return slack > minimumFrameSlack
    }
  }
}
