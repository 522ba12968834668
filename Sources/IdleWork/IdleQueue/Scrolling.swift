import Foundation

extension IdleQueue {
  /// What a queue does while a scroll view scrolls — pause, or fit its work to frames — set with
  /// ``Configuration/scrolling``. One setting, because running work during a scroll is safe only with a frame
  /// clock, and a frame clock is also what keeps an idle pass from making a frame late.
  ///
  /// ```swift
  /// var configuration = IdleQueue.Configuration()
  /// configuration.scrolling = .fitToFrames()  // on iOS, the display link is the frame clock
  /// ```
  public struct Scrolling: Sendable {
    /// Makes the frame clock's source (a display link must be made on the main thread); `nil`: none.
    let frameClockSource: (@MainActor @Sendable () -> any FrameClockSource)?
    /// Whether tasks run in tracking passes (``fitToFrames(timeUntilNextFrame:)``).
    let fitsToFrames: Bool

    init(fitsToFrames: Bool, frameClockSource: (@MainActor @Sendable () -> any FrameClockSource)?) {
      self.fitsToFrames = fitsToFrames
      self.frameClockSource = frameClockSource
    }

    /// Nothing runs while a scroll is tracked (`UITrackingRunLoopMode`: the drag and the deceleration after a
    /// fling), and no frame clock: idle passes are bounded by ``Configuration/budget`` alone. The default.
    public static let pause = Scrolling(fitsToFrames: false, frameClockSource: nil)

    /// Every pass — in idle time and during scrolls — starts a task only if its predicted cost (the queue's
    /// measurements, or `estimatedCost:`) fits before the next frame must be committed. During a scroll a task
    /// never measured is tried only as the first of a pass with half a frame left; one that never fits a frame
    /// waits for an idle pass while the tasks behind it run. With no frame known nothing runs while scrolling.
    ///
    /// - Parameter timeUntilNextFrame: seconds until the next frame must be committed (negative once passed),
    ///   or `nil` when none is pending; finite, or the program stops with a message naming it. Leave it out on
    ///   iOS and tvOS: the queue reads a `CADisplayLink`, running it only while work is pending. Elsewhere,
    ///   leaving it out means no frame clock.
    public static func fitToFrames(
      timeUntilNextFrame: (@MainActor @Sendable () -> TimeInterval?)? = nil
    ) -> Scrolling {
      guard let timeUntilNextFrame else {
        return Scrolling(fitsToFrames: true, frameClockSource: DisplayLinkFrameClock.factory)
      }
      return Scrolling(fitsToFrames: true, frameClockSource: { ClosureFrameClockSource(timeUntilNextFrame) })
    }

    /// ``fitToFrames(timeUntilNextFrame:)`` with a frame clock that can be started and stopped (tests' fakes).
    package static func fitToFrames(source: @escaping @MainActor @Sendable () -> any FrameClockSource) -> Scrolling {
      Scrolling(fitsToFrames: true, frameClockSource: source)
    }

    /// The run-loop mode in which UIKit tracks a scroll — the drag and the deceleration after a fling — and
    /// in which a queue that fits its work to frames runs tracking passes.
    static let trackingMode = RunLoop.Mode("UITrackingRunLoopMode")

    /// The modes that get tracking passes under this setting.
    var trackingModes: [RunLoop.Mode] { fitsToFrames ? [Self.trackingMode] : [] }
  }
}
