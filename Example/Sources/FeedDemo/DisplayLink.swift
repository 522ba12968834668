import CoreFoundation
import Foundation

/// A simulated `CADisplayLink`: a repeating `CFRunLoopTimer` in the common modes at the refresh rate,
/// on a fixed vsync grid.
///
/// It runs only while someone needs frames (the list scrolls, a fade-in is in flight) and pauses
/// otherwise, so the loop can sleep. Resuming aligns to the next vsync, as an unpaused display link does.
/// CoreFoundation skips the fire dates a late callback missed and keeps the grid, like vsync.
@MainActor
final class DisplayLink {
  /// Refresh rate in hertz.
  let refreshHz: Int
  /// The refresh period in nanoseconds.
  let period: UInt64
  /// Called for each frame with the frame's start time; returns whether more frames are needed.
  var onFrame: (@MainActor (UInt64) -> Bool)?
  /// Called after each frame with its start and end times and whether it is the first since a resume
  /// (for the frame log: no interval is measured across a pause).
  var onFrameEnd: (@MainActor (_ start: UInt64, _ end: UInt64, _ afterResume: Bool) -> Void)?

  private var timer: CFRunLoopTimer?
  /// Vsync tick 0, in clock nanoseconds and in `CFAbsoluteTime`, read together.
  let originNanos: UInt64
  private let originAbsolute: CFAbsoluteTime
  /// Whether the timer is scheduled.
  private(set) var isRunning = false
  private var resumed = false

  /// Creates a paused display link at `refreshHz`.
  init(refreshHz: Int) {
    self.refreshHz = refreshHz
    self.period = UInt64((1e9 / Double(refreshHz)).rounded())
    self.originAbsolute = CFAbsoluteTimeGetCurrent()
    self.originNanos = Clock.now
    let interval = 1.0 / Double(refreshHz)
    let timer = CFRunLoopTimerCreateWithHandler(nil, originAbsolute + 1e9, interval, 0, 0) { [weak self] _ in
      MainActor.assumeIsolated { self?.fire() }
    }
    self.timer = timer
    CFRunLoopAddTimer(CFRunLoopGetMain(), timer, kCFRunLoopCommonModes)
  }

  /// Starts frames at the next vsync if paused.
  func start() {
    guard !isRunning, let timer else { return }
    isRunning = true
    resumed = true
    let next = nextTick(after: Clock.now)
    CFRunLoopTimerSetNextFireDate(timer, originAbsolute + Double(next - originNanos) / 1e9)
  }

  /// Stops frames until the next `start()`.
  func pause() {
    guard isRunning, let timer else { return }
    isRunning = false
    CFRunLoopTimerSetNextFireDate(timer, originAbsolute + 1e9)
  }

  /// Removes the timer from the run loop.
  func invalidate() {
    if let timer { CFRunLoopTimerInvalidate(timer) }
    timer = nil
    isRunning = false
  }

  /// The vsync tick at or before `time`, counting from tick 0.
  func tickIndex(at time: UInt64) -> Int64 {
    Int64(time &- originNanos) / Int64(period)
  }

  /// The time of tick `index`.
  func tickTime(_ index: Int64) -> UInt64 { originNanos &+ UInt64(index) &* period }

  /// The first vsync strictly after `time`.
  func nextTick(after time: UInt64) -> UInt64 { tickTime(tickIndex(at: time) + 1) }

  /// Seconds until the next frame is due, as `CADisplayLink.targetTimestamp - CACurrentMediaTime()` on
  /// iOS; `nil` while paused (no frame is coming).
  var timeUntilNextFrame: Double? {
    guard isRunning else { return nil }
    let now = Clock.now
    return Double(nextTick(after: now) - now) / 1e9
  }

  private func fire() {
    guard isRunning else { return }
    let start = Clock.now
    let more = onFrame?(start) ?? false
    onFrameEnd?(start, Clock.now, resumed)
    resumed = false
    if !more { pause() }
  }
}
