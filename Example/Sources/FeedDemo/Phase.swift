/// The scenario's phases, in order.
enum Phase: String, CaseIterable, Sendable {
  /// A fling through about 100 rows, decelerating to a stop (tracking mode).
  case fling
  /// Rest until every visible cell has its images and the fade-ins are over (default mode).
  case fill
  /// A slow drag, one row per second (tracking mode).
  case slowDrag
  /// Rest until the screen is complete and the strategy has nothing queued (default mode).
  case rest
  /// Nothing queued, nothing moving: the loop should sleep (default mode).
  case idle
}
