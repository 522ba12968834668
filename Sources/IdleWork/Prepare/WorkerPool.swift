import Foundation

/// The bounded pool of long-lived worker threads that run a queue's renders off the main thread.
///
/// Workers take work from the pool's own list rather than from one GCD dispatch per item, so that work
/// that has not started can still be removed — by a cancel, a rebind, a row leaving the screen — and so
/// that the order is the queue's: renders some on-screen request wants go first, prefetches (discardable
/// requests only) after them, and renders no request wants now (every requesting cell off screen) wait
/// unstarted. At most `limit` threads exist (Texture's async display once ran 60+: AsyncDisplayKit #1080).
/// Threads start when work comes and none is idle, wait on a condition (never polling), and end after
/// ``idleTimeout`` without work and when the queue ends: no worker outlives the queue that needs it.
///
/// A finished render's outcome is handed to the main thread through ``takeArrivals()``; the first arrival
/// after each hand-over wakes the main run loop (`wake`), so a burst costs one wake-up. An outcome that
/// arrives after ``close()`` is released on the main thread (it may hold a UI object).
///
/// **By hand.** A pool made `byHand` starts no thread: ``runByHand(maximum:)`` runs renders on the calling
/// thread, in the order workers would take them — what `IdleWorkTesting`'s `ManualPassDriver` offers tests.
///
/// `@unchecked Sendable`: every mutable field is read and written only with `condition` (a lock) held, and
/// so are the lock-guarded fields of the ``Render``s in it; `limit`, `byHand` and `wake` are immutable.
final class WorkerPool: @unchecked Sendable {
  /// How long a worker with nothing to do waits before it ends.
  static let idleTimeout: TimeInterval = 10

  private let condition = NSCondition()
  private let limit: Int
  private let byHand: Bool
  private let wake: @Sendable () -> Void
  /// Renders not started, in submission order.
  private var waiting: [Render] = []
  /// Renders finished and not yet taken by the main thread.
  private var arrivals: [Render] = []
  /// Outcomes that arrived after ``close()``, waiting for the main queue to release them.
  private var awaitingRelease: [Result<any Sendable, any Error>] = []
  private var threads = 0
  private var idle = 0
  /// Signals sent to idle workers that have not woken yet.
  private var signalled = 0
  private var closed = false
  private var needsWake = true
  private var peak = 0
  private var running = 0

  init(limit: Int, byHand: Bool, wake: @escaping @Sendable () -> Void) {
    self.limit = limit
    self.byHand = byHand
    self.wake = wake
  }

  // MARK: Main thread

  /// Puts a new render in line. After ``close()`` it is dropped at once.
  func submit(_ render: Render) {
    condition.lock()
    defer { condition.unlock() }
    guard !closed else {
      render.phase = .dropped
      return
    }
    waiting.append(render)
    if render.wanted > 0 { startWorkerLocked() }
  }

  /// Changes a render's request counts; a waiting render that no request needs any more is dropped, and one
  /// that becomes wanted gets a worker.
  func adjust(_ render: Render, live: Int = 0, wanted: Int = 0, urgent: Int = 0) {
    condition.lock()
    defer { condition.unlock() }
    let wasWanted = render.wanted > 0
    render.live += live
    render.wanted += wanted
    render.urgent += urgent
    if render.phase == .waiting {
      if render.live == 0 {
        render.phase = .dropped
        waiting.removeAll { $0 === render }
      } else if !wasWanted, render.wanted > 0 {
        startWorkerLocked()
      }
    }
  }

