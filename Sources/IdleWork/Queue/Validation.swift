/// Stops the program with a message naming the bad parameter and its valid range (`fatalError`, so the message
/// is printed in optimized builds too).
enum Validation {
  static func require(_ failure: String?) {
    if let failure { fatalError(failure) }
  }

  static func queueLengthFailure(_ length: Int) -> String? {
    length < 0 ? "IdleWork: maximumQueueLength \(length) is invalid: it must be in 0...Int.max" : nil
  }

  /// A caller's `estimatedCost` (seconds): `nil` or finite and `>= 0`.
  static func estimatedCostFailure(_ cost: Double?) -> String? {
    guard let cost, !(cost.isFinite && cost >= 0) else { return nil }
    return "IdleWork: estimatedCost \(cost) is invalid: it must be finite and >= 0 (seconds), or nil"
  }

  /// What a `timeUntilNextFrame` clock returned must be finite (negative once the moment has passed).
  static func timeUntilNextFrameFailure(_ seconds: Double) -> String? {
    seconds.isFinite
      ? nil
      : "IdleWork: timeUntilNextFrame returned \(seconds), which is invalid: it must return a finite number of "
        + "seconds until the next frame must be committed (negative once it has passed), or nil when no frame "
        + "is pending"
  }

  /// The caller's estimate in nanoseconds, validated.
  static func estimatedCost(_ cost: Double?) -> UInt64? {
    guard let cost else { return nil }
    require(estimatedCostFailure(cost))
    return UInt64(min((cost * 1e9).rounded(), Double(UInt64.max / 4)))
  }
}
