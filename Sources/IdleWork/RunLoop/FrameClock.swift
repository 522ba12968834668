import Foundation

/// Where a queue reads the time left before the next frame must be committed.
///
/// A source may cost something while it runs (a display link wakes the main thread at every frame), so
/// the queue starts it when work becomes pending and stops it when the queue is drained. Platform-neutral,
/// so the start/stop decisions are tested on Linux with a fake source; on UIKit the source is a
/// `CADisplayLink` (see `DisplayLinkFrameClock`).
@MainActor
protocol FrameClockSource: AnyObject {
  /// Work is pending: start ticking (a no-op if running).
  func start()
  /// The queue is drained: stop ticking (a no-op if stopped).
  func stop()
  /// Seconds until the next frame must be committed, or `nil` if no frame is pending.
  func timeUntilDeadline() -> TimeInterval?
  /// The length of a whole frame in seconds, if the source knows it; otherwise the queue estimates it from
  /// the time left it reads (see ``FrameClock/frameLength``).
  var frameDuration: TimeInterval? { get }
  /// Whether ``start()`` starts something that ticks (a display link), so that right after it no frame is
  /// known until the first tick — which a pass then waits for, up to a frame, rather than running unbounded.
  /// `false`: `nil` from ``timeUntilDeadline()`` always means no frame is pending.
  var startsTicking: Bool { get }
}

extension FrameClockSource {
  /// Sources start nothing that ticks unless they say so.
  var startsTicking: Bool { false }
}

/// A source made of the caller's closure (`Scrolling.fitToFrames(timeUntilNextFrame:)`): nothing to start or
/// stop.
@MainActor
final class ClosureFrameClockSource: FrameClockSource {
  let deadline: @MainActor @Sendable () -> TimeInterval?

  init(_ deadline: @escaping @MainActor @Sendable () -> TimeInterval?) {
    self.deadline = deadline
  }

  func start() {}
  func stop() {}
  func timeUntilDeadline() -> TimeInterval? { deadline() }
  var frameDuration: TimeInterval? { nil }
}

/// A queue's frame clock: its source, whether it is running, the frame length it follows and whether its
/// deadline has gone stale.
///
/// - **Frame length.** The source's own (a display link's `targetTimestamp - timestamp`) when it gives
///   one; otherwise the longest time left read in each of the last ``recentFrames`` frames (a frame is
///   one deadline), so the length follows the rate the display runs at now: after a switch from 60 Hz to
///   120 Hz (ProMotion) the 60 Hz frames are forgotten four frames later.
/// - **A passed deadline.** Right after a vsync the deadline has passed until the display link's callback
///   moves it on; a pass then waits (``FrameReading/late(retryIn:)``) instead of spinning. A deadline
///   still passed ``staleAfter(frameLength:)`` after it was first seen passed means the clock has stopped
///   (a display link that no longer ticks, the app in the background): the reading is
///   ``FrameReading/noFrame``, as with no frame clock, until a frame is pending again.
@MainActor
final class FrameClock {
  /// Frames whose longest time left make up the estimated frame length.
  static let recentFrames = 4
  /// Two readings belong to the same frame when their deadlines differ by at most this (0.5 ms): the
  /// deadline is `now + timeLeft`, two clocks read a few microseconds apart.
  static let sameFrameTolerance: UInt64 = 500_000

  let source: any FrameClockSource
  private(set) var isRunning = false
  /// The last frames' deadlines and the longest time left read in each, newest last.
  private var frames: [(deadline: UInt64, longest: UInt64)] = []
  /// When a passed deadline was first read, since the last reading with time left (or none).
  private var passedSince: UInt64?

  init(source: any FrameClockSource) {
    self.source = source
  }

  /// Starts the source. A passed deadline seen before is forgotten: the queue was drained meanwhile.
  func start() {
    guard !isRunning else { return }
    isRunning = true
    passedSince = nil
    awaitsFirstFrame = source.startsTicking
    source.start()
  }

  /// Set by ``start()`` for a source that ticks, until it first gives a frame.
  private var awaitsFirstFrame = false

  /// Stops the source and forgets a passed deadline seen while it ran.
  func stop() {
    guard isRunning else { return }
    isRunning = false
    passedSince = nil
    source.stop()
  }

  /// Reads the source at `now` (the driver's clock, nanoseconds). A value that is not a number, or
  /// infinite, stops the program with a message naming the parameter; a huge finite one is clamped.
  func read(now: UInt64) -> FrameReading {
    let seconds = source.timeUntilDeadline()
    if seconds == nil, !awaitsFirstFrame || frameLength == 0 {
      passedSince = nil
      return .noFrame
    }
    // No frame yet from a source just started (its first tick is under a frame away): as a passed deadline.
    var left: Int64 = 0
    if let seconds {
      Validation.require(Validation.timeUntilNextFrameFailure(seconds))
      left = Self.nanoseconds(seconds)
    }
    if left > 0 {
      awaitsFirstFrame = false
      passedSince = nil
      note(deadline: now &+ UInt64(left), timeLeft: UInt64(left))
      return .frame(timeLeft: left, length: frameLength)
    }
    let since = passedSince ?? now
    passedSince = since
    let elapsed = now &- since
    let grace = Self.staleAfter(frameLength: frameLength)
    guard elapsed < grace else { return .noFrame }
    // The display link's callback is due: the frame it will ask for is the next one, due a frame after the
    // deadline that passed (known only from a tick's reading, not while waiting for a first frame).
    let length = frameLength
    let next = seconds == nil || length == 0 ? nil : Int64(clamping: length) &+ left
    return .late(retryIn: grace - elapsed, nextFrameIn: next.flatMap { $0 > 0 ? $0 : nil })
  }

