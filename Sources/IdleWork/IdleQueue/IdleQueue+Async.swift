import Foundation

/// async/await: run a closure in an idle pass and get its value back.
extension IdleQueue {
  /// Runs `work` on the main thread in a later idle pass and returns its value.
  ///
  /// - If the awaiting task is cancelled before `work` started, `work` never starts — the check happens
  ///   atomically just before it would run — and this throws `CancellationError` at once, without waiting
  ///   for the main thread. The queued task leaves the queue (counted as cancelled) at the next
  ///   opportunity on the main thread. Once `work` has started it finishes, and its value is returned.
  /// - If the task is evicted, cancelled through its key, ``removeAllTasks()``, ``dropDiscardableTasks()``
  ///   or a replacing addition, or the queue is invalidated, this throws the matching ``IdleWorkError``.
  /// - Errors thrown by `work` are rethrown.
  ///
  /// ```swift
  /// let image = try await IdleQueue.main.perform(key: indexPath) { renderer.draw(item) }
  /// ```
  public func perform<T: Sendable>(
    key: some Hashable, discardable: Bool = false, _ work: @escaping @MainActor () throws -> T
  ) async throws -> T {
    guard !core.isInvalidated else { throw IdleWorkError.cancelled }
    try Task.checkCancellation()
    let waiter = PerformWaiter<T>()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        guard waiter.wait(with: continuation) else { return }  // cancelled already: resumed
        var task = QueuedTask(
          work: .once {
            do {
              waiter.finish(with: .success(try work()))
            } catch {
              waiter.finish(with: .failure(error))
            }
          })
        let hooks = QueuedTask.Hooks()
        hooks.claim = { waiter.claim() }
        hooks.isWithdrawn = { waiter.isWithdrawn }
        hooks.onDrop = { fate in waiter.finish(with: .failure(fate == .evicted ? IdleWorkError.evicted : .cancelled)) }
        task.hooks = hooks
        let handle = core.enqueue(key: TaskKey(key), task, discardable: discardable)
        waiter.setRemover { handle.cancel() }
      }
    } onCancel: {
      waiter.cancel()
    }
  }

}

/// The bridge between one `perform` call and its queued task, safe from any thread: the continuation is
/// resumed exactly once, and the work starts only if the caller has not been cancelled by then.
private final class PerformWaiter<T: Sendable>: @unchecked Sendable {
  private enum State {
    /// Not yet enqueued.
    case created
    /// Enqueued; the caller awaits.
    case waiting(CheckedContinuation<T, any Error>)
    /// The work has started; only it resumes the caller.
    case started(CheckedContinuation<T, any Error>)
    /// The caller was resumed (or was cancelled before waiting).
    case finished
  }

  private let lock = NSLock()
  private var state = State.created
  private var isCancelled = false
  /// Takes the queued task out of its queue; set on the main thread, run there.
  private var remover: (@MainActor () -> Void)?

  /// Registers the continuation; returns `false`, resuming it with `CancellationError`, if the caller was
  /// cancelled already.
  func wait(with continuation: CheckedContinuation<T, any Error>) -> Bool {
    lock.lock()
    guard !isCancelled else {
      state = .finished
      lock.unlock()
      continuation.resume(throwing: CancellationError())
      return false
    }
    state = .waiting(continuation)
    lock.unlock()
    return true
  }

  /// Keeps the closure that removes the queued task, or runs it at once if the caller was cancelled since.
  @MainActor func setRemover(_ remove: @escaping @MainActor () -> Void) {
    lock.lock()
    let cancelled = isCancelled
    if !cancelled { remover = remove }
    lock.unlock()
    if cancelled { remove() }
  }

  /// Called just before the work runs: `true` (and the work owns the caller from now on) unless the caller
  /// was cancelled.
  func claim() -> Bool {
    lock.lock()
    defer { lock.unlock() }
    guard case .waiting(let continuation) = state else { return false }
    state = .started(continuation)
    return true
  }

  /// Whether the caller was cancelled before the work started (then it never will).
  var isWithdrawn: Bool {
    lock.lock()
    defer { lock.unlock() }
    guard isCancelled else { return false }
    if case .started = state { return false }
    return true
  }

  /// Resumes the caller with the work's outcome, or with the queue's reason for dropping the task.
  func finish(with result: Result<T, any Error>) {
    lock.lock()
    let continuation: CheckedContinuation<T, any Error>?
    switch state {
    case .waiting(let waiting), .started(let waiting): continuation = waiting
    case .created, .finished: continuation = nil
    }
    if continuation != nil { state = .finished }
    lock.unlock()
    continuation?.resume(with: result)
  }

  /// The caller was cancelled (any thread): unless the work has started, resume it with
  /// `CancellationError` now, and take the queued task out of the queue on the main thread.
  func cancel() {
    lock.lock()
    isCancelled = true
    guard case .waiting(let continuation) = state else {
      lock.unlock()
      return
    }
    state = .finished
    let remove = remover
    remover = nil
    lock.unlock()
    continuation.resume(throwing: CancellationError())
    guard let remove else { return }
    if Thread.isMainThread {
      MainActor.assumeIsolated { remove() }
    } else {
      DispatchQueue.main.async { MainActor.assumeIsolated { remove() } }
    }
  }
}
