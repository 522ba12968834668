/// The scenario's phases, in order.
enum Phase: String, CaseIterable, Sendable {
  /// A fling downwards, decelerating to a stop (tracking mode: the deceleration is tracked too).
  case fling
  /// The dense profile's second fling, back up (tracking mode).
  case flingBack
  /// Rest until every visible cell shows its images (default mode); the reload profile's reconfigure of
  /// the visible rows happens here.
  case fill
  /// A slow drag (tracking mode).
  case slowDrag
  /// Rest until the screen is complete and the strategy has nothing queued (default mode).
  case rest
  /// Nothing queued, nothing moving: the loop should sleep (default mode).
  case idle

  /// Whether the list moves in this phase (blank cells are integrated over these).
  var isMotion: Bool { self == .fling || self == .flingBack || self == .slowDrag }
}
