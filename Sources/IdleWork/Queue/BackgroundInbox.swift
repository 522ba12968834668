import Foundation

/// Tasks handed over by other threads, waiting for the main thread's next pass to take them in.
///
/// The only state in IdleWork touched off the main thread; a lock guards it. The first addition after
/// each drain wakes the run loop, so a burst from many threads costs one wake-up.
///
/// **Bounded.** It keeps at most the queue's `maximumQueueLength` items, dropping the oldest: those are
/// exactly the tasks the queue would evict when taking the inbox in (background tasks are never stale, so
/// only the newest `maximumQueueLength` of them can survive), so the outcome is the same — but a flood from
/// other threads can neither grow memory without bound nor stall the main thread taking in a backlog.
/// Dropped items are counted and reported at the next drain, so the queue accounts for them as evicted.
/// Their closures are released promptly on the main thread — at once when the drop happens there, else
/// through the main queue, which the main run loop serves in every mode, so they do not pile up during a
/// scroll when no idle pass comes: a `@Sendable` task may hold the last reference to a main-actor object
/// (a view), whose deinit must not run on the adding thread.
final class BackgroundInbox: @unchecked Sendable {
  struct Item {
    let key: TaskKey
    let task: @Sendable @MainActor () -> Void
  }

  private let lock = NSLock()
  private var items: [Item] = []
  /// Items dropped since the last drain, to be counted as evicted then.
  private var droppedCount = 0
  /// Dropped items waiting for the main thread to release them; one main-queue block is scheduled at a time.
  private var awaitingRelease: [Item] = []
  private var releaseScheduled = false
  private var limit: Int
  private var closed = false
  private var needsWake = true
  private let wake: @Sendable () -> Void

  init(limit: Int, wake: @escaping @Sendable () -> Void) {
    self.limit = limit
    self.wake = wake
  }

  /// Adds an item, dropping the oldest beyond the limit, and wakes the run loop if it is the first
  /// addition since the last drain. Returns `false` (and drops the item, releasing it on the main thread
  /// as dropped items are) once the inbox is closed.
  ///
  /// The item is taken, not borrowed, all the way from ``IdleQueue/addTaskFromAnyThread(key:_:)``: a caller
  /// that kept its own reference to the closure until the call returned could otherwise hold the last one,
  /// and free the closure on the adding thread, when a pass ran the task on the main thread in between.
  func add(_ item: consuming Item) -> Bool {
    lock.lock()
    guard !closed else {
      let refused = dropLocked([item])
      lock.unlock()
      release(refused)
      return false
    }
    items.append(item)
    let excess = trimLocked()
    let first = needsWake
    needsWake = false
    lock.unlock()
    release(excess)
    if first { wake() }
    return true
  }

  /// Changes the limit (the queue's `maximumQueueLength`), dropping the oldest items beyond it.
  func setLimit(_ newLimit: Int) {
    lock.lock()
    limit = newLimit
    let excess = trimLocked()
    lock.unlock()
    release(excess)
  }

  /// Takes every waiting item, oldest first, and the number dropped since the last drain (to be counted as
  /// evicted); `nil` once the inbox refuses items (what is left is for ``close()``).
  func drain() -> (items: [Item], dropped: Int)? {
    lock.lock()
    defer { lock.unlock() }
    return closed ? nil : takeLocked()
  }

  /// Whether a drain has anything to take: items waiting, or dropped ones to account for.
  var needsDrain: Bool {
    lock.lock()
    defer { lock.unlock() }
    return !items.isEmpty || droppedCount > 0
  }

  /// Dropped items not yet released (the main queue has not come round since they were dropped).
  var awaitingReleaseCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return awaitingRelease.count
  }

  /// Items waiting now.
  var count: Int {
    lock.lock()
    defer { lock.unlock() }
    return items.count
  }

  /// Refuses further items, keeping the ones waiting for ``close()`` on the main thread: what a queue
  /// invalidated off the main thread does at once, so that no addition racing it is accepted after it.
  /// Returns whether this call closed the inbox (`false`: it was closed already).
  func refuse() -> Bool {
    lock.lock()
    defer { lock.unlock() }
    guard !closed else { return false }
    closed = true
    return true
  }

  /// Whether items are refused (``refuse()`` or ``close()`` was called).
  var isClosed: Bool {
    lock.lock()
    defer { lock.unlock() }
    return closed
  }

  /// Refuses further items and returns the ones still waiting and the number dropped.
  func close() -> (items: [Item], dropped: Int) {
    lock.lock()
    defer { lock.unlock() }
    closed = true
    return takeLocked()
  }

  private func takeLocked() -> (items: [Item], dropped: Int) {
    let taken = (items, droppedCount)
    items = []
    droppedCount = 0
    needsWake = true
    return taken
  }

  /// Removes the oldest items beyond the limit, counting them as dropped, and drops them (``dropLocked(_:)``).
  private func trimLocked() -> Dropped {
    guard items.count > limit else { return Dropped() }
    let excess = items.count - limit
    droppedCount += excess
    defer { items.removeFirst(excess) }
    return dropLocked(Array(items.prefix(excess)))
  }

  /// Items dropped under the lock, for ``release(_:)`` once it is released.
  private struct Dropped {
    /// Dropped on the main thread: freed when this goes, after the lock is released (a closure's captures
    /// may call back into the queue).
    var freeHere: [Item] = []
    /// Whether a main-queue block must be sent to release ``awaitingRelease``.
    var schedule = false
  }

  /// Drops `dropped` so that they are released on the main thread. Off it they join ``awaitingRelease`` while
  /// the lock is held, and every reference this thread had goes before the lock is released: none can
  /// outlast the main-queue block's, which takes the lock (the last reference to a closure, and so what it
  /// captures, is always released on the main thread).
  private func dropLocked(_ dropped: [Item]) -> Dropped {
    guard !dropped.isEmpty, !Thread.isMainThread else { return Dropped(freeHere: dropped) }
    awaitingRelease.append(contentsOf: dropped)
    let schedule = !releaseScheduled
    releaseScheduled = true
    return Dropped(schedule: schedule)
  }

  /// Sends the block that releases dropped items on the main thread, if ``dropLocked(_:)`` asked for it; one
  /// block takes every item dropped until it runs. Items dropped on the main thread go with `dropped`.
  private func release(_ dropped: Dropped) {
    guard dropped.schedule else { return }
    DispatchQueue.main.async { [self] in
      lock.lock()
      let released = awaitingRelease
      awaitingRelease = []
      releaseScheduled = false
      lock.unlock()
      withExtendedLifetime(released) {}
    }
  }
}
