import Foundation

extension IdleQueue {
  /// Everything a queue is set up with, as one value. ``scrollingFeed(timeUntilNextFrame:)`` is the setting for a
  /// scrolling feed; the default, `Configuration()`, runs one task per pass and nothing while a scroll is tracked.
  public struct Configuration: Sendable {
    /// Work per pass: `.tasks(1)` by default; see ``IdleQueue/Budget``.
    public var budget: Budget
    /// Pending tasks kept at most, in `0...Int.max`; default 30, as DWURunLoopWorkDistribution. Past it the queue
    /// drops stale tasks first, then those of cells off screen, then droppable ones, then the oldest.
    public var maximumQueueLength: Int
    /// What the queue does while a scroll view scrolls: ``IdleQueue/Scrolling/pause`` (default) or
    /// ``IdleQueue/Scrolling/fitToFrames(timeUntilNextFrame:)``.
    public var scrolling: Scrolling
    /// Run-loop modes whose passes run tasks besides the tracking modes ``scrolling`` adds; tests change them.
    var modes: [RunLoop.Mode] = [.default]
    /// The observer's order; tests and the benchmark change it.
    var observerOrder = IdleQueue.observerOrder

    /// Creates a configuration; every parameter has the default a plain queue wants. Invalid values stop the
    /// program, when a queue is made with it, with a message naming the parameter and its range.
    public init(
      budget: Budget = .tasks(1), maximumQueueLength: Int = 30, scrolling: Scrolling = .pause
    ) {
      self.budget = budget
      self.maximumQueueLength = maximumQueueLength
      self.scrolling = scrolling
    }

    /// A configuration that also runs passes in `modes` (tests).
    init(
      modes: [RunLoop.Mode], budget: Budget = .tasks(1), maximumQueueLength: Int = 30, scrolling: Scrolling = .pause
    ) {
      self.init(budget: budget, maximumQueueLength: maximumQueueLength, scrolling: scrolling)
      self.modes = modes
    }

    /// The setting for a scrolling feed: passes fitted to frames, in idle time and during scrolls; a pass at most a
    /// 60 Hz frame long; 128 tasks kept.
    ///
    /// ```swift
    /// let queue = IdleQueue(configuration: .scrollingFeed())
    /// ```
    ///
    /// - Parameter timeUntilNextFrame: seconds until the next frame must be committed, or `nil` when none is
    ///   pending. Leave it out on iOS and tvOS: the queue reads a `CADisplayLink`, running it only while work is
    ///   pending. Elsewhere, leaving it out means no frame clock (nothing runs while scrolling).
    public static func scrollingFeed(
      timeUntilNextFrame: (@MainActor @Sendable () -> TimeInterval?)? = nil
    ) -> Configuration {
      Configuration(
        budget: .seconds(1.0 / 60), maximumQueueLength: 128,
        scrolling: .fitToFrames(timeUntilNextFrame: timeUntilNextFrame))
    }
  }
}
