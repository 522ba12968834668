import Foundation

/// Slicing heavy work: many small tasks instead of one long one.
extension IdleQueue {
  /// Queues one task per element, in order — DWURunLoopWorkDistribution's three images become three tasks,
  /// each in its own pass under the default budget.
  ///
  /// All share `key`, so one ``cancelTasks(forKey:)`` cancels the rest. Returns one handle per element.
  @discardableResult
  public func addTasks<Elements: Sequence>(
    key: some Hashable, for elements: Elements, discardable: Bool = false,
    _ task: @escaping @MainActor (Elements.Element) -> Void
  ) -> [IdleTaskHandle] {
    elements.map { element in addTask(key: key, discardable: discardable) { task(element) } }
  }

  /// Queues one task per element for `cell` at `indexPath`: each is skipped as stale if, by its turn, the
  /// cell is gone or shows another index path. Sets `cell.currentIndexPath`; the key is `indexPath`.
  @discardableResult
  public func addTasks<Cell: IndexPathReusable, Elements: Sequence>(
    for cell: Cell, at indexPath: IndexPath, each elements: Elements, discardable: Bool = false,
    _ task: @escaping @MainActor (Cell, Elements.Element) -> Void
  ) -> [IdleTaskHandle] {
    elements.map { element in
      addTask(for: cell, at: indexPath, discardable: discardable) { cell in task(cell, element) }
    }
  }

  /// Queues a resumable task: it runs one slice per pass (each slice counts as one task against the budget)
  /// until it returns ``SliceResult/done``, so a 30 ms job written as thirty 1 ms slices never holds the
  /// main thread for more than a slice.
  ///
  /// **Where a resumed slice goes:** it keeps its place at the head of the queue, so the job's next slice
  /// runs before anything queued after it. Finishing jobs one after another (rather than rotating them
  /// round-robin to the tail) minimises the mean time until a job's result is visible — with *k* equal jobs
  /// the average completion is *(k+1)/2* job lengths instead of nearly *k* — keeps FIFO order with the
  /// job's own follow-up tasks, and frees each job's partial state as early as possible. Being the oldest
  /// pending task, an unfinished job is also the first evicted if the queue overflows.
  @discardableResult
  public func addResumableTask(
    key: some Hashable, discardable: Bool = false, _ slice: @escaping @MainActor () -> SliceResult
  ) -> IdleTaskHandle {
    enqueue(key: TaskKey(key), QueuedTask(work: .resumable(slice)), discardable: discardable)
  }

  /// Queues a resumable task for `cell` at `indexPath`; before each slice it is skipped as stale if the
  /// cell is gone or shows another index path. Sets `cell.currentIndexPath`; the key is `indexPath`.
  @discardableResult
  public func addResumableTask<Cell: IndexPathReusable>(
    for cell: Cell, at indexPath: IndexPath, discardable: Bool = false,
    _ slice: @escaping @MainActor (Cell) -> SliceResult
  ) -> IdleTaskHandle {
    cell.currentIndexPath = indexPath
    let work: QueuedTask.Work = .resumable { [weak cell] in cell.map(slice) ?? .done }
    return enqueue(
      key: TaskKey(indexPath), QueuedTask(work: work, cell: cell, indexPath: indexPath), discardable: discardable)
  }
}
