import Foundation

/// Records which task closures are still alive: each closure captures a ``LifetimeToken``, whose deinit
/// removes its id. A test compares the live ids with the tasks that should still be held, so a closure that
/// outlives its fate (run, skipped, evicted, cancelled, dropped) is caught at the operation that leaked it.
///
/// Thread-safe: closures added through `addTaskFromAnyThread` are created on other threads.
package final class LifetimeRegistry: @unchecked Sendable {
  private let lock = NSLock()
  private var live: Set<Int> = []
  private var created = 0

  package init() {}

  /// A token for `id`; `id` is live until the token is freed.
  package func token(_ id: Int) -> LifetimeToken {
    lock.lock()
    live.insert(id)
    created += 1
    lock.unlock()
    return LifetimeToken(id: id, registry: self)
  }

  /// The ids whose tokens are alive.
  package var liveIDs: Set<Int> {
    lock.lock()
    defer { lock.unlock() }
    return live
  }

  /// How many tokens are alive.
  package var liveCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return live.count
  }

  /// How many tokens were ever created.
  package var createdCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return created
  }

  fileprivate func remove(_ id: Int) {
    lock.lock()
    live.remove(id)
    lock.unlock()
  }
}

/// Captured by one task closure; its deinit tells the ``LifetimeRegistry`` the closure was released.
package final class LifetimeToken: Sendable {
  package let id: Int
  package let registry: LifetimeRegistry

  fileprivate init(id: Int, registry: LifetimeRegistry) {
    self.id = id
    self.registry = registry
  }

  deinit { registry.remove(id) }
}
