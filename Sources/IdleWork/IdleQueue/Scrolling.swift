import Foundation

extension IdleQueue {
  /// What a queue does while a scroll view scrolls — pause, or fit its work to frames — set with
  /// ``Configuration/scrolling``.
  ///
  /// One setting, because the two questions have one answer: running work *during* a scroll is safe only
  /// with a frame clock, and a frame clock is what makes idle passes stop a long draw from making a frame
  /// late. So a queue either pauses while a scroll is tracked and budgets its idle passes alone
  /// (``pause``, the default), or follows a frame clock in every pass (``fitToFrames(timeUntilNextFrame:)``,
  /// which ``Configuration/scrollingFeed(timeUntilNextFrame:)`` sets). FeedDemo measures the second as the
  /// best setup for a feed of cells that draw for a few milliseconds each: fewer blank cells than pausing,
  /// and no dropped frames.
  ///
  /// ```swift
  /// var configuration = IdleQueue.Configuration()
  /// configuration.scrolling = .fitToFrames()  // on iOS, the display link is the frame clock
  /// ```
  ///
  /// (A structure rather than an enumeration, so that a later option can be added without breaking a
  /// `switch` in your code.)
  public struct Scrolling: Sendable {
    /// Makes the frame clock's source (a display link must be made on the main thread); `nil`: none.
    let frameClockSource: (@MainActor @Sendable () -> any FrameClockSource)?
    /// Whether tasks run in tracking passes (``fitToFrames(timeUntilNextFrame:)``).
    let fitsToFrames: Bool

    init(fitsToFrames: Bool, frameClockSource: (@MainActor @Sendable () -> any FrameClockSource)?) {
      self.fitsToFrames = fitsToFrames
      self.frameClockSource = frameClockSource
    }

    /// Nothing runs while a scroll is tracked, and no frame clock: the default.
    ///
    /// While UIKit tracks a scroll — the drag and the deceleration after a fling, both in
    /// `UITrackingRunLoopMode` — the queue runs nothing; it resumes once the run loop is back in one of
    /// ``Configuration/modes``. Idle passes are bounded by ``Configuration/budget`` alone, which counts
    /// tasks or time already spent. Choose it when tasks are tiny, or when no frame clock can be told.
    public static let pause = Scrolling(fitsToFrames: false, frameClockSource: nil)

    /// Every pass — in idle time and during scrolls — starts a task only if it fits before the next frame
    /// must be committed.
    ///
    /// - **Idle passes** start a task only if its predicted cost (see `estimatedCost:` on
    ///   ``IdleQueue/addTask(key:discardable:replacesPending:estimatedCost:_:)``) plus a margin (a quarter
    ///   of the prediction, within 0.1...1 ms) fits in the time left; otherwise the pass ends, and the next
    ///   comes once the frame has gone by. A budget alone would let the last task of a pass make the frame
    ///   late by its whole length. A task longer than a frame (the length of the last four frames) still
    ///   runs, as the first task of an idle pass near a frame's start (or at once when no frame is pending):
    ///   it costs one late frame instead of waiting forever. Resumable slices are given the time left.
    /// - **During a scroll** (`UITrackingRunLoopMode`) a task runs if its measured (or estimated) cost fits
    ///   before the next frame. A task whose cost was never measured is tried only as the first task of a
    ///   pass with at least half a frame left (which measures it); one that never fits a frame waits for an
    ///   idle pass, keeping its place while the tasks behind it that fit run. With no frame known, nothing
    ///   runs while scrolling. After a tracking pass the queue asks for no further pass — frames pace the
    ///   work while a scroll lasts — though the run loop is still woken once after a pass that ran tasks,
    ///   so that their changes are committed.
    /// - **No frame pending** (`nil`), or a clock whose next frame stays overdue for a whole frame (at least
    ///   1/60 s: a display link that stopped ticking): passes run as with ``pause``, bounded by the budget,
    ///   without polling — and nothing runs while scrolling.
    ///
    /// - Parameter timeUntilNextFrame: the frame clock: seconds until the next frame must be committed —
    ///   negative once that moment has passed — or `nil` when no frame is pending. Read on the main thread
    ///   before each task; it must return a finite number (a huge one is clamped): NaN or an infinity stops
    ///   the program with a message naming `timeUntilNextFrame`. Leave it out on iOS and tvOS: the queue
    ///   then reads a `CADisplayLink`'s `targetTimestamp`, and runs the display link only while tasks are
    ///   pending (and for at most 0.1 s while only results being prepared are awaited). Elsewhere (Linux, macOS, a test) leaving it out means no frame clock: idle passes are
    ///   bounded by the budget, with predicted costs, and nothing runs while scrolling. A test injects a
    ///   clock it moves by hand.
    public static func fitToFrames(
      timeUntilNextFrame: (@MainActor @Sendable () -> TimeInterval?)? = nil
    ) -> Scrolling {
      guard let timeUntilNextFrame else {
        return Scrolling(fitsToFrames: true, frameClockSource: DisplayLinkFrameClock.factory)
      }
      return Scrolling(fitsToFrames: true, frameClockSource: { ClosureFrameClockSource(timeUntilNextFrame) })
    }

    /// ``fitToFrames(timeUntilNextFrame:)`` with a frame clock that can be started and stopped (tests' fakes).
    static func fitToFrames(source: @escaping @MainActor @Sendable () -> any FrameClockSource) -> Scrolling {
      Scrolling(fitsToFrames: true, frameClockSource: source)
    }

    /// The run-loop mode in which UIKit tracks a scroll — the drag and the deceleration after a fling — and
    /// in which a queue that fits its work to frames runs tracking passes.
    static let trackingMode = RunLoop.Mode("UITrackingRunLoopMode")

    /// The modes that get tracking passes under this setting.
    var trackingModes: [RunLoop.Mode] { fitsToFrames ? [Self.trackingMode] : [] }
  }
}
