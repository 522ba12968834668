/// What a pass does next: the pure decision behind each step of `QueueCore.serve`, which only carries the
/// answers out. Every policy question is answered here, from values, so tests drive every case without a run loop.
///
/// Tasks run in FIFO order, except during a scroll: a task whose known cost fits no whole frame waits for an
/// idle pass while the tasks behind it run (at most ``lookahead`` are passed over); an apply is probed at a
/// frame's start instead (see ``next(_:)``). In idle passes a task that fits no frame runs first in a pass at a
/// frame's start, costing one late frame.
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
    /// End the pass; the next one should come once `nanoseconds` have passed.
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
    /// How many tasks were passed over to reach it since the last task ran; the first task reached past them
    /// counts as the first of the pass.
    var passedOver = 0
  }

  /// Everything a step depends on.
  struct Input {
    var kind: IdlePassKind
    /// The oldest runnable task not passed over; `nil` if none.
    var candidate: Candidate?
    var predictor: CostPredictor
    var own: BudgetMeter
    var now: UInt64
    /// The frame clock's reading; `nil` for a queue without a frame clock.
    var frame: FrameReading?
    var scrolling: Scrolling
  }

  /// The next step in time no runnable task wants — a main-thread prefetch's slice, `candidate`: once its cost is
  /// measured, it never costs a frame. It runs when no frame is pending (an idle pass, or a queue without a frame
  /// clock, within the budget), or during a frame only when its measured cost fits the time left; otherwise the
  /// pass ends until the next frame.
  static func nextInSlack(_ input: Input) -> Step {
    if let reason = endsBeforeLooking(
      kind: input.kind, scrolling: input.scrolling, hasFrameClock: input.frame != nil, own: input.own,
      now: input.now)
    {
      return .end(reason)
    }
    guard let candidate = input.candidate else { return .end(.nothingRunnable) }
    let predicted = input.predictor.predict(candidate.costKind, estimate: candidate.estimate)
    guard input.own.allowsAnother(now: input.now, predicted: predicted) else { return .end(.budgetSpent) }
    switch input.frame {
    case nil:
      return .run(probes: false)
    case .noFrame?:
      return input.kind == .tracking ? .end(.noFrameKnown) : .run(probes: false)
    case .late(let retryIn, let nextFrameIn)?:
      return .wait(min(retryIn, UInt64(max(nextFrameIn ?? Int64(retryIn), 0))))
    case .frame(let timeLeft, let length)?:
      if input.predictor.knows(candidate.costKind, estimate: candidate.estimate) {
        if FrameAdmission.fits(predicted: predicted, timeLeft: timeLeft) { return .run(probes: false) }
        // A slice longer than any frame would wait forever while its own pending keeps the frames coming: it runs
        // as such a task does, first in an idle pass at a frame's start, costing that frame.
        let startsFrame = input.kind == .idle && input.own.tasksRun == 0 && timeLeft >= Int64(length / 2)
        guard length > 0, FrameAdmission.neverFits(predicted: predicted, frameLength: length), startsFrame else {
          return .wait(UInt64(max(timeLeft, 0)))
        }
        return .run(probes: false)
      }
      // Unmeasured (a visible row's step of the same kind usually measures it first): probed at a known frame's
      // start in an idle pass, as a task would be, so that a display link ticking for it does not wait forever.
      guard input.kind == .idle, length > 0, timeLeft >= Int64(length / 2) else {
        return .wait(UInt64(max(timeLeft, 0)))
      }
      return .run(probes: true)
    }
  }

  /// Why the pass ends before it looks for a task (leaving stale tasks for a later pass), if it does.
  static func endsBeforeLooking(
    kind: IdlePassKind, scrolling: Scrolling, hasFrameClock: Bool, own: BudgetMeter, now: UInt64
  ) -> EndReason? {
    if kind == .tracking {
      if scrolling == .pause { return .notWhileScrolling }
      if !hasFrameClock { return .noFrameKnown }
    }
    guard own.allowsAnother(now: now) else { return .budgetSpent }
    return nil
  }

  /// The next step of a pass, once ``endsBeforeLooking(kind:scrolling:hasFrameClock:own:now:)`` let
  /// it look.
  static func next(_ input: Input) -> Step {
    let tracking = input.kind == .tracking
    if let reason = endsBeforeLooking(
      kind: input.kind, scrolling: input.scrolling, hasFrameClock: input.frame != nil, own: input.own,
      now: input.now)
    {
      return .end(reason)
    }
    if tracking, input.frame == .noFrame { return .end(.noFrameKnown) }
    guard let candidate = input.candidate else { return .end(.nothingRunnable) }
    let predicted = input.predictor.predict(candidate.costKind, estimate: candidate.estimate)
    // During a scroll a measured task that fits no frame never runs: pass over it before its prediction is
    // charged to the budget. Not an apply: its prediction is mostly a noisy share of the commit, so one long
    // commit could make every apply "fit no frame" for a whole fling with nothing to correct it. It is probed
    // at a frame's start instead, and the next commit measures it again.
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
    guard input.own.allowsAnother(now: input.now, predicted: predicted) else { return .end(.budgetSpent) }
    guard let frame = input.frame else { return .run(probes: false) }
    // During a scroll an unknown cost is probed at a frame's start: waiting for an idle pass would leave
    // every row blank through a fling.
    let probes = tracking && (!known || measuresAgain)
    switch frame {
    case .noFrame:
      // No frame pending, in an idle pass: nothing bounds the task.
      return .run(probes: false)
    case .late(let retryIn, let nextFrameIn):
      // A passed vsync's callback is due. An apply that fits before the next frame runs now, to be committed
      // with it rather than one frame later; other work waits, as it would delay the callback.
      if candidate.costKind == .apply, let nextFrameIn, !probes,
        FrameAdmission.fits(predicted: predicted, timeLeft: nextFrameIn)
      {
        return .run(probes: false)
      }
      return .wait(min(retryIn, UInt64(max(nextFrameIn ?? Int64(retryIn), 0))))
    case .frame(let timeLeft, let length):
      let isFirst = input.own.tasksRun == 0
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
