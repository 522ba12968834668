import XCTest

@testable import IdleWork
@testable import IdleWorkPreparation

extension QueueCore {
  /// The queue's preparation half, if it has one, for tests that look into it.
  var preparation: QueuePreparation? { client as? QueuePreparation }

  /// The queue's preparation half, made if it has none.
  func preparationMade() -> QueuePreparation { QueuePreparation.of(self) }
}
