import Foundation

/// A queue's start and end, from any thread.
///
/// A queue may be created, invalidated and released on any thread. What touches main-actor state (observers,
/// the frame clock, pending closures) is done on the main thread: at once when called there, otherwise through
/// the main queue, which the main run loop serves in every mode (scrolls included).
extension QueueCore {
  /// What ``start()`` needs from the initializer.
  struct Startup: Sendable {
    /// Makes the frame clock's source (a `CADisplayLink` must be made on the main thread); `nil` for none.
    let makeFrameClockSource: (@MainActor @Sendable () -> any FrameClockSource)?

    nonisolated init(configuration: IdleQueue.Configuration) {
      makeFrameClockSource = configuration.scrolling.frameClockSource
    }
  }

  /// The message of ``IdleQueue/main``'s refusal to be invalidated.
  nonisolated static let sharedQueueInvalidated =
    "IdleWork: IdleQueue.main cannot be invalidated: the whole app shares it. Call cancelAllTasks() "
    + "on it, or create your own IdleQueue() and invalidate that."

  /// Starts serving, once, on the main thread: frame clock, scheduler, memory warnings, and a pass if work is
  /// pending. An invalidation that came first wins: the queue never starts.
  func start() {
    guard let startup else { return }
    self.startup = nil
    // Invalidated off the main thread, with the main-thread half not yet run: end now, never attached.
    if inbox.isClosed { invalidate() }
    guard !isInvalidated else { return }
    frameClock = startup.makeFrameClockSource.map { FrameClock(source: $0()) }
    scheduler.attach(self)
    if scheduler.isStopped { invalidate() }
    observeMemoryWarnings()
    if hasPendingWork {
      scheduler.setNeedsPass()
      updateFrameClock()
    }
  }

  /// What ``IdleQueue``'s `invalidate()` does, from any thread (``IdleQueue/main`` refuses). Additions from other
  /// threads are refused at once: the inbox closes under its lock, so a racing `addTaskFromAnyThread` either got in
  /// first, and is cancelled, or returns `false`. The rest is done on the main thread.
  nonisolated func invalidateFromAnyThread() {
    Validation.require(isShared ? Self.sharedQueueInvalidated : nil)
    endOnMainThread()
  }

  /// Ends the queue as ``invalidate()`` does, on the main thread. The main-queue block holds the core until then,
  /// so pending closures are released on the main thread even when the last reference went elsewhere. An inbox
  /// closed already means a block was sent or the queue ended: off the main thread no second block is sent.
  nonisolated func endOnMainThread() {
    // Refusing at once also makes the next pass end the queue if it comes before the main-queue block.
    guard inbox.refuse() || Thread.isMainThread else { return }
    Self.onMainThread { [self] in invalidate() }
  }

  /// Runs `body` on the main thread: now if this is it, otherwise in a main-queue block.
  nonisolated static func onMainThread(_ body: @escaping @MainActor @Sendable () -> Void) {
    if Thread.isMainThread {
      MainActor.assumeIsolated { body() }
    } else {
      DispatchQueue.main.async { MainActor.assumeIsolated { body() } }
    }
  }
}
