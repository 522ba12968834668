import Foundation
import IdleWorkTesting

/// A frame clock the test moves: the deadline is an absolute time on the driver's clock, or `nil`.
@MainActor
package final class ManualFrames {
  package let driver: ManualPassDriver
  /// The driver time (seconds) at which the frame must be committed; `nil`: no frame pending.
  package var deadline: TimeInterval?
  package init(_ driver: ManualPassDriver, deadline: TimeInterval?) {
    self.driver = driver
    self.deadline = deadline
  }
  package var timeLeft: TimeInterval? { deadline.map { $0 - driver.now } }
}
