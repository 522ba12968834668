/// The lower bound of blank cell·s: the blank time no strategy can beat — given the cores the machine has —
/// if it draws a row's images only once the row has appeared (no prefetching: the table hands a row over in
/// `cellForRow`, when it enters the screen) and does not draw inside the frame that shows the row (`sync`
/// does, and pays in dropped frames instead: it beats this bound, and only it may).
///
/// **Statement.** Let V(t) be the images of the rows on screen at time t that were never on screen before
/// the first one of the scenario (the first screen is drawn before the measurement), each released at its
/// row's first appearance r and needing one draw of `drawNanos` (the fastest draw of that image measured in
/// isolation) on one of `workers` cores. At t at most D(t) of them can be finished, where D(t) is the count
/// of V(t) jobs the greedy schedule (release order, each on the core free first) finishes by t — for jobs
/// of equal length that schedule finishes, for every k, its k-th job no later than any schedule does, and
/// ignoring every other job (rows already gone, the main thread's frames) only makes cores freer. So
/// blank(t) ≥ (|V(t)| − D(t)) / imagesPerRow, and integrating over the motion phases gives the bound.
/// A cached result counts as drawn at its first appearance, so a row shown again (`flingBack`) needs no
/// new draw: the bound is reached only by a strategy that keeps every result.
enum BlankBound {
  /// The rows on screen from `time` until the next sample (or the end of its motion phase).
  struct Sample: Sendable, Equatable {
    var time: UInt64
    var rows: ClosedRange<Int>
  }

  /// One motion phase: its visibility samples, in time order, and its end.
  struct Span: Sendable, Equatable {
    var samples: [Sample]
    var end: UInt64
  }

  /// The bound in cell·s over `spans` (in time order), with `initialRows` drawn before the first span.
  static func cellSeconds(
    spans: [Span], initialRows: ClosedRange<Int>?, imagesPerRow: Int, drawNanos: UInt64, workers: Int
  ) -> Double {
    guard drawNanos > 0, workers > 0, imagesPerRow > 0 else { return 0 }
    var firstSeen: [Int: UInt64] = [:]
    var imageNanos = 0.0
    for span in spans {
      for (index, sample) in span.samples.enumerated() {
        for row in sample.rows where firstSeen[row] == nil && initialRows?.contains(row) != true {
          firstSeen[row] = sample.time
        }
        let end = index + 1 < span.samples.count ? span.samples[index + 1].time : span.end
        guard end > sample.time else { continue }
        let releases = sample.rows.compactMap { firstSeen[$0] }.sorted()
        for finish in greedyFinishTimes(
          releases: releases, copies: imagesPerRow, drawNanos: drawNanos, workers: workers)
        where finish > sample.time {
          imageNanos += Double(min(finish, end) - sample.time)
        }
      }
    }
    return imageNanos / 1e9 / Double(imagesPerRow)
  }

  /// Finish times of `copies` jobs per release in `releases` (sorted), each `drawNanos` long, on `workers`
  /// cores free from the start: each job, in release order, on the core that is free first.
  static func greedyFinishTimes(releases: [UInt64], copies: Int, drawNanos: UInt64, workers: Int) -> [UInt64] {
    var free = [UInt64](repeating: 0, count: workers)
    var finishes: [UInt64] = []
    finishes.reserveCapacity(releases.count * copies)
    for release in releases {
      for _ in 0..<copies {
        var core = 0
        for candidate in 1..<free.count where free[candidate] < free[core] { core = candidate }
        let finish = max(release, free[core]) + drawNanos
        free[core] = finish
        finishes.append(finish)
      }
    }
    return finishes
  }
}
