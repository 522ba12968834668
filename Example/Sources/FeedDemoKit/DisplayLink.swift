import CoreFoundation
import Foundation

/// A simulated `CADisplayLink`, as on iOS a run-loop *source* (not a `CFRunLoopTimer`): a version-0
/// `CFRunLoopSource` in the common modes, signalled at each vsync by a ``VsyncThread``. Its callback
/// builds the frame (scroll, layout, `cellForRow`); the frame is committed later in the same turn of the
/// loop by the ``CommitObserver`` at BeforeWaiting, order 2,000,000.
///
/// It runs only while the list moves (`start()`/`pause()`): image fades run in the render server on iOS,
/// so they need no main-thread frames. A callback serves the latest vsync at or before its start; vsyncs
/// that pass while the main thread is busy are coalesced into one callback, as a signalled source is.
@MainActor
final class DisplayLink {
  /// Refresh rate in hertz.
  let refreshHz: Int
  /// The refresh period in nanoseconds.
  let period: UInt64
  /// Vsync tick 0, in clock nanoseconds.
  let originNanos: UInt64
  /// Called for each frame with the vsync tick it serves and its start; returns whether more frames are
  /// needed (the link pauses otherwise).
  var onFrame: (@MainActor (_ tick: Int64, _ start: UInt64) -> Bool)?
  /// The commit observer that commits each frame; a frame still uncommitted when the next callback comes
  /// is committed first (see ``CommitObserver/flush()``).
  let commit: CommitObserver
  /// Whether the link is delivering frames.
  private(set) var isRunning = false
  private var resumed = false
  private var source: CFRunLoopSource?
  private var thread: VsyncThread?

  /// Creates a paused display link at `refreshHz` whose frames cost `commitFraction` of the period in the
  /// commit observer.
  init(refreshHz: Int, commitFraction: Double) {
    self.refreshHz = refreshHz
    let period = UInt64((1e9 / Double(refreshHz)).rounded())
    self.period = period
    self.originNanos = Clock.now
    self.commit = CommitObserver(commitNanos: UInt64(Double(period) * commitFraction))
    var context = CFRunLoopSourceContext()
    context.info = Unmanaged.passUnretained(self).toOpaque()
    context.perform = { info in
      guard let info else { return }
      MainActor.assumeIsolated { Unmanaged<DisplayLink>.fromOpaque(info).takeUnretainedValue().fire() }
    }
    let source = CFRunLoopSourceCreate(nil, 0, &context)!
    CFRunLoopAddSource(CFRunLoopGetMain(), source, kCFRunLoopCommonModes)
    self.source = source
    thread = VsyncThread(source: source, loop: CFRunLoopGetMain(), origin: originNanos, period: period)
  }

  /// Starts frames at the next vsync if paused.
  func start() {
    guard !isRunning, thread != nil else { return }
    isRunning = true
    resumed = true
    lastServedTick = tickIndex(at: Clock.now)
    thread?.resume()
  }

  /// Stops frames until the next `start()`.
  func pause() {
    guard isRunning else { return }
    isRunning = false
    thread?.pause()
  }

  /// Removes the source and the commit observer from the run loop and ends the timing thread.
  func invalidate() {
    thread?.stop()
    thread = nil
    if let source { CFRunLoopSourceInvalidate(source) }
    source = nil
    isRunning = false
    commit.invalidate()
  }

  /// The vsync tick at or before `time`, counting from tick 0.
  func tickIndex(at time: UInt64) -> Int64 { Int64(time &- originNanos) / Int64(period) }

  /// The time of tick `index`.
  func tickTime(_ index: Int64) -> UInt64 { originNanos &+ UInt64(index) &* period }

  /// The first vsync strictly after `time`.
  func nextTick(after time: UInt64) -> UInt64 { tickTime(tickIndex(at: time) + 1) }

  /// Seconds until the next frame is due, as `CADisplayLink.targetTimestamp - CACurrentMediaTime()` on
  /// iOS; `nil` while paused (no frame is coming).
  ///
  /// As on iOS, the target moves on only when the link's callback runs: after a vsync whose callback has
  /// not run yet, the target is that vsync, so the value is negative (a frame is due now, and a task
  /// started then would delay it).
  var timeUntilNextFrame: Double? {
    guard isRunning else { return nil }
    let now = Clock.now
    let current = tickIndex(at: now)
    if let lastServedTick, current > lastServedTick {
      return -Double(now &- tickTime(current)) / 1e9
    }
    return Double(nextTick(after: now) - now) / 1e9
  }

  /// The vsync the last callback served; `nil` before the first callback after a start.
  private var lastServedTick: Int64?

  private func fire() {
    guard isRunning else { return }
    commit.flush()
    let start = Clock.now
    let tick = tickIndex(at: start)
    lastServedTick = tick
    let more = onFrame?(tick, start) ?? false
    commit.frameBuilt(tick: tick, start: start, afterResume: resumed)
    resumed = false
    if !more { pause() }
  }
}
