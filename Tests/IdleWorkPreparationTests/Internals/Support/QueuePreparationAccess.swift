import XCTest

@testable import IdleWork
@testable import IdleWorkPreparation

extension QueueCore {
  /// The queue's preparation half, if it has one, for tests that look into it.
  var preparation: QueuePreparation? { client as? QueuePreparation }

  /// The queue's preparation half, made (with the default configuration) if it has none.
  func preparationMade() -> QueuePreparation { preparation ?? QueuePreparation.of(self, configuration: .init()) }
}

extension IdleQueue {
  /// A ``Preparer`` of this queue: its preparation half as it was made, or one made with the default configuration.
  var preparer: Preparer { Preparer(queue: self, configuration: core.preparation?.configuration ?? .init()) }
}
