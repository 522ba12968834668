/// Turns display-link callbacks into dropped frames and frame intervals.
///
/// **Dropped frames.** Each callback is assigned to the vsync tick it serves: the tick at or before its
/// start, where a callback up to ¾ of a period late still serves its tick (its fixed work, ¼ period, can
/// still finish before the next vsync) and one up to ¼ early serves the coming one. Each tick with no
/// callback between two consecutive callbacks is one dropped frame — "each refresh period missed between
/// two display-link callbacks". No interval is counted across a pause of the display link.
struct FrameAnalysis {
  /// One measured interval.
  struct Interval {
    /// The later callback's start.
    let time: UInt64
    /// Milliseconds since the previous callback.
    let milliseconds: Double
    /// Refresh periods missed before the later callback.
    let dropped: Int
  }

  /// The intervals between consecutive callbacks of one running stretch of the display link.
  static func intervals(
    starts: [(start: UInt64, afterResume: Bool)], link: (origin: UInt64, period: UInt64)
  ) -> [Interval] {
    var result: [Interval] = []
    result.reserveCapacity(starts.count)
    var previous: (start: UInt64, tick: Int64)?
    for sample in starts {
      let tick = servedTick(sample.start, origin: link.origin, period: link.period)
      if let previous, !sample.afterResume {
        let dropped = max(0, Int(tick - previous.tick) - 1)
        result.append(
          Interval(
            time: sample.start, milliseconds: Clock.milliseconds(from: previous.start, to: sample.start),
            dropped: dropped))
      }
      previous = (sample.start, tick)
    }
    return result
  }

  /// The vsync tick a callback starting at `start` serves.
  static func servedTick(_ start: UInt64, origin: UInt64, period: UInt64) -> Int64 {
    let offset = Int64(bitPattern: start &- origin)
    let quarter = Int64(period / 4)
    return (offset + quarter) / Int64(period)
  }

  /// The `p`-th percentile (0...1) by nearest rank; 0 for no values.
  static func percentile(_ values: [Double], _ p: Double) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let rank = Int((p * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
  }
}
