import Foundation
import IdleWork

/// The work of one preparation, erased: what a worker runs.
typealias PreparationWork = @Sendable (PreparationContext) throws -> any Sendable

/// What a worker hands the preparation it runs.
struct PreparationContext: Sendable {
  /// Whether nothing waits for the result any more (see ``PreparationRun/isCancelledLocked()``).
  let isCancelled: @Sendable () -> Bool
  /// Cancels `async` work as a task when the preparation is cancelled.
  let cancellation: PreparationCancellation
  /// Whether only prefetches asked for it when it started: its `async` work runs at a lower priority.
  let isPrefetch: Bool
  /// Whether it runs on the main thread, by hand (a test's `runPreparations()`): `async` work that awaits the main
  /// actor needs the main run loop to turn while the preparation waits for it.
  var turnsMainRunLoop = false
}

/// How a running preparation's cancellation reaches `async` work, which registers what to do then.
///
/// `@unchecked Sendable`: `cancelled` and `handler` are read and written only with `lock` held; the handler is
/// called without it.
final class PreparationCancellation: @unchecked Sendable {
  private let lock = NSLock()
  private var cancelled = false
  private var handler: (@Sendable () -> Void)?

  /// Cancels: calls the registered handler (once), now or when one is registered.
  func cancel() {
    lock.lock()
    guard !cancelled else {
      lock.unlock()
      return
    }
    cancelled = true
    let handler = handler
    self.handler = nil
    lock.unlock()
    handler?()
  }

  /// Registers what cancelling does; called at once if the preparation was cancelled already.
  func onCancel(_ handler: @escaping @Sendable () -> Void) {
    lock.lock()
    guard !cancelled else {
      lock.unlock()
      handler()
      return
    }
    self.handler = handler
    lock.unlock()
  }

  /// Forgets the handler (the work finished).
  func clear() {
    lock.lock()
    handler = nil
    lock.unlock()
  }
}

/// Runs `async` work for a worker as a detached task (never on the main actor) while the worker waits on a
/// semaphore, so the pool's bound counts awaiting work as running.
enum AsyncWork {
  static func run<T: Sendable>(
    _ context: PreparationContext, _ body: @escaping @Sendable () async throws -> T
  ) throws -> T {
    let slot = OutcomeSlot<T>()
    let task = Task.detached(priority: context.isPrefetch ? .utility : .userInitiated) {
      do {
        slot.set(.success(try await body()))
      } catch {
        slot.set(.failure(error))
      }
    }
    context.cancellation.onCancel { task.cancel() }
    let outcome = context.turnsMainRunLoop ? slot.takeTurningRunLoop() : slot.take()
    context.cancellation.clear()
    return try outcome.get()
  }
}

/// One outcome handed from a task to the waiting worker.
///
/// `@unchecked Sendable`: `outcome` is written once by the task before it signals `done`, and read by the worker
/// after it waited on `done`: the semaphore orders the two. (The semaphore lives here: `DispatchSemaphore` is not
/// `Sendable` in every SDK.)
final class OutcomeSlot<T>: @unchecked Sendable {
  private var outcome: Result<T, any Error>?
  private let done = DispatchSemaphore(value: 0)

  /// The task's outcome; wakes the worker.
  func set(_ outcome: Result<T, any Error>) {
    self.outcome = outcome
    done.signal()
  }

  /// Waits for the outcome (no polling) and takes it.
  func take() -> Result<T, any Error> {
    done.wait()
    defer { outcome = nil }
    return outcome!
  }

  /// Takes the outcome, turning the calling thread's run loop until it comes (main-actor jobs run meanwhile).
  func takeTurningRunLoop() -> Result<T, any Error> {
    while done.wait(timeout: .now()) == .timedOut {
      _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.001))
    }
    defer { outcome = nil }
    return outcome!
  }
}
