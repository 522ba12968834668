import Foundation

/// A value shared with another thread under a lock.
package final class LockedBox<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value
  package init(_ value: Value) { stored = value }
  package var value: Value {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
  /// Changes the value in one locked step (a get then a set could interleave with another thread's).
  package func update(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }
}

/// A counter any thread may bump.
package final class Counter: @unchecked Sendable {  // guarded by `lock`
  package init() {}
  private let lock = NSLock()
  private var count = 0
  package func increment() { lock.withLock { count += 1 } }
  package func decrement() { lock.withLock { count -= 1 } }
  package var value: Int { lock.withLock { count } }
}

/// Lines any thread may append to.
package final class TextLog: @unchecked Sendable {  // guarded by `lock`
  package init() {}
  private let lock = NSLock()
  private var lines: [String] = []
  package func append(_ line: String) { lock.withLock { lines.append(line) } }
  package var entries: [String] { lock.withLock { lines } }
}

/// A log any thread may append to.
package final class Log: @unchecked Sendable {  // guarded by `lock`
  package init() {}
  private let lock = NSLock()
  private var items: [Int] = []
  package func append(_ value: Int) { lock.withLock { items.append(value) } }
  package var values: [Int] { lock.withLock { items } }
}
