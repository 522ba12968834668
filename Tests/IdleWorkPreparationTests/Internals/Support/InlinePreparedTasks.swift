import Foundation

@testable import IdleWork
@testable import IdleWorkPreparation

/// Prepared tasks with their closures given inline rather than as a `Preparation`: the tests' shorthand. Tasks
/// share a preparation and a cached result only when they give equal `content` (with the same `Value` type).
extension IdleQueue {
  @discardableResult
  func addTask<Value: Sendable>(
    key: some Hashable, content: (some Hashable & Sendable)? = Int?.none, droppable: Bool = false,
    estimatedCost: TimeInterval? = nil, resultBytes: (@Sendable (Value) -> Int)? = nil,
    prepare: @escaping @Sendable (_ isCancelled: @Sendable () -> Bool) throws -> Value,
    apply: @escaping @MainActor (Value) -> Void
  ) -> IdleTaskHandle {
    preparer.addTask(
      key: key, content: content.map { Self.contentKey($0, of: Value.self) }, droppable: droppable,
      estimatedCost: estimatedCost, resultBytes: Preparer.sizing(resultBytes, hasContent: content != nil),
      prepare: .worker(Self.erased(prepare)), apply: { value in apply(value as! Value) })
  }

  /// The cell form of the shorthand above.
  @discardableResult
  func addTask<Cell: AnyObject, Value: Sendable>(
    for cell: Cell, at item: some Hashable, key: (some Hashable)? = Int?.none,
    content: (some Hashable & Sendable)? = Int?.none, droppable: Bool = false, estimatedCost: TimeInterval? = nil,
    resultBytes: (@Sendable (Value) -> Int)? = nil,
    prepare: @escaping @Sendable (_ isCancelled: @Sendable () -> Bool) throws -> Value,
    apply: @escaping @MainActor (Cell, Value) -> Void
  ) -> IdleTaskHandle {
    preparer.addTask(
      for: cell, at: item, key: key.map { AnyHashable($0) },
      content: content.map { Self.contentKey($0, of: Value.self) },
      droppable: droppable, estimatedCost: estimatedCost,
      resultBytes: Preparer.sizing(resultBytes, hasContent: content != nil), prepare: .worker(Self.erased(prepare)),
      // The pass hands over the task's own cell, alive and still in this configuration.
      apply: { cell, value in apply(cell, value as! Value) })
  }

  /// What tasks share a render and a cached result by: their content and the type of their value, so that
  /// equal content prepared as different types (an image and its colours for one photo) is never handed to
  /// an `apply` that expects the other.
  private nonisolated static func contentKey<Value>(_ content: some Hashable, of _: Value.Type) -> PreparedContent {
    PreparedContent(valueType: ObjectIdentifier(Value.self), content: AnyHashable(content))
  }

  private nonisolated static func erased<Value: Sendable>(
    _ prepare: @escaping @Sendable (_ isCancelled: @Sendable () -> Bool) throws -> Value
  ) -> PreparationWork {
    { context in try prepare(context.isCancelled) }
  }
}
