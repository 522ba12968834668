import Foundation

/// Tasks handed over by other threads, waiting for the main thread's next pass to take them in.
///
/// The only state in IdleWork touched off the main thread; a lock guards it. The first addition after
/// each drain wakes the run loop, so a burst from many threads costs one wake-up.
///
/// It keeps at most `maximumQueueLength` items, dropping the oldest — those the queue would evict anyway — so a
/// flood can neither grow memory nor stall the main thread. Drops are counted as evicted at the next drain, and
/// their closures released on the main thread (through the main queue, served in every mode): a task may hold
/// the last reference to a main-actor object, whose deinit must not run on the adding thread.
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
  /// Whether a later task's work was handed over since the last drain (``noteWorkArrived()``).
  private var workArrived = false
  /// Whether the pass is taking in its client's results (``takingIn(_:)``): work handed over meanwhile runs in this
  /// pass, so it wakes nothing; `arrivedWhileTakingIn` says it came.
  private var isTakingIn = false
  private var arrivedWhileTakingIn = false
  private let wake: @Sendable () -> Void

  init(limit: Int, wake: @escaping @Sendable () -> Void) {
    self.limit = limit
    self.wake = wake
  }

  /// Adds an item, dropping the oldest beyond the limit, and wakes the run loop on the first addition since the
  /// last drain. Returns `false`, dropping the item, once the inbox is closed.
  ///
  /// The item is consumed all the way from ``IdleQueue/addTaskFromAnyThread(key:_:)``, so the caller never holds
  /// the closure's last reference and frees it on the adding thread.
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

  /// A later task's work was handed over: the next drain says so, and the first since the last drain wakes the run
  /// loop, so that a pass runs it.
  func noteWorkArrived() {
    lock.lock()
    guard !closed else {
      lock.unlock()
      return
    }
    if isTakingIn {
      arrivedWhileTakingIn = true
      lock.unlock()
      return
    }
    workArrived = true
    let first = needsWake
    needsWake = false
    lock.unlock()
    if first { wake() }
  }

  /// Runs `body` (a pass taking its client's results in, on the main thread); returns whether a later task's work was
  /// handed over meanwhile, which the pass then runs without being woken for it again.
  func takingIn(_ body: () -> Void) -> Bool {
    lock.withLock { isTakingIn = true }
    body()
    return lock.withLock {
      isTakingIn = false
      defer { arrivedWhileTakingIn = false }
      return arrivedWhileTakingIn
    }
  }

  /// Changes the limit (the queue's `maximumQueueLength`), dropping the oldest items beyond it.
  func setLimit(_ newLimit: Int) {
    lock.lock()
    limit = newLimit
    let excess = trimLocked()
    lock.unlock()
    release(excess)
  }

  /// Takes every waiting item, oldest first, and the number dropped since the last drain; `nil` once the inbox
  /// refuses items (what is left is for ``close()``).
  func drain() -> (items: [Item], dropped: Int, workArrived: Bool)? {
    lock.lock()
    defer { lock.unlock() }
    return closed ? nil : takeLocked()
  }

  /// Whether a drain has anything to take: items waiting, or dropped ones to account for.
  var needsDrain: Bool {
    lock.lock()
    defer { lock.unlock() }
    return !items.isEmpty || droppedCount > 0 || workArrived
  }

  /// Dropped items not yet released on the main queue.
  var awaitingReleaseCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return awaitingRelease.count
  }

  var count: Int {
    lock.lock()
    defer { lock.unlock() }
    return items.count
  }

  /// Refuses further items, keeping those waiting for ``close()`` on the main thread, so no addition racing an
  /// off-main invalidation is accepted. Returns whether this call closed the inbox.
  func refuse() -> Bool {
    lock.lock()
    defer { lock.unlock() }
    guard !closed else { return false }
    closed = true
    return true
  }

  /// Whether items are refused.
  var isClosed: Bool {
    lock.lock()
    defer { lock.unlock() }
    return closed
  }

  /// Refuses further items and returns the ones still waiting and the number dropped.
  func close() -> (items: [Item], dropped: Int, workArrived: Bool) {
    lock.lock()
    defer { lock.unlock() }
    closed = true
    return takeLocked()
  }

  private func takeLocked() -> (items: [Item], dropped: Int, workArrived: Bool) {
    let taken = (items, droppedCount, workArrived)
    items = []
    droppedCount = 0
    workArrived = false
    needsWake = true
    return taken
  }

  /// Removes and drops the oldest items beyond the limit, counting them.
  private func trimLocked() -> Dropped {
    guard items.count > limit else { return Dropped() }
    let excess = items.count - limit
    droppedCount += excess
    defer { items.removeFirst(excess) }
    return dropLocked(Array(items.prefix(excess)))
  }

  /// Items dropped under the lock, for ``release(_:)`` once it is released.
  private struct Dropped {
    /// Dropped on the main thread: freed when this goes, after the lock is released (captures may call back in).
    var freeHere: [Item] = []
    /// Whether a main-queue block must be sent to release ``awaitingRelease``.
    var schedule = false
  }

  /// Drops `dropped` so they are released on the main thread. Off it they join ``awaitingRelease`` with the lock
  /// held, and this thread's references go before the lock is released, so none outlasts the main-queue block's
  /// (which takes the lock): the last reference is always released on the main thread.
  private func dropLocked(_ dropped: [Item]) -> Dropped {
    guard !dropped.isEmpty, !Thread.isMainThread else { return Dropped(freeHere: dropped) }
    awaitingRelease.append(contentsOf: dropped)
    let schedule = !releaseScheduled
    releaseScheduled = true
    return Dropped(schedule: schedule)
  }

  /// Sends the block that releases dropped items on the main thread, if ``dropLocked(_:)`` asked for it.
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
