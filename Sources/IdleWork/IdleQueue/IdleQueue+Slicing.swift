import Foundation

/// Resumable tasks: work too long for one pass, done a slice at a time.
extension IdleQueue {
  /// Queues work that runs a slice per pass until it returns `true` (done). Each slice is given the seconds it may
  /// still spend (`timeRemaining()`: the time left before the next frame, or in a `.seconds` budget; 0 when neither
  /// applies, then do one small step) and returns `false` to keep its place and run again in a later pass.
  ///
  /// ```swift
  /// var next = 0
  /// queue.addResumableTask(key: "index") { timeRemaining in
  ///   while next < words.count, timeRemaining() > 0.001 { index(words[next]); next += 1 }
  ///   return next == words.count
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - key: groups tasks for ``cancelTasks(forKey:)``.
  ///   - droppable: as in ``addTask(key:droppable:replacesPending:estimatedCost:_:)``.
  ///   - estimatedCost: seconds one slice takes, if you know better than the queue's prediction.
  ///   - slice: one step of the work; returns whether the work is done.
  @discardableResult
  public func addResumableTask(
    key: some Hashable, droppable: Bool = false, estimatedCost: TimeInterval? = nil,
    _ slice: @escaping @MainActor (_ timeRemaining: () -> TimeInterval) -> Bool
  ) -> IdleTaskHandle {
    let cost = estimatedCost == nil ? nil : Validation.estimatedCost(estimatedCost)
    return core.enqueue(
      key: TaskKey(key), QueuedTask(work: .resumable(slice), estimatedCost: cost), discardable: droppable)
  }

  /// Queues resumable work for `cell`, as ``addTask(for:at:key:droppable:estimatedCost:_:)`` queues a task: it
  /// runs a slice per pass while the cell shows this configuration of `item`, until a slice returns `true`.
  @discardableResult
  public func addResumableTask<Cell: AnyObject>(
    for cell: Cell, at item: some Hashable, key: AnyHashable? = nil, droppable: Bool = false,
    estimatedCost: TimeInterval? = nil,
    _ slice: consuming @escaping @MainActor (Cell, _ timeRemaining: () -> TimeInterval) -> Bool
  ) -> IdleTaskHandle {
    // The queue hands the slice back the cell it was added for, a `Cell`.
    let slice = slice
    return core.enqueueCellTask(
      .resumableOnCell { cell, timeRemaining in slice(cell as! Cell, timeRemaining) }, for: cell, at: item,
      key: key.map { TaskKey($0) }, estimatedCost: estimatedCost, discardable: droppable)
  }
}
