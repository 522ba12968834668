import Foundation

/// A queue's start and end, from any thread.
///
/// A queue may be created, invalidated and released on any thread (``IdleQueue/main`` is reached from
/// network callbacks; a library may make its own queue off the main thread). What touches main-actor state
/// — the run-loop observer, the frame clock, the memory-warning observer, the pending closures — is done
/// on the main thread: at once when the call is made there, otherwise through the main queue, which the
/// main run loop serves in every mode (scrolls included).
extension QueueCore {
  /// What ``start()`` needs from the initializer.
  struct Startup: Sendable {
    /// The queue's priority in its scheduler.
    let priority: Int
    /// Makes the frame clock's source (a `CADisplayLink` must be made on the main thread); `nil` for none.
    let makeFrameClockSource: (@MainActor @Sendable () -> any FrameClockSource)?

    nonisolated init(priority: Int, configuration: IdleQueue.Configuration) {
      self.priority = priority
      makeFrameClockSource = configuration.scrolling.frameClockSource
    }
  }

  /// The message of ``IdleQueue/main``'s refusal to be invalidated.
  nonisolated static let sharedQueueInvalidated =
    "IdleWork: IdleQueue.main cannot be invalidated: the whole app shares it. Call removeAllTasks() "
    + "on it, or create your own IdleQueue() and invalidate that."

  /// Starts serving, once, on the main thread: makes the frame clock, attaches to the scheduler (which
  /// starts its driver, the run-loop observer), observes memory warnings, and asks for a pass if work was
  /// added since the queue was created. An invalidation that came first wins: the queue never starts.
  func start() {
    guard let startup else { return }
    self.startup = nil
    // Invalidated off the main thread, with the main-thread half not yet run: end now, never attached.
    if inbox.isClosed { invalidate() }
    guard !isInvalidated else { return }
    frameClock = startup.makeFrameClockSource.map { FrameClock(source: $0()) }
    scheduler.attach(self, priority: startup.priority)
    if scheduler.isStopped { invalidate() }
    observeMemoryWarnings()
    if hasPendingWork {
      scheduler.setNeedsPass()
      updateFrameClock()
    }
  }

  /// What ``IdleQueue``'s `invalidate()` does, from any thread. ``IdleQueue/main`` refuses on the calling
  /// thread. Additions from other threads are refused at once (the inbox closes under its lock, so an
  /// `addTaskFromAnyThread` racing this call either got in before it, and is then cancelled, or returns
  /// `false`); the rest — cancelling and releasing the pending tasks, removing the observer — is done on the
  /// main thread, at once when called there. Off the main thread, a queue whose inbox was closed already is
  /// ended or about to be: no second main-queue block is sent.
  nonisolated func invalidateFromAnyThread() {
    Validation.require(isShared ? Self.sharedQueueInvalidated : nil)
    endOnMainThread()
  }

  /// Ends the queue as ``invalidate()`` does, on the main thread: what releasing an ``IdleQueue`` does (and
  /// `invalidate()` from any thread). The main-queue block holds the core until then, so pending closures
  /// (and the UI objects they capture) are released on the main thread even when the queue's last
  /// reference went on another thread.
  ///
  /// An inbox closed already means the queue was invalidated, or will be by a block already sent: then a
  /// queue released off the main thread sends none (its list is empty, or that block holds the core), and
  /// leaves no stray main-queue block behind (a nested run loop returns after serving one).
  nonisolated func endOnMainThread() {
    // Refusing at once also makes the next pass end the queue if it comes before the main-queue block.
    guard inbox.refuse() || Thread.isMainThread else { return }
    Self.onMainThread { [self] in invalidate() }
  }

  /// Runs `body` on the main thread: here and now when this is the main thread, otherwise in a main-queue
  /// block.
  nonisolated static func onMainThread(_ body: @escaping @MainActor @Sendable () -> Void) {
    if Thread.isMainThread {
      MainActor.assumeIsolated { body() }
    } else {
      DispatchQueue.main.async { MainActor.assumeIsolated { body() } }
    }
  }
}
