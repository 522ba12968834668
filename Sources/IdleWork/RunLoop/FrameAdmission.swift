/// The admission rule: whether a task may start, given its predicted cost and the time left before the
/// frame deadline.
///
/// Pure: every time is in nanoseconds, handed in by the caller.
///
/// - A task **fits** when `predicted + margin(predicted) <= timeLeft`: it starts. The margin covers the
///   prediction's error, which grows with the cost: a quarter of the prediction, at least 0.1 ms and at
///   most 1 ms — so tiny tasks fill a frame to within 0.1 ms, and a 4 ms draw keeps a whole millisecond.
/// - With no frame pending (`timeLeft == nil`) there is no deadline: it starts.
/// - A task that **never fits** — `predicted + margin` exceeds a whole frame — would wait forever for a
///   frame long enough. It starts as the first task of a pass whose frame is at least half ahead
///   (`timeLeft >= frameLength / 2`), which the pass that follows each frame's start is: it delays one
///   frame, once, instead of being starved. (With no frame pending it starts at once, as any task.)
/// - Otherwise the pass ends, and the next comes after the deadline, when a new frame has begun.
enum FrameAdmission {
  /// The largest margin kept between a task's predicted end and the deadline: 1 ms, an eighth of a
  /// 120 Hz frame. Resumable slices, which size themselves to `timeRemaining`, are given the time left less
  /// this margin.
  static let margin: UInt64 = 1_000_000
  /// The smallest margin: 0.1 ms, for tasks of a few microseconds.
  static let minimumMargin: UInt64 = 100_000

  /// The margin kept after a task predicted to take `predicted` nanoseconds: a quarter of it, within
  /// `minimumMargin...margin`.
  static func margin(forPredicted predicted: UInt64) -> UInt64 {
    min(margin, max(minimumMargin, predicted / 4))
  }

  enum Decision: Equatable {
    /// Start the task.
    case start
    /// End the pass; ask for the next one once `wait` nanoseconds (the time left) have passed.
    case wait(UInt64)
  }

  /// - Parameters:
  ///   - predicted: the task's predicted cost.
  ///   - timeLeft: time until the frame must be committed; `nil` when no frame is pending. (A passed
  ///     deadline never reaches this: ``FrameClock`` reports it as ``FrameReading/late(retryIn:)``.)
  ///   - frameLength: the length of a whole frame (as the clock reports it, or as ``FrameClock`` estimates it).
  ///   - isFirstInPass: whether no task has run yet in this pass.
  static func decide(predicted: UInt64, timeLeft: Int64?, frameLength: UInt64, isFirstInPass: Bool) -> Decision {
    guard let timeLeft else { return .start }
    let need = needed(predicted)
    let left = UInt64(clamping: timeLeft)
    if need <= left { return .start }
    if need > frameLength, isFirstInPass, left >= frameLength / 2, left > 0 { return .start }
    return .wait(left)
  }

  /// Whether a task predicted to take `predicted` nanoseconds, with its margin, ends within `timeLeft`.
  static func fits(predicted: UInt64, timeLeft: Int64) -> Bool {
    timeLeft > 0 && needed(predicted) <= UInt64(timeLeft)
  }

  /// Whether a task predicted to take `predicted` nanoseconds, with its margin, is longer than a whole frame.
  static func neverFits(predicted: UInt64, frameLength: UInt64) -> Bool {
    needed(predicted) > frameLength
  }

  /// The prediction plus its margin, saturating.
  private static func needed(_ predicted: UInt64) -> UInt64 {
    let needed = predicted.addingReportingOverflow(margin(forPredicted: predicted))
    return needed.overflow ? UInt64.max : needed.partialValue
  }
}
