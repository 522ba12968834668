/// async/await: run a closure in an idle pass and get its value back.
extension IdleQueue {
  /// Runs `work` on the main thread in a later idle pass and returns its value.
  ///
  /// - If the awaiting task is cancelled before `work` ran, the task leaves the queue (counted as
  ///   cancelled) and this throws `CancellationError`.
  /// - If the task is evicted, cancelled through its key, ``removeAllTasks()`` or a memory-pressure purge,
  ///   or the queue is invalidated, this throws the matching ``IdleWorkError``.
  /// - Errors thrown by `work` are rethrown.
  ///
  /// ```swift
  /// let image = try await IdleQueue.main.perform(key: indexPath) { renderer.draw(item) }
  /// ```
  public func perform<T: Sendable>(
    key: some Hashable, discardable: Bool = false, _ work: @escaping @MainActor () throws -> T
  ) async throws -> T {
    guard !isInvalidated else { throw IdleWorkError.invalidated }
    try Task.checkCancellation()
    let waiter = PerformWaiter<T>()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        waiter.continuation = continuation
        var task = QueuedTask(
          work: .once {
            do {
              waiter.resume(with: .success(try work()))
            } catch {
              waiter.resume(with: .failure(error))
            }
          })
        task.onDrop = { [weak self] fate in
          waiter.resume(with: .failure(waiter.isCancelledByCaller ? CancellationError() : Self.error(for: fate, self)))
        }
        waiter.handle = enqueue(key: TaskKey(key), task, discardable: discardable)
      }
    } onCancel: {
      Task { @MainActor in waiter.cancelByCaller() }
    }
  }

  private static func error(for fate: TaskFate, _ queue: IdleQueue?) -> IdleWorkError {
    if queue?.isInvalidated ?? true { return .invalidated }
    return fate == .evicted ? .evicted : .cancelled
  }
}

/// The bridge between one `perform` call and its queued task: resumes the continuation exactly once.
@MainActor
private final class PerformWaiter<T: Sendable>: Sendable {
  var continuation: CheckedContinuation<T, any Error>?
  var handle: IdleTaskHandle?
  private(set) var isCancelledByCaller = false

  func resume(with result: Result<T, any Error>) {
    guard let continuation else { return }
    self.continuation = nil
    handle = nil
    continuation.resume(with: result)
  }

  func cancelByCaller() {
    isCancelledByCaller = true
    if handle?.cancel() != true { resume(with: .failure(CancellationError())) }
  }
}
