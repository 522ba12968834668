import Foundation

/// Every live queue by its number: how a task handle finds its queue.
///
/// A handle stores its queue's number, not a reference: `addTask` returns a handle every time, and a
/// reference in it (a retain on return, a release when the caller drops it) cost a quarter of the call
/// (the key form 43 -> 33 ns in AddTaskCost). Looking a queue up costs a lock and a dictionary read, paid
/// only by a handle's `cancel()` and `isPending`.
final class QueueDirectory: @unchecked Sendable {
  // @unchecked Sendable: `queues` and `lastNumber` are read and written only while `lock` is held.

  /// The directory of the process.
  static let shared = QueueDirectory()

  private struct Entry {
    weak var queue: QueueCore?
  }

  private let lock = NSLock()
  private var queues: [Int: Entry] = [:]
  private var lastNumber = 0

  /// A number no queue had before (never 0, which handles use for "no queue").
  func newNumber() -> Int {
    lock.lock()
    defer { lock.unlock() }
    lastNumber += 1
    return lastNumber
  }

  /// Lists `queue` under `number` (from `newNumber()`); callable from any thread.
  func register(_ queue: QueueCore, as number: Int) {
    lock.lock()
    defer { lock.unlock() }
    queues[number] = Entry(queue: queue)
  }

  /// Forgets the queue listed under `number` (when it is freed, on any thread).
  func remove(_ number: Int) {
    lock.lock()
    defer { lock.unlock() }
    queues[number] = nil
  }

  /// The queue listed under `number`, if it is still alive.
  func queue(_ number: Int) -> QueueCore? {
    lock.lock()
    defer { lock.unlock() }
    return queues[number]?.queue
  }

  /// Whether a queue is listed under `number` (for tests: a freed queue's entry goes with it).
  func contains(_ number: Int) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    return queues[number] != nil
  }
}
