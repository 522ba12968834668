import Foundation

/// A scripted scroll: where the content offset is at each frame, and when the motion ends.
struct ScrollMotion: Sendable {
  /// The kinds of motion in the scenario.
  enum Kind: Sendable {
    /// A release at `velocity` pt/s, decelerating by `UIScrollView.DecelerationRate` `rate` per ms, ending
    /// when the velocity falls below `stopVelocity` pt/s.
    case fling(velocity: Double, rate: Double, stopVelocity: Double)
    /// A finger moving at `speed` pt/s for `duration` s, then lifted without velocity.
    case drag(speed: Double, duration: Double)
  }

  /// The motion.
  let kind: Kind
  /// The offset when it began.
  let startOffset: Double
  /// When it began, in clock nanoseconds.
  let startTime: UInt64

  /// The offset at `time` and whether the motion is over.
  func offset(at time: UInt64) -> (offset: Double, finished: Bool) {
    let t = Double(time &- startTime) / 1e9
    switch kind {
    case .fling(let velocity, let rate, let stopVelocity):
      // UIScrollView: v(t) = v0 · rate^(t in ms); distance = v0 (1 − rate^t_ms) / (−ln rate) per ms.
      let ms = t * 1000
      let perMs = -log(rate)
      let end = log(stopVelocity / abs(velocity)) / log(rate)
      let clamped = min(ms, end)
      let distance = (velocity / 1000) * (1 - pow(rate, clamped)) / perMs
      return (startOffset + distance, ms >= end)
    case .drag(let speed, let duration):
      let clamped = min(t, duration)
      return (startOffset + speed * clamped, t >= duration)
    }
  }

  /// Where the motion stops (before the view clamps it): a fling's end is known at its release.
  var endOffset: Double {
    switch kind {
    case .fling(let velocity, let rate, let stopVelocity):
      let end = log(stopVelocity / abs(velocity)) / log(rate)
      return startOffset + (velocity / 1000) * (1 - pow(rate, end)) / -log(rate)
    case .drag(let speed, let duration):
      return startOffset + speed * duration
    }
  }

  /// The release velocity (pt/s) that makes a fling at `rate` travel `distance` points (negative: upwards)
  /// before it stops at `stopVelocity`.
  static func flingVelocity(distance: Double, rate: Double, stopVelocity: Double) -> Double {
    let speed = abs(distance) * 1000 * -log(rate) + stopVelocity
    return distance < 0 ? -speed : speed
  }

  /// How long such a fling lasts, in seconds.
  static func flingDuration(velocity: Double, rate: Double, stopVelocity: Double) -> Double {
    log(stopVelocity / abs(velocity)) / log(rate) / 1000
  }
}
