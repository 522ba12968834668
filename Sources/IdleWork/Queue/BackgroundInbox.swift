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
/// Dropped items are counted and reported at the next drain, so the queue accounts for them as evicted,
/// and are kept until then so that they are released on the main thread: a `@Sendable` task may hold the
/// last reference to a main-actor object (a view), whose deinit must not run on the adding thread.
final class BackgroundInbox: @unchecked Sendable {
  struct Item {
    let key: TaskKey
    let task: @Sendable @MainActor () -> Void
  }

  private let lock = NSLock()
  private var items: [Item] = []
  private var dropped: [Item] = []
  private var limit: Int
  private var closed = false
  private var needsWake = true
  private let wake: @Sendable () -> Void

  init(limit: Int, wake: @escaping @Sendable () -> Void) {
    self.limit = limit
    self.wake = wake
  }

  /// Adds an item, dropping the oldest beyond the limit, and wakes the run loop if it is the first
  /// addition since the last drain. Returns `false` (and drops the item) once the inbox is closed.
  func add(_ item: Item) -> Bool {
    lock.lock()
    guard !closed else {
      lock.unlock()
      return false
    }
    items.append(item)
    trimLocked()
    let first = needsWake
    needsWake = false
    lock.unlock()
    if first { wake() }
    return true
  }

  /// Changes the limit (the queue's `maximumQueueLength`), dropping the oldest items beyond it.
  func setLimit(_ newLimit: Int) {
    lock.lock()
    limit = newLimit
    trimLocked()
    lock.unlock()
  }

  /// Takes every waiting item, oldest first, and those dropped since the last drain (to be released on
  /// the main thread and counted as evicted).
  func drain() -> (items: [Item], dropped: [Item]) {
    lock.lock()
    defer { lock.unlock() }
    return takeLocked()
  }

  /// Whether a drain has anything to take: items waiting, or dropped ones to account for and release.
  var needsDrain: Bool {
    lock.lock()
    defer { lock.unlock() }
    return !items.isEmpty || !dropped.isEmpty
  }

  /// Items waiting now.
  var count: Int {
    lock.lock()
    defer { lock.unlock() }
    return items.count
  }

  /// Refuses further items and returns the ones still waiting and the number dropped.
  func close() -> (items: [Item], dropped: [Item]) {
    lock.lock()
    defer { lock.unlock() }
    closed = true
    return takeLocked()
  }

  private func takeLocked() -> (items: [Item], dropped: [Item]) {
    let taken = (items, dropped)
    items = []
    dropped = []
    needsWake = true
    return taken
  }

  private func trimLocked() {
    guard items.count > limit else { return }
    let excess = items.count - limit
    dropped.append(contentsOf: items.prefix(excess))
    items.removeFirst(excess)
  }
}
