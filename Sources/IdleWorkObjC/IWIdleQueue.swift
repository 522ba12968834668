#if canImport(ObjectiveC)
  import Foundation
  import IdleWork
  import IdleWorkPreparation

  /// `IdleQueue` for Objective-C: the same queue, its calls forwarded with Objective-C types (blocks, `NSIndexPath`,
  /// object keys). Use it on the main thread, except `-addTaskFromAnyThreadWithKey:block:` and `-invalidate`.
  ///
  /// Keys are objects compared with `isEqual:` and `hash` (`NSString`, `NSNumber`, `NSIndexPath`, your own): an
  /// `NSIndexPath` key is the `IndexPath` a cell task has by default, an `NSString` key equals Swift's `String` key.
  @objc(IWIdleQueue)
  @MainActor
  public final class IWIdleQueue: NSObject {
    /// The queue this one forwards to.
    let queue: IdleQueue

    nonisolated init(_ queue: IdleQueue) {
      self.queue = queue
      super.init()
    }

    /// The queue the whole app shares (`IdleQueue.main`): one task per pass, nothing while a scroll is tracked.
    @objc(sharedQueue)
    public nonisolated static let shared = IWIdleQueue(IdleQueue.main)

    /// A queue of one's own with the setting for a scrolling feed (`Configuration.scrollingFeed()`, recommended):
    /// passes fitted to frames, during scrolls too; 128 tasks kept; prepared results cached up to 32 MB.
    @objc public nonisolated static func scrollingFeedQueue() -> IWIdleQueue {
      IWIdleQueue(IdleQueue(configuration: .scrollingFeed()))
    }

    /// A queue of one's own with the default configuration (as `sharedQueue`).
    @objc public nonisolated override convenience init() {
      self.init(IdleQueue())
    }

    /// A queue of one's own with the default configuration but `maximumQueueLength` tasks kept (`0...NSIntegerMax`).
    @objc public nonisolated convenience init(maximumQueueLength: Int) {
      self.init(IdleQueue(configuration: IdleQueue.Configuration(maximumQueueLength: maximumQueueLength)))
    }

    /// What the queue has done so far.
    @objc public var statistics: IWStatistics { IWStatistics(queue.statistics) }

    // MARK: Keyed tasks

    /// Queues `block` to run on the main thread in a later pass; `key` groups tasks for `-cancelTasksForKey:`.
    @objc(addTaskWithKey:block:)
    @discardableResult
    public func addTask(key: NSObject, block: @escaping () -> Void) -> IWTaskHandle {
      IWTaskHandle(queue.addTask(key: objCKey(key)) { block() })
    }

    /// Queues `block` as `-addTaskWithKey:block:` does: a droppable task goes first when the queue is full or
    /// memory is short; with `replacesPending` the pending tasks with `key` are cancelled and `block` goes last.
    @objc(addTaskWithKey:droppable:replacesPending:block:)
    @discardableResult
    public func addTask(
      key: NSObject, droppable: Bool, replacesPending: Bool, block: @escaping () -> Void
    ) -> IWTaskHandle {
      IWTaskHandle(
        queue.addTask(key: objCKey(key), droppable: droppable, replacesPending: replacesPending) { block() })
    }

    /// Queues `block` from any thread; it runs on the main thread. Returns `NO` once the queue is invalidated.
    /// `block` is called on the main thread only.
    @objc(addTaskFromAnyThreadWithKey:block:)
    @discardableResult
    public nonisolated func addTaskFromAnyThread(key: NSObject, block: @escaping () -> Void) -> Bool {
      let block = UncheckedSendable(block)
      return queue.addTaskFromAnyThread(key: objCKey(key)) { block.value() }
    }

    /// Queues work that runs a slice per pass until `slice` returns `YES` (done). `timeRemaining()` gives the
    /// seconds the slice may still spend (0: do one small step); call it only during the slice.
    @objc(addResumableTaskWithKey:slice:)
    @discardableResult
    public func addResumableTask(
      key: NSObject, slice: @escaping (_ timeRemaining: @escaping () -> TimeInterval) -> Bool
    ) -> IWTaskHandle {
      IWTaskHandle(
        queue.addResumableTask(key: objCKey(key)) { timeRemaining in
          withoutActuallyEscaping(timeRemaining) { slice($0) }
        })
    }

    // MARK: Cells

    /// Call at the top of `-tableView:cellForRowAtIndexPath:` for every row: the cell's earlier tasks are stale.
    @objc(bindCell:toIndexPath:)
    public func bind(_ cell: AnyObject, to indexPath: IndexPath) {
      queue.bind(cell, to: indexPath)
    }

    /// Call from `-tableView:willDisplayCell:forRowAtIndexPath:`: the cell's waiting tasks may run again.
    @objc(cellWillDisplay:atIndexPath:)
    public func cellWillDisplay(_ cell: AnyObject, at indexPath: IndexPath) {
      queue.cellWillDisplay(cell, at: indexPath)
    }

    /// Call from `-tableView:didEndDisplayingCell:forRowAtIndexPath:`: the cell's tasks wait while it is off screen.
    @objc(cellDidEndDisplaying:atIndexPath:)
    public func cellDidEndDisplaying(_ cell: AnyObject, at indexPath: IndexPath) {
      queue.cellDidEndDisplaying(cell, at: indexPath)
    }

    /// Queues `block` for `cell`, run with the cell only while it still shows `indexPath`; its key is `indexPath`.
    /// The queue holds the cell weakly.
    @objc(addTaskForCell:atIndexPath:block:)
    @discardableResult
    public func addTask(
      for cell: AnyObject, at indexPath: IndexPath, block: @escaping (_ cell: AnyObject) -> Void
    ) -> IWTaskHandle {
      IWTaskHandle(queue.addTask(for: cell, at: indexPath) { block($0) })
    }

    /// Queues `block` as `-addTaskForCell:atIndexPath:block:` does, with a key of its own (`nil`: `indexPath`) and
    /// a priority.
    @objc(addTaskForCell:atIndexPath:key:droppable:block:)
    @discardableResult
    public func addTask(
      for cell: AnyObject, at indexPath: IndexPath, key: NSObject?, droppable: Bool,
      block: @escaping (_ cell: AnyObject) -> Void
    ) -> IWTaskHandle {
      IWTaskHandle(
        queue.addTask(for: cell, at: indexPath, key: key.map { AnyHashable(objCKey($0)) }, droppable: droppable) {
          block($0)
        })
    }

    /// Queues resumable work for `cell`, a slice per pass while the cell shows `indexPath`, until `slice` returns
    /// `YES`.
    @objc(addResumableTaskForCell:atIndexPath:slice:)
    @discardableResult
    public func addResumableTask(
      for cell: AnyObject, at indexPath: IndexPath,
      slice: @escaping (_ cell: AnyObject, _ timeRemaining: @escaping () -> TimeInterval) -> Bool
    ) -> IWTaskHandle {
      IWTaskHandle(
        queue.addResumableTask(for: cell, at: indexPath) { cell, timeRemaining in
          withoutActuallyEscaping(timeRemaining) { slice(cell, $0) }
        })
    }

    // MARK: Cancelling

    /// Cancels every pending task with `key` (a cell task's default key is its index path); returns how many.
    @objc(cancelTasksForKey:)
    @discardableResult
    public func cancelTasks(forKey key: NSObject) -> Int {
      queue.cancelTasks(forKey: objCKey(key))
    }

    /// Cancels every pending task and prefetch.
    @objc public func cancelAllTasks() {
      queue.cancelAllTasks()
    }

    /// Ends a queue of one's own (from any thread): pending tasks are cancelled, later ones ignored. Not for
    /// `sharedQueue`.
    @objc public nonisolated func invalidate() {
      queue.invalidate()
    }
  }

  /// An Objective-C key as the Swift API's: an `NSIndexPath` as `IndexPath`, an `NSString` as `String` (the keys
  /// cell tasks and Swift code use), any other object as itself, compared with `isEqual:` and `hash`.
  func objCKey(_ key: NSObject) -> any Hashable & Sendable {
    if let indexPath = key as? IndexPath { return indexPath }
    if let string = key as? String { return string }
    return ObjectKey(object: key)
  }

  /// An object key. `@unchecked Sendable`: a key is only hashed and compared, and the caller promises it is not
  /// mutated once passed (as the Swift API requires a `Sendable` key).
  struct ObjectKey: Hashable, @unchecked Sendable {
    let object: NSObject
  }

  /// A value that crosses threads. `@unchecked Sendable`: the caller promises the Objective-C block or object is
  /// safe where the queue uses it (as the Swift API requires a `@Sendable` closure or `Sendable` value).
  struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
  }
#endif