  /// The render's phase, and whether a request may still join it: it has not finished or been dropped, and
  /// some request still wants it (one that lost all its requests may have been told it is cancelled).
  func isJoinable(_ render: Render) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    return (render.phase == .waiting || render.phase == .running) && render.live > 0
  }

  /// Whether renders finished since the last ``takeArrivals()``.
  var hasArrivals: Bool {
    condition.lock()
    defer { condition.unlock() }
    return !arrivals.isEmpty
  }

  /// Takes the renders finished since the last call, with their outcomes (taken out of the renders).
  func takeArrivals() -> [(render: Render, outcome: Result<any Sendable, any Error>)] {
    condition.lock()
    defer { condition.unlock() }
    needsWake = true
    guard !arrivals.isEmpty else { return [] }
    let taken = arrivals.map { render in
      defer { render.outcome = nil }
      return (render, render.outcome!)
    }
    arrivals = []
    return taken
  }

  /// Ends the pool: renders not started are dropped, idle workers end, running ones end after their
  /// render (whose outcome is then released on the main thread). Returns the arrivals not taken, for the
  /// caller to drop on the main thread.
  func close() -> [(render: Render, outcome: Result<any Sendable, any Error>)] {
    condition.lock()
    closed = true
    for render in waiting { render.phase = .dropped }
    waiting = []
    condition.broadcast()
    condition.unlock()
    return takeArrivals()
  }

  /// Runs up to `maximum` renders on the calling thread, in the order workers take them; returns how many
  /// ran. For a pool made `byHand` (tests); results arrive as a worker's do.
  func runByHand(maximum: Int) -> Int {
    var count = 0
    condition.lock()
    while count < maximum, !closed, let render = pickLocked() {
      condition.unlock()
      var outcome: Result<any Sendable, any Error>? = run(render)
      condition.lock()
      finishLocked(render, outcome: &outcome)
      count += 1
    }
    let first = wakeIfFirstLocked()
    condition.unlock()
    if first { wake() }
    return count
  }

  /// Whether a result is on its way: a render runs, or waits while some request wants it.
  var isPreparing: Bool {
    condition.lock()
    defer { condition.unlock() }
    return running > 0 || waiting.contains { $0.wanted > 0 }
  }

  /// Renders waiting to start (wanted or not).
  var waitingCount: Int {
    condition.lock()
    defer { condition.unlock() }
    return waiting.count
  }

  /// Worker threads alive now, and the most alive at once.
  var threadCounts: (now: Int, peak: Int) {
    condition.lock()
    defer { condition.unlock() }
    return (threads, peak)
  }

  // MARK: Workers

  /// Wakes an idle worker for a wanted render, or starts a thread if none is idle and the limit allows.
  private func startWorkerLocked() {
    guard !byHand, !closed else { return }
    if idle > signalled {
      signalled += 1
      condition.signal()
    } else if threads < limit {
      threads += 1
      peak = max(peak, threads)
      let thread = Thread { [self] in work() }
      thread.name = "IdleWork worker"
      thread.qualityOfService = .userInitiated
      thread.start()
    }
  }

  /// A worker's life: take the most urgent wanted render, run it, hand its outcome over; wait on the
  /// condition when there is none; end when the pool closes or after ``idleTimeout`` without work.
  private func work() {
    condition.lock()
    while !closed {
      if let render = pickLocked() {
        running += 1
        condition.unlock()
        var outcome: Result<any Sendable, any Error>? = run(render)
        condition.lock()
        running -= 1
        finishLocked(render, outcome: &outcome)
        if wakeIfFirstLocked() {
          condition.unlock()
          wake()
          condition.lock()
        }
        continue
      }
      idle += 1
      let signalledInTime = condition.wait(until: Date(timeIntervalSinceNow: Self.idleTimeout))
      idle -= 1
      if signalled > 0 { signalled -= 1 } else if !signalledInTime { break }
    }
    threads -= 1
    condition.unlock()
  }

  /// Runs `render`'s work, telling it whether every request has left (or the pool closed).
  private func run(_ render: Render) -> Result<any Sendable, any Error> {
    let isCancelled: @Sendable () -> Bool = { [self] in
      condition.lock()
      defer { condition.unlock() }
      return closed || render.live == 0
    }
    return Result { try render.prepare(isCancelled) }
  }

  /// Takes the most urgent wanted render out of line, marking it running: the first with a request on
  /// screen that is not a prefetch, else the first wanted at all.
  private func pickLocked() -> Render? {
    var chosen: Int?
    for index in waiting.indices where waiting[index].wanted > 0 {
      if waiting[index].urgent > 0 {
        chosen = index
        break
      }
      if chosen == nil { chosen = index }
    }
    guard let chosen else { return nil }
    let render = waiting.remove(at: chosen)
    render.phase = .running
    return render
  }

  /// Records a finished render's outcome, moved out of `outcome` so that the worker keeps no reference to
  /// it: it reaches the main thread as an arrival, or — after ``close()`` — is released there.
  private func finishLocked(_ render: Render, outcome: inout Result<any Sendable, any Error>?) {
    render.phase = .finished
    // Moved out by hand rather than with `Optional.take()`: the same, but `take()` is newer (Swift 6.0's
    // standard library) than the iOS SDK that `ios-check` type-checks against.
    let taken = outcome
    outcome = nil
    if closed {
      awaitingRelease.append(taken!)
      if awaitingRelease.count == 1 {
        DispatchQueue.main.async { [self] in
          condition.lock()
          let released = awaitingRelease
          awaitingRelease = []
          condition.unlock()
          withExtendedLifetime(released) {}
        }
      }
      return
    }
    render.outcome = taken
    arrivals.append(render)
  }

  /// Whether this arrival is the first since the main thread last took them (then the loop is woken).
  private func wakeIfFirstLocked() -> Bool {
    guard needsWake, !arrivals.isEmpty else { return false }
    needsWake = false
    return true
  }
}
