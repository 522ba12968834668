import Foundation

/// Where a queue reads the time left before the next frame must be committed.
///
/// A running source may cost something (a display link wakes the main thread every frame), so the queue
/// runs it only while work is pending. Platform-neutral, so tests use a fake; on UIKit it is `DisplayLinkFrameClock`.
@MainActor
package protocol FrameClockSource: AnyObject {
  /// Work is pending: start ticking (no-op if running).
  func start()
  /// The queue is drained: stop ticking (a no-op if stopped).
  func stop()
  /// Seconds until the next frame must be committed, or `nil` if no frame is pending.
  func timeUntilDeadline() -> TimeInterval?
  /// The length of a whole frame in seconds, if known; otherwise see ``FrameClock/frameLength``.
  var frameDuration: TimeInterval? { get }
  /// Whether ``start()`` starts something that ticks: until its first tick a pass waits, up to a frame,
  /// rather than running unbounded. If `false`, `nil` from ``timeUntilDeadline()`` always means no frame is pending.
  var startsTicking: Bool { get }
}

extension FrameClockSource {
  /// Sources start nothing that ticks unless they say so.
  package var startsTicking: Bool { false }
}

/// A source made of the caller's closure (`Scrolling.fitToFrames(timeUntilNextFrame:)`): nothing to start.
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

/// A queue's frame clock: its source, whether it runs, its frame length, and whether its deadline went stale.
///
/// The frame length is the source's, or the longest time left read in each of the last ``recentFrames``
/// frames, so it follows a change of display rate. A passed deadline makes a pass wait rather than spin;
/// one still passed after ``staleAfter(frameLength:)`` means the clock has stopped (``FrameReading/noFrame``).
@MainActor
final class FrameClock {
  /// Frames whose longest time left make up the estimated frame length.
  static let recentFrames = 4
  /// Two readings belong to the same frame when their deadlines (`now + timeLeft`) differ by at most this.
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

  /// Reads the source at `now`; a NaN or infinite value traps with a message, a huge one is clamped.
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
    // The callback is due; the frame it asks for is due a frame after the passed deadline.
    let length = frameLength
    let next = seconds == nil || length == 0 ? nil : Int64(clamping: length) &+ left
    return .late(retryIn: grace - elapsed, nextFrameIn: next.flatMap { $0 > 0 ? $0 : nil })
  }

  /// The least time a frame may have left, after the main thread's work, without counting as tight (half a
  /// 60 Hz frame): a worker taking the main thread's core can delay it by a scheduler's time slice.
  nonisolated static let tightFrameSlack: UInt64 = 8_333_333

  /// Whether the main thread's frames are tight at `now`: the deadline has passed, or the most time left read
  /// in this frame is under ``tightFrameSlack``. `false` with no frame, a stopped clock, or before a first tick.
  /// It changes nothing that ``read(now:)`` decides.
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

  /// The frame ``framesAreTight(now:)`` judged last and the most time left in it, kept apart from ``read(now:)``'s.
  private var judgedFrame: (deadline: UInt64, longest: UInt64)?

  private static func isSameFrame(_ a: UInt64, _ b: UInt64) -> Bool {
    (a > b ? a - b : b - a) <= sameFrameTolerance
  }

  /// The time left in nanoseconds, without judging it; `nil` with no frame pending.
  func timeLeft() -> Int64? {
    guard let seconds = source.timeUntilDeadline() else { return nil }
    Validation.require(Validation.timeUntilNextFrameFailure(seconds))
    return Self.nanoseconds(seconds)
  }

  /// The source's frame length, or the longest time left in the last ``recentFrames`` frames (0 before any).
  var frameLength: UInt64 {
    if let duration = source.frameDuration, duration.isFinite, duration > 0 {
      return UInt64(Self.nanoseconds(duration))
    }
    return frames.reduce(0) { max($0, $1.longest) }
  }

  /// How long a deadline may stay passed before the clock counts as stopped: one frame, within one 60 Hz
  /// frame and 0.1 s (a callback normally follows its vsync at once).
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
  /// The deadline has passed and no new frame has begun: ask again in `retryIn` nanoseconds. `nextFrameIn`:
  /// the time until the next callback's frame must be committed, if the frame length is known.
  case late(retryIn: UInt64, nextFrameIn: Int64?)
}
