/// One committed display-link frame: the vsync it serves, when its callback started and when its commit
/// ended.
struct FrameRecord: Sendable, Equatable {
  /// The vsync tick the frame serves (the latest at or before `start`).
  var tick: Int64
  /// When the display-link callback started, clock ns.
  var start: UInt64
  /// When the commit observer finished committing it, clock ns.
  var commitEnd: UInt64
  /// The phase the frame was committed in.
  var phase: Phase
  /// The first frame after the link resumed: vsyncs before it were not wanted, so none counts as missed.
  var afterResume: Bool
}

/// Dropped frames under the iOS rule: a frame is dropped when its commit ends after the vsync following
/// the one it serves (the render server shows the previous frame again), and every vsync the link skipped
/// while it was running (no callback served it: the main thread was busy) is dropped too.
enum DroppedFrames {
  /// Frames dropped at or before each frame: `late` (its own commit missed) plus the vsyncs skipped
  /// between the previous frame's tick and this one's.
  static func perFrame(_ frames: [FrameRecord], origin: UInt64, period: UInt64) -> [Int] {
    var result: [Int] = []
    result.reserveCapacity(frames.count)
    var previousTick: Int64?
    for frame in frames {
      let deadline = origin &+ UInt64(frame.tick + 1) &* period
      var dropped = frame.commitEnd > deadline ? 1 : 0
      if let previousTick, !frame.afterResume { dropped += max(0, Int(frame.tick - previousTick) - 1) }
      result.append(dropped)
      previousTick = frame.tick
    }
    return result
  }

  /// Dropped frames per phase (each drop belongs to the phase of the frame it was counted at).
  static func byPhase(_ frames: [FrameRecord], origin: UInt64, period: UInt64) -> [Phase: Int] {
    var result: [Phase: Int] = [:]
    for (frame, dropped) in zip(frames, perFrame(frames, origin: origin, period: period)) {
      result[frame.phase, default: 0] += dropped
    }
    return result
  }

  /// Milliseconds from each frame's vsync to its commit's end (over one period means it was dropped).
  static func commitLatencies(_ frames: [FrameRecord], origin: UInt64, period: UInt64) -> [Double] {
    frames.map { Clock.milliseconds(from: origin &+ UInt64($0.tick) &* period, to: $0.commitEnd) }
  }
}
