import Foundation

/// Slicing heavy work: a job that runs a slice per pass instead of holding the main thread at once.
extension IdleQueue {
  /// Queues a resumable task: it runs slice by slice until a slice returns ``SliceResult/done``. Each
  /// slice counts as one task against the budget — with the default `.tasks(1)`, one slice per pass — so
  /// a 30 ms job written as thirty 1 ms slices gives the run loop back between slices whenever the budget
  /// is spent, instead of holding the main thread for 30 ms at once.
  ///
  /// **Where a resumed slice goes:** it keeps its place in the queue, so the job's next slice runs before
  /// anything queued after it. Finishing jobs one after another (rather than rotating them round-robin to
  /// the tail) minimises the mean time until a job's result is visible — with *k* equal jobs the average
  /// completion is *(k+1)/2* job lengths instead of nearly *k* — keeps FIFO order with the job's own
  /// follow-up tasks, and frees each job's partial state as early as possible. Having started, an
  /// unfinished job is usually the oldest runnable task, so if the queue overflows it is the first evicted
  /// after stale tasks and those of cells off screen.
  @discardableResult
  public func addResumableTask(
    key: some Hashable, discardable: Bool = false, _ slice: @escaping @MainActor () -> SliceResult
  ) -> IdleTaskHandle {
    enqueue(key: TaskKey(key), QueuedTask(work: .resumable(slice)), discardable: discardable)
  }

  /// Queues a resumable task for `cell` at `indexPath`, bound to the cell's configuration as
  /// ``addTask(for:at:discardable:_:)``: before each slice it is dropped as stale if the cell is gone or
  /// was configured again, and it waits while the cell is off screen. The key is `indexPath`.
  @discardableResult
  public func addResumableTask<Cell: AnyObject>(
    for cell: Cell, at indexPath: IndexPath, discardable: Bool = false,
    _ slice: @escaping @MainActor (Cell) -> SliceResult
  ) -> IdleTaskHandle {
    let binding = binding(of: cell, at: indexPath)
    let work: QueuedTask.Work = .resumable { [weak cell] in cell.map(slice) ?? .done }
    return enqueue(key: TaskKey(indexPath), QueuedTask(work: work, binding: binding), discardable: discardable)
  }
}
