import Foundation

/// A value shared with another thread under a lock.
final class LockedBox<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value
  init(_ value: Value) { stored = value }
  var value: Value {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
  /// Changes the value in one locked step (a get then a set could interleave with another thread's).
  func update(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }
}

/// A counter any thread may bump.
final class Counter: @unchecked Sendable {  // guarded by `lock`
  private let lock = NSLock()
  private var count = 0
  func increment() { lock.withLock { count += 1 } }
  func decrement() { lock.withLock { count -= 1 } }
  var value: Int { lock.withLock { count } }
}

/// Lines any thread may append to.
final class TextLog: @unchecked Sendable {  // guarded by `lock`
  private let lock = NSLock()
  private var lines: [String] = []
  func append(_ line: String) { lock.withLock { lines.append(line) } }
  var entries: [String] { lock.withLock { lines } }
}

/// A log any thread may append to.
final class Log: @unchecked Sendable {  // guarded by `lock`
  private let lock = NSLock()
  private var items: [Int] = []
  func append(_ value: Int) { lock.withLock { items.append(value) } }
  var values: [Int] { lock.withLock { items } }
}
