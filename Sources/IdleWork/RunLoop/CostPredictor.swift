/// Predicts how long the next task (or slice) will take, from how long earlier ones took.
///
/// An exponentially weighted moving average of measured durations, kept separately for one-shot tasks,
/// one-shot cell tasks and resumable slices (the kinds a queue can tell apart for free: slices of one job
/// are alike, a draw is not a slice, and a cell's draw is not the app's bookkeeping task — one tiny measured
/// keyed task must not make a never-measured draw look known and cheap during a scroll). Tasks of one kind
/// share one average: give `estimatedCost` to a task that costs far more or less than its kind's others.
/// A caller's `estimatedCost` wins over the average. Before any measurement the
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
    /// A one-shot task added by key (or from another thread, or by `perform`).
    case task = 0
    /// A resumable task's slice.
    case slice = 1
    /// A one-shot task bound to a cell.
    case cellTask = 2
    /// The main-thread half of a prepared task: applying a result prepared off the main thread.
    case apply = 3
  }

  /// The weight of the newest measurement: 1/4 follows a change within a few tasks, yet one outlier moves
  /// the prediction by only a quarter of its excess.
  static let weight = 0.25

  private var task: Double?
  private var slice: Double?
  private var cellTask: Double?
  private var apply: Double?
  /// The commit's duration after turns that applied nothing, and what each applied result added to it.
  private var commitBaseline: Double?
  private var commitPerApply: Double?

  private func average(_ kind: Kind) -> Double? {
    switch kind {
    case .task: return task
    case .slice: return slice
    case .cellTask: return cellTask
    case .apply: return apply
    }
  }

  /// The prediction for the next task of `kind`, in nanoseconds; `estimate` (the caller's) wins. An
  /// apply's prediction includes what it adds to the next commit (``recordCommit(duration:applies:)``).
  func predict(_ kind: Kind, estimate: UInt64?) -> UInt64 {
    if let estimate { return estimate }
    guard var average = average(kind) else { return 0 }
    if kind == .apply { average += commitPerApply ?? 0 }
    return UInt64(min(average.rounded(), Double(UInt64.max / 4)))
  }

  /// Records that the commit before a pass took `duration` nanoseconds after the previous pass applied
  /// `applies` prepared results: the commit copies each newly set bitmap to the render server, a cost the
  /// apply itself does not show. Turns that applied nothing set the baseline; the excess over it, shared
  /// among the results applied, is added to the prediction of each apply.
  mutating func recordCommit(duration: UInt64, applies: Int) {
    let measured = Double(duration)
    guard applies > 0 else {
      commitBaseline = Self.blend(commitBaseline, measured)
      return
    }
    let excess = max(0, measured - (commitBaseline ?? 0)) / Double(applies)
    commitPerApply = Self.blend(commitPerApply, excess)
  }

  /// Whether a task of `kind` has a prediction: the caller's estimate, or at least one measurement.
  func knows(_ kind: Kind, estimate: UInt64?) -> Bool {
    estimate != nil || average(kind) != nil
  }

  /// Records that a task of `kind` took `duration` nanoseconds.
  mutating func record(_ kind: Kind, duration: UInt64) {
    let measured = Double(duration)
    switch kind {
    case .task: task = Self.blend(task, measured)
    case .slice: slice = Self.blend(slice, measured)
    case .cellTask: cellTask = Self.blend(cellTask, measured)
    case .apply: apply = Self.blend(apply, measured)
    }
  }

  /// `old` moved towards `value` by ``weight`` (an exponential moving average); `value` when there is none.
  private static func blend(_ old: Double?, _ value: Double) -> Double {
    old.map { $0 + weight * (value - $0) } ?? value
  }
}
