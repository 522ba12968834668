import Foundation
import IdleWork

extension WorkerPool {
  // MARK: Main-thread preparations

  // A queue's main-thread preparations live in a pool of their own made `byHand`, so that the bookkeeping of
  // workers' preparations (waiting, wanted, dropped, cancelled, arrived) serves them unchanged; the queue's passes
  // choose, start and finish them with the calls below.

  /// What a preparation started by hand may do now.
  enum ByHand {
    /// Run its next slice.
    case run
    /// Stop: nothing waits for its result any more, or its queue ended.
    case cancelled
    /// Nothing: it is not waiting to start, nor running.
    case none
  }

  /// Starts `run` on the calling thread if it waits and a request wants it; says whether it may run a slice.
  func startByHand(_ run: PreparationRun) -> ByHand {
    lock.lock()
    defer { lock.unlock() }
    if run.phase == .running { return run.isCancelledLocked() ? .cancelled : .run }
    guard run.phase == .waiting, run.wanted > 0, !run.line.isClosed,
      let index = waiting.firstIndex(where: { $0 === run })
    else { return .none }
    markRunningLocked(waiting.remove(at: index))
    return .run
  }

  /// The preparations under way on the calling thread that nothing waits for any more: their next step only ends them.
  func abandonedByHand(of line: PreparationLine) -> [PreparationRun] {
    lock.lock()
    defer { lock.unlock() }
    return line.runsUnderWay.filter { $0.live == 0 }
  }

  /// The preparation to run next on the calling thread, with whether a visible row's request wants it; `nil` if none
  /// waits. It is only chosen: ``startByHand(_:)`` starts it once the pass admits it. Those in `passedOver` are
  /// not chosen. A visible row's under way comes first; then a visible row's the pick rule chooses; then any under
  /// way (a prefetch's, or a row's gone off screen); then the prefetch the pick rule chooses.
  func nextByHand(
    of line: PreparationLine, passingOver passedOver: [PreparationRun] = []
  ) -> (run: PreparationRun, isVisible: Bool)? {
    lock.lock()
    defer { lock.unlock() }
    func isEligible(_ run: PreparationRun) -> Bool { !passedOver.contains { $0 === run } }
    let running = line.runsUnderWay.filter(isEligible)
    if let visible = running.first(where: { $0.urgent > 0 }) { return (visible, true) }
    let chosen = chooseLocked(passingOver: passedOver).map { waiting[$0.index] }
    if let chosen, chosen.urgent > 0 { return (chosen, true) }
    if let running = running.first { return (running, false) }
    return chosen.map { ($0, false) }
  }

  /// Ends every preparation of `line` under way on the calling thread (its queue ended); returns them, for the caller
  /// to release what their work captured.
  func endAllByHand(of line: PreparationLine) -> [PreparationRun] {
    lock.lock()
    defer { lock.unlock() }
    let ended = line.runsUnderWay
    for run in ended { endRunLocked(run, succeeded: false) }
    return ended
  }

  /// A preparation started by hand ended with `outcome`: it arrives as a worker's would.
  func finishByHand(_ run: PreparationRun, _ outcome: Result<any Sendable, any Error>) {
    lock.lock()
    defer { lock.unlock() }
    let line = run.line
    guard run.phase == .running else { return }
    endRunLocked(run, succeeded: (try? outcome.get()) != nil)
    guard !line.isClosed else { return }
    run.outcome = outcome
    line.arrivals.append(run)
  }

  /// Whether a preparation of `line` is under way or could start now (a prefetch only with room for its result). Takes
  /// the lock.
  func hasStartableWork(of line: PreparationLine) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    return line.running > 0
      || waiting.contains {
        $0.line === line && $0.phase == .waiting && $0.wanted > 0 && !line.isClosed
          && ($0.urgent > 0 || line.prefetchFits($0))
      }
  }

  /// `line`'s arrivals were taken in: a prefetch they held back may start, on as many workers as the line may use.
  func arrivalsTakenLocked(_ line: PreparationLine) {
    guard line.prefetchWaitsForTakeIn else { return }
    line.prefetchWaitsForTakeIn = false
    startWorkerLocked()
  }
}
