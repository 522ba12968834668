/// What a pass does next: the pure decision behind each step of `QueueCore.serve`.
///
/// `serve` only carries the answers out (runs the task, passes over it, ends the pass, asks for a pass
/// later); every policy question — budgets, scrolling, frame admission, probing, passing a blocked head —
/// is answered here, from values, so that tests drive every case without a run loop (as the state machines
/// of swift-async-algorithms return actions).
///
/// **Order.** Tasks run in FIFO order, with one exception during a scroll: a task that can never run in
/// a tracking pass — its measured or estimated cost does not fit in a whole frame — keeps its place and
/// waits for an idle pass, and the tasks behind it run meanwhile as if it were not there (the first of them
/// may be probed at a frame's start); a search passes over at most ``lookahead`` such tasks. A prepared result's
/// apply is never passed over so: it is probed at a frame's start instead (see ``next(_:)``). In idle passes a
/// task that does not fit the time left ends the pass, and runs first at the next frame's start; one that
/// fits no frame at all runs as the first task of a pass at a frame's start, costing one late frame.
enum PassPlanner {
  /// How many tasks that never fit a frame one search of a tracking pass passes over before it ends.
  static let lookahead = 32

  /// One step's answer.
  enum Step: Equatable {
    /// Start the candidate. `probes`: its cost was never measured; this run measures it.
    case run(probes: Bool)
    /// Leave the candidate in its place and consider the next runnable task behind it.
    case passOver
    /// End the pass.
    case end(EndReason)
    /// End the pass; the next one should come once `nanoseconds` have passed (the frame deadline, or the
    /// moment a passed deadline counts as a stopped clock).
    case wait(UInt64)
  }

  /// Why a pass ended.
  enum EndReason: Equatable {
    /// No runnable task is left (the rest, if any, are parked or newer than the pass).
    case nothingRunnable
    /// A budget (the queue's or the scheduler's) is spent, or the candidate's prediction does not fit it.
    case budgetSpent
    /// A tracking pass of a queue that pauses while scrolling (``IdleQueue/Scrolling/pause``).
    case notWhileScrolling
    /// A tracking pass of a queue that fits its work to frames, with no frame known.
    case noFrameKnown
  }

  /// How a queue works during a scroll (``IdleQueue/Configuration/scrolling``).
  enum Scrolling: Equatable {
    /// ``IdleQueue/Scrolling/pause``: nothing runs in tracking passes.
    case pause
    /// ``IdleQueue/Scrolling/fitToFrames(timeUntilNextFrame:)``: the frame clock decides.
    case fitToFrames
  }

  /// A runnable task offered to the step.
  struct Candidate: Equatable {
    /// Whether it is a slice of a resumable task (predicted apart).
    var costKind: CostPredictor.Kind
    /// The caller's estimate, nanoseconds.
    var estimate: UInt64?
    /// How many tasks were passed over to reach it (since the last task ran). Tasks passed over never run
    /// in a tracking pass, so the first task reached past them counts as the first of the pass.
    var passedOver = 0
  }

  /// Everything a step depends on.
  struct Input {
    var kind: IdlePassKind
    /// The oldest runnable task not passed over; `nil` if none.
    var candidate: Candidate?
    var predictor: CostPredictor
    var own: BudgetMeter
    var total: BudgetMeter?
    var now: UInt64
    /// The frame clock's reading; `nil` for a queue without a frame clock.
    var frame: FrameReading?
    var scrolling: Scrolling
  }

  /// Whether the pass ends before it looks for a task (so stale tasks are left for a later pass): in a
  /// tracking pass of a queue that does no work while scrolling, or with a budget spent. `hasFrameClock`:
  /// whether the queue has a frame clock at all.
  static func endsBeforeLooking(
    kind: IdlePassKind, scrolling: Scrolling, hasFrameClock: Bool, own: BudgetMeter, total: BudgetMeter?,
    now: UInt64
  ) -> EndReason? {
    if kind == .tracking {
      if scrolling == .pause { return .notWhileScrolling }
      if !hasFrameClock { return .noFrameKnown }
    }
    guard own.allowsAnother(now: now), total?.allowsAnother(now: now) ?? true else { return .budgetSpent }
    return nil
  }

