/// Blank cells integrated over time: visible cells' missing images (a cell missing all its images counts
/// 1), held constant between samples, summed as cell-seconds. The feed samples it at every frame and every
/// draw while the list moves, so the fling's slow tail counts as much as the slow drag.
struct BlankIntegral: Sendable {
  /// Cell-seconds so far.
  private(set) var cellSeconds = 0.0
  private var last: (time: UInt64, blank: Double)?

  /// Creates an empty integral.
  init() {}

  /// Records that `blank` cells are blank from `time` on (the previous value held until then).
  mutating func sample(at time: UInt64, blank: Double) {
    close(at: time)
    last = (time, blank)
  }

  /// Ends the integration at `time` (a later `sample` starts it again).
  mutating func stop(at time: UInt64) {
    close(at: time)
    last = nil
  }

  private mutating func close(at time: UInt64) {
    if let last, time > last.time { cellSeconds += last.blank * Double(time - last.time) / 1e9 }
  }
}
