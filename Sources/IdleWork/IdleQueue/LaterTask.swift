import Foundation

/// A queued task whose work comes later, from any thread — an image your own loader delivers, a result of your own
/// worker. It keeps its place in the queue and, for a cell, goes stale with its cell, like any task; until its
/// work comes it is passed over, and a queue with nothing else to do lets the run loop sleep. Made by
/// ``IdleQueue/addLaterTask(for:at:key:droppable:estimatedCost:onDisplayChange:onAbandon:)`` or
/// ``IdleQueue/addLaterTask(key:droppable:estimatedCost:onAbandon:)``.
///
/// ```swift
/// let task = queue.addLaterTask(for: cell, at: indexPath)
/// loader.load(url) { image in                       // any thread
///   task.fulfill { cell in cell.photoView.image = image }   // runs in a pass, if the cell still shows the row
/// }
/// ```
///
/// It counts as one task in ``IdleQueue/Statistics-swift.struct``: added when queued; executed when its work ran;
/// skipped as stale, evicted or cancelled as any task, whether or not its work had come; pending while it waits.
/// Work that comes after the task left — stale, evicted, cancelled, or its queue ended — is released on the main
/// thread and counts nothing more. Work that never comes leaves the task pending until one of those happens.
public struct LaterTask<Cell>: Sendable {
  let handover: AwaitedWork<Cell>.Handover
  /// The task, to ask whether it is still pending or to cancel it (its work, come or not, is then released). A task the
  /// queue did not keep is not pending.
  public let handle: IdleTaskHandle

  /// The task `handle` refers to. One the queue did not keep (it had ended, or was full of tasks that go first) has
  /// left already: work handed over is only released, and `onAbandon` was called (now, if the queue had ended).
  @MainActor
  init(_ awaited: AwaitedWork<Cell>, _ handle: IdleTaskHandle) {
    if !handle.isPending { awaited.left(.cancelled) }
    handover = awaited.handover
    self.handle = handle
  }

  /// Hands the task its work, from any thread: it runs in a later pass on the main thread, given the cell, if the
  /// task is still pending and (for a cell) the cell still shows this configuration. Call it once: a second call
  /// stops the program.
  public func fulfill(_ work: consuming @escaping @MainActor @Sendable (Cell) -> Void) {
    handover.fulfill(AwaitedWork<Cell>.Work(run: consume work))
  }
}

extension IdleQueue {
  /// Queues a task for `cell` whose work comes later, from any thread (``LaterTask/fulfill(_:)``): it keeps its place,
  /// and runs in a pass once its work came, if the cell still shows this configuration of `item`.
  ///
  /// ```swift
  /// let task = queue.addLaterTask(
  ///   for: cell, at: indexPath,
  ///   onDisplayChange: { isDisplayed in download.priority = isDisplayed ? .high : .low },
  ///   onAbandon: { download.cancel() })
  /// ```
  ///
  /// - Parameters:
  ///   - cell: the cell the work is given.
  ///   - item: what the cell shows (see ``bind(_:to:)``).
  ///   - key: groups tasks for ``cancelTasks(forKey:)``; `nil` (default) uses `item`.
  ///   - droppable: as in ``addTask(key:droppable:replacesPending:estimatedCost:_:)``.
  ///   - estimatedCost: seconds the work takes, if you know better than the queue's prediction.
  ///   - onDisplayChange: called on the main thread when the cell goes off screen (`false`,
  ///     ``cellDidEndDisplaying(_:at:)``) or comes back (`true`, ``cellWillDisplay(_:at:)``) while the task waits;
  ///     at once, with `false`, if the cell is off screen when the task is added.
  ///   - onAbandon: called once, on the main thread, if the task leaves without running: its cell was configured
  ///     again (at once, inside ``bind(_:to:)``), it was evicted or cancelled, or its queue ended. Stop the loader
  ///     here.
  /// - Returns: the task, to hand its work to (from any thread), or cancel through its ``LaterTask/handle``.
  public func addLaterTask<Cell: AnyObject>(
    for cell: Cell, at item: some Hashable, key: AnyHashable? = nil, droppable: Bool = false,
    estimatedCost: TimeInterval? = nil, onDisplayChange: (@MainActor (_ isDisplayed: Bool) -> Void)? = nil,
    onAbandon: (@MainActor () -> Void)? = nil
  ) -> LaterTask<Cell> {
    let cost = estimatedCost == nil ? nil : Validation.estimatedCost(estimatedCost)
    let binding = core.cells.configuration(of: cell, for: item)
    let awaited = AwaitedWork<Cell>(
      inbox: core.inbox, cell: { $0 as! Cell }, onDisplayChange: onDisplayChange, onAbandon: onAbandon)
    let handle = core.enqueue(
      key: key.map { TaskKey($0) } ?? binding.record.item,
      QueuedTask(work: .later(awaited), binding: binding, estimatedCost: cost), discardable: droppable)
    // Told of its cell while it waits (unless a callback configured the cell again meanwhile: it is stale then).
    if handle.isPending, binding.state != .stale {
      awaited.queue = core
      awaited.seq = handle.seq
      awaited.record = binding.record
      binding.record.addLaterTask(awaited)
      if !binding.record.isDisplayed { onDisplayChange?(false) }
    }
    return LaterTask(awaited, handle)
  }

  /// Queues a task whose work comes later, from any thread (``LaterTask/fulfill(_:)``): the form without a cell.
  ///
  /// - Parameters:
  ///   - key: groups tasks for ``cancelTasks(forKey:)``.
  ///   - droppable: as in ``addTask(key:droppable:replacesPending:estimatedCost:_:)``.
  ///   - estimatedCost: seconds the work takes, if you know better than the queue's prediction.
  ///   - onAbandon: called once, on the main thread, if the task leaves without running: it was evicted or
  ///     cancelled, or its queue ended.
  /// - Returns: the task, to hand its work to (from any thread), or cancel through its ``LaterTask/handle``.
  public func addLaterTask(
    key: some Hashable, droppable: Bool = false, estimatedCost: TimeInterval? = nil,
    onAbandon: (@MainActor () -> Void)? = nil
  ) -> LaterTask<Void> {
    let cost = estimatedCost == nil ? nil : Validation.estimatedCost(estimatedCost)
    let awaited = AwaitedWork<Void>(inbox: core.inbox, cell: { _ in () }, onAbandon: onAbandon)
    let handle = core.enqueue(
      key: TaskKey(key), QueuedTask(work: .later(awaited), estimatedCost: cost), discardable: droppable)
    return LaterTask(awaited, handle)
  }
}