  /// The next step of a pass, once ``endsBeforeLooking(kind:scrolling:hasFrameClock:own:total:now:)`` let
  /// it look.
  static func next(_ input: Input) -> Step {
    let tracking = input.kind == .tracking
    if let reason = endsBeforeLooking(
      kind: input.kind, scrolling: input.scrolling, hasFrameClock: input.frame != nil, own: input.own,
      total: input.total, now: input.now)
    {
      return .end(reason)
    }
    if tracking, input.frame == .noFrame { return .end(.noFrameKnown) }
    guard let candidate = input.candidate else { return .end(.nothingRunnable) }
    let predicted = input.predictor.predict(candidate.costKind, estimate: candidate.estimate)
    // During a scroll a measured task that fits no frame never runs: let the tasks behind it go — before its
    // prediction is charged to the budget, which it will never spend in this pass.
    //
    // Not an apply: its prediction is mostly its share of the commit, learned from commits that vary by
    // milliseconds, and the frame length is estimated from the time left the clock reads, which a busy main
    // thread keeps short — one long commit after an apply made every apply "fit no frame" for the rest of a
    // fling, and with no apply run no commit could teach otherwise (FeedDemo's `photos` at 120 Hz: 9.7 blank
    // cell·s in 2 runs of 3, against 1.2–1.4). An apply that seems to fit no frame is tried instead as the first
    // task of a pass at a frame's start, as a cost never measured is: it runs, and the next commit measures it.
    let known = input.predictor.knows(candidate.costKind, estimate: candidate.estimate)
    var measuresAgain = false
    if tracking, known, case .frame(_, let length) = input.frame,
      FrameAdmission.neverFits(predicted: predicted, frameLength: length)
    {
      guard candidate.costKind == .apply else {
        return candidate.passedOver < lookahead ? .passOver : .end(.nothingRunnable)
      }
      measuresAgain = true
    }
    guard input.own.allowsAnother(now: input.now, predicted: predicted),
      input.total?.allowsAnother(now: input.now, predicted: predicted) ?? true
    else { return .end(.budgetSpent) }
    guard let frame = input.frame else { return .run(probes: false) }
    // While a scroll is tracked, a cost never measured (and not estimated) is treated as never fitting: it
    // is tried as the first task of a pass at a frame's start (at least half the frame left), which
    // measures it. Waiting for an idle pass instead would leave every row blank through a fling.
    let probes = tracking && (!known || measuresAgain)
    switch frame {
    case .noFrame:
      // No frame pending (or a stopped clock), in an idle pass (a tracking pass ended above): nothing bounds
      // the task.
      return .run(probes: false)
    case .late(let retryIn, let nextFrameIn):
      // The callback of a vsync that passed is due. A prepared result's apply (setting a view's image) that
      // fits before the frame that callback asks for runs now: it is committed with that frame, where waiting
      // for the callback would put it in the one after — blank time, and no frame saved. Other work waits:
      // what it delays is the callback itself.
      if candidate.costKind == .apply, let nextFrameIn, !probes,
        FrameAdmission.fits(predicted: predicted, timeLeft: nextFrameIn)
      {
        return .run(probes: false)
      }
      return .wait(min(retryIn, UInt64(max(nextFrameIn ?? Int64(retryIn), 0))))
    case .frame(let timeLeft, let length):
      let isFirst = input.own.tasksRun == 0 && (input.total?.tasksRun ?? 0) == 0
      let decision = FrameAdmission.decide(
        predicted: probes ? UInt64.max : predicted, timeLeft: timeLeft, frameLength: length,
        isFirstInPass: isFirst && (!tracking || probes))
      switch decision {
      case .start: return .run(probes: probes)
      case .wait(let wait): return .wait(wait)
      }
    }
  }
}
