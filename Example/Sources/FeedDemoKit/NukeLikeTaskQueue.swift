import Dispatch

/// Nuke's request priorities (kean/Nuke `ImageRequest.Priority`, `Tasks/AsyncTask.swift`'s `TaskPriority`): a
/// pipeline task runs at the highest of its subscribers'. Display requests are `.normal` (Nuke's default), the
/// prefetcher's `.low` (`ImagePrefetcher.priority`'s default).
enum NukePriority: Int, Comparable, CaseIterable, Sendable {
  case veryLow, low, normal, high, veryHigh

  static func < (a: NukePriority, b: NukePriority) -> Bool { a.rawValue < b.rawValue }

  /// The QoS a draw started at this priority runs at: display requests at `userInitiated` (the visible work of
  /// every background strategy here), prefetches at `utility` (as IdleWork's prefetches). Nuke sets no QoS of its
  /// own — its work runs in Swift tasks at the priority they inherit — so this mapping is the model's.
  var qos: DispatchQoS.QoSClass { self >= .normal ? .userInitiated : .utility }
}

/// Nuke's `TaskQueue` (`Sources/Nuke/Internal/TaskQueue.swift`) as a value: pending operations in one bucket per
/// priority, FIFO within a bucket, the highest bucket dequeued first, at most ``maxConcurrentOperationCount``
/// running. A pending operation whose priority changes moves bucket — to the back of a higher one, to the front
/// of a lower one (`operationPriorityChanged`); a change to a running one has no effect. Cancelling a pending
/// operation removes it; a running one keeps its slot until its work returns (`operationFinished`).
///
/// Not thread-safe: its owner serialises it (Nuke's runs on `ImagePipelineActor`; ``NukeLikePipeline`` holds a
/// lock). Operations are numbers, so that a worker thread can name the one it runs.
struct NukeTaskQueue: Sendable {
  /// An operation's handle.
  typealias Operation = Int

  /// The most operations running at once (Nuke's `imageProcessingQueue`: 2; `ImagePrefetcher`'s queue: 2).
  let maxConcurrentOperationCount: Int
  private var buckets: [[Operation]] = Array(repeating: [], count: NukePriority.allCases.count)
  private var pending: [Operation: NukePriority] = [:]
  /// Operations dequeued and not finished.
  private(set) var running: Set<Operation> = []
  private var nextOperation = 0

  /// An empty queue running at most `maxConcurrentOperationCount` operations at once.
  init(maxConcurrentOperationCount: Int) {
    self.maxConcurrentOperationCount = maxConcurrentOperationCount
  }

  /// Operations waiting for a slot.
  var pendingCount: Int { pending.count }

  /// Whether `operation` waits for a slot.
  func isPending(_ operation: Operation) -> Bool { pending[operation] != nil }

  /// `add`: enqueues a new operation at `priority`. It starts when ``next()`` dequeues it (Nuke's `drain`).
  mutating func add(priority: NukePriority) -> Operation {
    nextOperation += 1
    buckets[priority.rawValue].append(nextOperation)
    pending[nextOperation] = priority
    return nextOperation
  }

  /// One step of `drain`: the first operation of the highest non-empty bucket, now running — or `nil` when
  /// every slot is taken or nothing waits.
  mutating func next() -> Operation? {
    guard running.count < maxConcurrentOperationCount else { return nil }
    for index in buckets.indices.reversed() where !buckets[index].isEmpty {
      let operation = buckets[index].removeFirst()
      pending[operation] = nil
      running.insert(operation)
      return operation
    }
    return nil
  }

  /// `operationFinished`: the running `operation` frees its slot.
  mutating func finish(_ operation: Operation) {
    running.remove(operation)
  }

  /// `Operation.cancel()`: a pending operation leaves the queue and never runs (returns `true`); a running one
  /// keeps its slot until ``finish(_:)`` (returns `false`).
  mutating func cancel(_ operation: Operation) -> Bool {
    guard let priority = pending.removeValue(forKey: operation) else { return false }
    buckets[priority.rawValue].removeAll { $0 == operation }
    return true
  }

  /// `Operation.priority`'s `didSet`: a pending operation moves to `priority`'s bucket.
  mutating func setPriority(_ operation: Operation, _ priority: NukePriority) {
    guard let old = pending[operation], old != priority else { return }
    buckets[old.rawValue].removeAll { $0 == operation }
    if priority < old {
      buckets[priority.rawValue].insert(operation, at: 0)
    } else {
      buckets[priority.rawValue].append(operation)
    }
    pending[operation] = priority
  }
}
