import Foundation

/// Slicing heavy work: a job that runs a slice per pass instead of holding the main thread at once.
extension IdleQueue {
  /// Queues a resumable task: it runs slice by slice until a slice returns ``SliceResult/done``. Each
  /// slice counts as one task against the budget — with the default `.tasks(1)`, one slice per pass — so
  /// a 30 ms job written as thirty 1 ms slices gives the run loop back between slices whenever the budget
  /// is spent, instead of holding the main thread for 30 ms at once.
  ///
  /// **Slicing to the deadline.** Each slice is given `timeRemaining`, as `requestIdleCallback` gives its
  /// callback a deadline: call it to learn the seconds the slice may still spend — the least of the time
  /// left before the next frame (less a 1 ms margin, with ``Scrolling/fitToFrames(timeUntilNextFrame:)``)
  /// and of what is left of a `.seconds` budget; 0 when neither applies. Do one step, then more while it stays above a
  /// step's length (draw image tiles until the time is spent):
  ///
  /// ```swift
  /// queue.addResumableTask(key: "tiles") { timeRemaining in
  ///   repeat { drawNextTile() } while hasMoreTiles && timeRemaining() > tileCost
  ///   return hasMoreTiles ? .moreToDo : .done
  /// }
  /// ```
  ///
  /// **Where a resumed slice goes:** it keeps its place in the queue, so the job's next slice runs before
  /// anything queued after it. Finishing jobs one after another (rather than rotating them round-robin to
  /// the tail) minimises the mean time until a job's result is visible — with *k* equal jobs the average
  /// completion is *(k+1)/2* job lengths instead of nearly *k* — keeps FIFO order with the job's own
  /// follow-up tasks, and frees each job's partial state as early as possible. Having started, an
  /// unfinished job is usually the oldest runnable task, so if the queue overflows it is the first evicted
  /// after stale tasks, those of cells off screen and discardable ones.
  ///
  /// `estimatedCost` is the seconds one slice is expected to take (see
  /// ``addTask(key:discardable:replacesPending:estimatedCost:_:)``) — for a slice that steps while
  /// `timeRemaining()` allows, one step's. Slices are otherwise predicted from measured slices, apart from
  /// one-shot tasks; a slice that reads `timeRemaining()` is measured by its longest stretch between looks
  /// at the clock (its start, each read, its end): one step.
  @discardableResult
  public func addResumableTask(
    key: some Hashable, discardable: Bool = false, estimatedCost: TimeInterval? = nil,
    _ slice: @escaping @MainActor (_ timeRemaining: () -> TimeInterval) -> SliceResult
  ) -> IdleTaskHandle {
    let cost = estimatedCost == nil ? nil : Validation.estimatedCost(estimatedCost)
    return core.enqueue(
      key: TaskKey(key), QueuedTask(work: .resumable(slice), estimatedCost: cost), discardable: discardable)
  }

  /// Queues a resumable task for `cell` at `item`, bound to the cell's configuration as
  /// ``addTask(for:at:key:discardable:estimatedCost:_:)``: before each slice it is skipped as stale if the cell
  /// is gone or was configured again, and it waits while the cell is off screen. Its key is `key`, or `item`
  /// when `key` is `nil`. Each slice is given the cell and `timeRemaining`, as in
  /// ``addResumableTask(key:discardable:estimatedCost:_:)``.
  @discardableResult
  public func addResumableTask<Cell: AnyObject>(
    for cell: Cell, at item: some Hashable, key: (some Hashable)? = Int?.none, discardable: Bool = false,
    estimatedCost: TimeInterval? = nil,
    _ slice: consuming @escaping @MainActor (Cell, _ timeRemaining: () -> TimeInterval) -> SliceResult
  ) -> IdleTaskHandle {
    // The queue hands the slice back the cell it was added for, a `Cell`.
    let slice = slice
    return core.enqueueCellTask(
      .resumableOnCell { cell, timeRemaining in slice(cell as! Cell, timeRemaining) }, for: cell, at: item,
      key: key.map { TaskKey($0) }, estimatedCost: estimatedCost, discardable: discardable)
  }
}
