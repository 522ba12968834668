/// Stops the program with a message naming the bad parameter and its valid range.
///
/// `fatalError` rather than `precondition`, so that the message is printed in optimized builds too.
enum Validation {
  static func require(_ failure: String?) {
    if let failure { fatalError(failure) }
  }

  static func queueLengthFailure(_ length: Int) -> String? {
    length < 0 ? "IdleWork: maximumQueueLength \(length) is invalid: it must be in 0...Int.max" : nil
  }
}
