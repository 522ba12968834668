/// Predicts how long the next task (or slice) will take: an exponential moving average of measured
/// durations per ``Kind``, the kinds a queue tells apart for free (a tiny keyed task must not make an
/// unmeasured draw look cheap). A caller's `estimatedCost` wins; before any measurement the prediction is 0.
///
/// For a slice that sizes itself to `timeRemaining` the queue records its longest stretch between clock reads
/// (one step), not the whole slice. Pure value: durations are nanoseconds from the injected clock.
struct CostPredictor {
  /// The kinds of work predicted separately.
  enum Kind: Int {
    /// A one-shot task added by key (or from another thread).
    case task = 0
    /// A resumable task's slice.
    case slice = 1
    /// A one-shot task bound to a cell.
    case cellTask = 2
    /// The main-thread half of a prepared task: applying a result prepared off the main thread.
    case apply = 3
    /// A slice of a main-thread preparation: predicted by its own preparation's measure, given as the estimate
    /// (this average is never recorded, so a preparation never measured is unknown).
    case mainPreparation = 4
  }

  /// The weight of the newest measurement: follows a change within a few tasks, yet one outlier moves the
  /// prediction by only a quarter of its excess.
  static let weight = 0.25

  private var task: Double?
  private var slice: Double?
  private var cellTask: Double?
  private var apply: Double?
  private var mainPreparation: Double?
  /// The commit's duration after turns that applied nothing, and what each applied result added to it.
  private var commitBaseline: Double?
  private var commitPerApply: Double?

  private func average(_ kind: Kind) -> Double? {
    switch kind {
    case .task: return task
    case .slice: return slice
    case .cellTask: return cellTask
    case .apply: return apply
    case .mainPreparation: return mainPreparation
    }
  }

  /// The prediction for the next task of `kind`, in nanoseconds; the caller's `estimate` wins. An apply's
  /// includes its share of the next commit.
  func predict(_ kind: Kind, estimate: UInt64?) -> UInt64 {
    if let estimate { return estimate }
    guard var average = average(kind) else { return 0 }
    if kind == .apply { average += commitPerApply ?? 0 }
    return UInt64(min(average.rounded(), Double(UInt64.max / 4)))
  }

  /// Records a commit of `duration` nanoseconds after a pass that applied `applies` results: the commit copies
  /// each new bitmap, a cost the apply does not show. Its excess over commits after no apply is shared among them.
  mutating func recordCommit(duration: UInt64, applies: Int) {
    let measured = Double(duration)
    guard applies > 0 else {
      commitBaseline = Self.blend(commitBaseline, measured)
      return
    }
    let excess = max(0, measured - (commitBaseline ?? 0)) / Double(applies)
    commitPerApply = Self.blend(commitPerApply, excess)
  }

  /// Whether a task of `kind` has an estimate or at least one measurement.
  func knows(_ kind: Kind, estimate: UInt64?) -> Bool {
    estimate != nil || average(kind) != nil
  }

  mutating func record(_ kind: Kind, duration: UInt64) {
    let measured = Double(duration)
    switch kind {
    case .task: task = Self.blend(task, measured)
    case .slice: slice = Self.blend(slice, measured)
    case .cellTask: cellTask = Self.blend(cellTask, measured)
    case .apply: apply = Self.blend(apply, measured)
    case .mainPreparation: mainPreparation = Self.blend(mainPreparation, measured)
    }
  }

  /// `old` moved towards `value` by ``weight``; `value` when there is none.
  private static func blend(_ old: Double?, _ value: Double) -> Double {
    old.map { $0 + weight * (value - $0) } ?? value
  }
}