  /// The least time a frame may have left, once the main thread has done its work, without counting as tight
  /// (see ``framesAreTight(now:)``): 8.3 ms, half a 60 Hz frame. A worker thread that takes a core from the main
  /// thread can delay it by a scheduler's time slice, a few milliseconds. A frame with less time left than this
  /// cannot spare that.
  nonisolated static let tightFrameSlack: UInt64 = 8_333_333

  /// Whether the main thread's frames are tight, read at `now`. They are when the deadline has passed (the main
  /// thread runs late), or when the most time left read in the current frame is under ``tightFrameSlack``. The
  /// first reading after a frame's commit shows what the main thread's work left of that frame. `false` with no
  /// frame pending, with the clock stopped or judged stopped (a deadline passed for longer than
  /// ``staleAfter(frameLength:)``), and before a display link just started has ticked: nothing then says the main
  /// thread runs late. It changes nothing that ``read(now:)`` decides: it keeps the frame it judged apart.
  func framesAreTight(now: UInt64) -> Bool {
    guard isRunning, let left = timeLeft() else { return false }
    guard left > 0 else {
      if awaitsFirstFrame { return false }
      guard let since = passedSince else { return true }
      return now &- since < Self.staleAfter(frameLength: frameLength)
    }
    let deadline = now &+ UInt64(left)
    var longest = UInt64(left)
    if let judged = judgedFrame, Self.isSameFrame(judged.deadline, deadline) { longest = max(longest, judged.longest) }
    if let noted = frames.last, Self.isSameFrame(noted.deadline, deadline) { longest = max(longest, noted.longest) }
    judgedFrame = (deadline, longest)
    return longest < Self.tightFrameSlack
  }

  /// The frame ``framesAreTight(now:)`` judged last and the most time left read in it (kept apart from the
  /// frames ``read(now:)`` notes, so that judging changes nothing it decides).
  private var judgedFrame: (deadline: UInt64, longest: UInt64)?

  /// Whether two deadlines are the same frame's (within ``sameFrameTolerance``).
  private static func isSameFrame(_ a: UInt64, _ b: UInt64) -> Bool {
    (a > b ? a - b : b - a) <= sameFrameTolerance
  }

  /// The time left in nanoseconds, without judging it (for a slice's `timeRemaining`, and
  /// ``framesAreTight(now:)``): `nil` with no frame pending.
  func timeLeft() -> Int64? {
    guard let seconds = source.timeUntilDeadline() else { return nil }
    Validation.require(Validation.timeUntilNextFrameFailure(seconds))
    return Self.nanoseconds(seconds)
  }

  /// The length of a whole frame in nanoseconds: the source's, or the longest time left read in each of
  /// the last ``recentFrames`` frames; 0 before any frame was read.
  var frameLength: UInt64 {
    if let duration = source.frameDuration, duration.isFinite, duration > 0 {
      return UInt64(Self.nanoseconds(duration))
    }
    return frames.reduce(0) { max($0, $1.longest) }
  }

  /// How long a deadline may stay passed before the clock counts as stopped: one frame, within one 60 Hz
  /// frame and 0.1 s (a display link's callback normally follows its vsync within a millisecond).
  nonisolated static func staleAfter(frameLength: UInt64) -> UInt64 {
    min(max(frameLength, 16_666_667), 100_000_000)
  }

  /// Seconds as nanoseconds, clamped to ±2⁶¹ ns (73 years) so that no later sum overflows.
  nonisolated static func nanoseconds(_ seconds: Double) -> Int64 {
    let limit = Double(Int64.max / 4)
    return Int64(min(max((seconds * 1e9).rounded(), -limit), limit))
  }

  private func note(deadline: UInt64, timeLeft: UInt64) {
    if let last = frames.last, Self.isSameFrame(last.deadline, deadline) {
      frames[frames.count - 1].longest = max(last.longest, timeLeft)
      return
    }
    if frames.count == Self.recentFrames { frames.removeFirst() }
    frames.append((deadline, timeLeft))
  }
}

/// What a frame clock says at one moment (see ``FrameClock/read(now:)``).
enum FrameReading: Equatable {
  /// No frame is pending, or the clock has stopped: no deadline applies.
  case noFrame
  /// A frame must be committed in `timeLeft` (> 0) nanoseconds; a whole frame lasts `length` (0 if unknown).
  case frame(timeLeft: Int64, length: UInt64)
  /// The deadline has passed and the next frame has not begun on this clock yet: ask again in `retryIn`
  /// nanoseconds, when the clock is judged stopped if it still has not moved on. `nextFrameIn`: the time until
  /// the frame after it must be committed — the one the clock's next callback asks for — when the frame length
  /// is known (`nil` otherwise).
  case late(retryIn: UInt64, nextFrameIn: Int64?)
}
