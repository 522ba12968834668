import CoreFoundation
import Foundation

/// A counter bumped to cancel: a draw captures its value when it starts and is cancelled once the value
/// moved. YYAsyncLayer's `YYSentinel` (`OSAtomicIncrement32`) and Texture's `_displaySentinel`
/// (`std::atomic_uint`) — read by worker threads, bumped on the main thread.
final class Sentinel: @unchecked Sendable {
  // @unchecked Sendable: `storage` is read and written only while holding `lock`.
  private let lock = NSLock()
  private var storage: Int32 = 0

  /// Creates a sentinel at 0.
  init() {}

  /// The current value.
  var value: Int32 {
    lock.lock()
    defer { lock.unlock() }
    return storage
  }

  /// Bumps the value (wrapping, as `OSAtomicIncrement32` does) and returns the new one.
  @discardableResult
  func increase() -> Int32 {
    lock.lock()
    defer { lock.unlock() }
    storage &+= 1
    return storage
  }
}

/// A value shared between the main thread and workers behind a lock (an `atomic` Objective-C property, or a
/// view's property a worker reads while drawing).
final class Locked<Value: Sendable>: @unchecked Sendable {
  // @unchecked Sendable: `storage` is read and written only while holding `lock`, and `Value` is Sendable.
  private let lock = NSLock()
  private var storage: Value

  /// Creates the box holding `value`.
  init(_ value: Value) { storage = value }

  /// The value now.
  var value: Value {
    get {
      lock.lock()
      defer { lock.unlock() }
      return storage
    }
    set {
      lock.lock()
      storage = newValue
      lock.unlock()
    }
  }

  /// Changes the value under the lock and returns what `body` returns.
  func withValue<T>(_ body: (inout Value) -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    return body(&storage)
  }
}

/// A run-loop observer on the main loop at `kCFRunLoopBeforeWaiting | kCFRunLoopExit`, repeating, with
/// `order`, in the common modes — the shape YYTransaction, AsyncDraw's `ADManager` and Texture's
/// `_ASAsyncTransactionGroup` all use.
@MainActor
enum LateObserver {
  /// Adds the observer; `callback` runs on the main thread.
  static func add(order: Int, _ callback: @escaping @MainActor () -> Void) -> CFRunLoopObserver {
    let activities = CFRunLoopActivity.beforeWaiting.rawValue | CFRunLoopActivity.exit.rawValue
    let observer = CFRunLoopObserverCreateWithHandler(nil, activities, true, CFIndex(order)) { _, _ in
      MainActor.assumeIsolated { callback() }
    }!
    CFRunLoopAddObserver(CFRunLoopGetMain(), observer, kCFRunLoopCommonModes)
    return observer
  }
}
