/// Predicts how long the next task (or slice) will take, from how long earlier ones took.
///
/// An exponentially weighted moving average of measured durations, kept separately for one-shot tasks and
/// for resumable slices (the two kinds a queue can tell apart for free: slices of one job are alike, and a
/// draw is not a slice). A caller's `estimatedCost` wins over the average. Before any measurement the
/// prediction is 0: the queue knows nothing, and admits the task as it did before it predicted anything.
///
/// A slice that reads `timeRemaining` sizes itself to the time left (steps while they fit), so the whole
/// slice's duration says more about the time it was given than about its cost; the queue records such a
/// slice's longest stretch without looking at the clock (from its start, between reads, to its end) —
/// what it may run, once started, before it checks again: one step.
///
/// Pure value: durations come in as nanoseconds from the injected clock, so tests state them exactly.
struct CostPredictor {
  /// The kinds of work predicted separately.
  enum Kind: Int {
    case task = 0
    case slice = 1
  }

  /// The weight of the newest measurement: 1/4 follows a change within a few tasks, yet one outlier moves
  /// the prediction by only a quarter of its excess.
  static let weight = 0.25

  private var averages: (task: Double?, slice: Double?) = (nil, nil)

  /// The prediction for the next task of `kind`, in nanoseconds; `estimate` (the caller's) wins.
  func predict(_ kind: Kind, estimate: UInt64?) -> UInt64 {
    if let estimate { return estimate }
    let average = kind == .task ? averages.task : averages.slice
    return average.map { UInt64($0.rounded()) } ?? 0
  }

  /// Whether a task of `kind` has a prediction: the caller's estimate, or at least one measurement.
  func knows(_ kind: Kind, estimate: UInt64?) -> Bool {
    estimate != nil || (kind == .task ? averages.task : averages.slice) != nil
  }

  /// Records that a task of `kind` took `duration` nanoseconds.
  mutating func record(_ kind: Kind, duration: UInt64) {
    let measured = Double(duration)
    func blend(_ old: Double?) -> Double { old.map { $0 + Self.weight * (measured - $0) } ?? measured }
    switch kind {
    case .task: averages.task = blend(averages.task)
    case .slice: averages.slice = blend(averages.slice)
    }
  }
}
