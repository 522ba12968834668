import Foundation

/// Tasks handed over by other threads, waiting for the main thread's next pass to take them in.
///
/// The only state in IdleWork touched off the main thread; a lock guards it. The first addition after
/// each drain wakes the run loop, so a burst from many threads costs one wake-up.
final class BackgroundInbox: @unchecked Sendable {
  struct Item {
    let key: AnyHashable
    let task: @Sendable @MainActor () -> Void
  }

  private let lock = NSLock()
  private var items: [Item] = []
  private var closed = false
  private let wake: @Sendable () -> Void

  init(wake: @escaping @Sendable () -> Void) {
    self.wake = wake
  }

  /// Adds an item and wakes the run loop if it is the first since the last drain.
  /// Returns `false` (and drops the item) once the inbox is closed.
  func add(_ item: Item) -> Bool {
    lock.lock()
    guard !closed else {
      lock.unlock()
      return false
    }
    items.append(item)
    let first = items.count == 1
    lock.unlock()
    if first { wake() }
    return true
  }

  /// Takes every waiting item, oldest first.
  func drain() -> [Item] {
    lock.lock()
    defer { lock.unlock() }
    let taken = items
    items = []
    return taken
  }

  /// Items waiting now.
  var count: Int {
    lock.lock()
    defer { lock.unlock() }
    return items.count
  }

  /// Refuses further items and returns the ones still waiting.
  func close() -> [Item] {
    lock.lock()
    defer { lock.unlock() }
    closed = true
    let taken = items
    items = []
    return taken
  }
}
