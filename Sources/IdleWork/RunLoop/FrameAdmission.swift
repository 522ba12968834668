/// The admission rule: whether a task may start, given its predicted cost and the time left before the
/// frame deadline (pure; times in nanoseconds).
///
/// A task starts when `predicted + margin(predicted) <= timeLeft`, or when no frame is pending. One that
/// never fits a whole frame starts as the first task of a pass with at least half a frame ahead: it costs
/// one late frame instead of starving. Otherwise the pass ends until the next frame.
enum FrameAdmission {
  /// The largest margin kept between a task's predicted end and the deadline (an eighth of a 120 Hz frame).
  /// Resumable slices are given the time left less this margin.
  static let margin: UInt64 = 1_000_000
  /// The smallest margin, for tasks of a few microseconds.
  static let minimumMargin: UInt64 = 100_000

  /// A quarter of the prediction, within `minimumMargin...margin`: its error grows with the cost.
  static func margin(forPredicted predicted: UInt64) -> UInt64 {
    min(margin, max(minimumMargin, predicted / 4))
  }

  enum Decision: Equatable {
    /// Start the task.
    case start
    /// End the pass; ask for the next one once `wait` nanoseconds (the time left) have passed.
    case wait(UInt64)
  }

  /// Whether a task may start with `timeLeft` before the deadline (`nil`: no frame pending; a passed deadline
  /// never reaches this, ``FrameClock`` reports it as late) in frames `frameLength` long.
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
