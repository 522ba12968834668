import Foundation
import IdleWork

/// Main-thread preparations: preparations whose work runs in the queue's passes, a slice per step, because it is not
/// thread-safe. They live on a line of their own (``QueuePreparation/mainLine``), so sharing, the cache, staleness,
/// prefetching and the accounting are a worker preparation's; only where the work runs differs.
///
/// They run when a pass finds no runnable task, a slice at a time (``WorkerPool/nextByHand(of:)`` says the order):
/// visible rows' first, the one that appeared last first (it stays on screen longest), then preparations under way for
/// rows gone off screen, then prefetches, nearest first. A visible row's is admitted like a task, within the pass
/// budget and the frame admission; a prefetch's only in time it cannot cost a frame (``PassPlanner/nextInSlack(_:)``).
/// Results are applied by their tasks, which the pass runs before the next slice.
extension QueuePreparation {
  /// Runs one slice of `run`, started here if it waits; once the work returns its value (or throws, or nothing
  /// waits for it any more) the outcome is taken in at once, as a worker's would be. Returns whether a slice of the
  /// app's code ran (not when the preparation was only ended, or could not start).
  func runSlice(of run: PreparationRun, timeRemaining: () -> TimeInterval) -> Bool {
    let pool = mainLine.pool
    switch pool.startByHand(run) {
    case .none:
      return false
    case .cancelled:
      finish(run, .failure(CancellationError()))
      return false
    case .run:
      break
    }
    if run.slices == nil { run.slices = run.mainThreadSlices() }
    let outcome = Result { try run.slices!.next(timeRemaining) }
    switch outcome {
    case .success(nil):
      return true
    case .success(let value?):
      finish(run, .success(value))
    case .failure(let error):
      finish(run, .failure(error))
    }
    return true
  }

  private func finish(_ run: PreparationRun, _ outcome: Result<any Sendable, any Error>) {
    run.endMainThreadWork()
    mainLine.pool.finishByHand(run, outcome)
    takeInPreparedResults()
  }

  /// Whether a main-thread preparation waits that some request wants, or one is under way.
  var hasMainThreadWork: Bool { mainLine.pool.hasStartableWork(of: mainLine) }

  func nextMainThreadWork() -> (work: MainThreadWork, cost: UInt64?)? {
    // Ended outside admission: ending runs none of the app's code, so it costs no budget and teaches no cost.
    for run in mainLine.pool.abandonedByHand(of: mainLine) { finish(run, .failure(CancellationError())) }
    noteCacheRoom()  // what the workers have on their way, for a prefetch's room
    guard let next = mainLine.pool.nextByHand(of: mainLine, passingOver: passedOverRuns) else {
      mainThreadRun = nil
      return nil
    }
    mainThreadRun = next.run
    return (next.isVisible ? .visibleRow : .prefetch, next.run.content.flatMap { sliceCosts[$0.work] })
  }

  func passOverMainThreadWork() {
    guard let run = mainThreadRun else { return }
    passedOverRuns.append(run)
    mainThreadRun = nil
  }

  /// The main-thread preparations whose slice cost is kept at most.
  static let sliceCostsKept = 256
  /// The weight of a slice's newest measurement in its preparation's average, as the queue weighs its tasks': follows
  /// a change within a few slices, yet one outlier moves the average by only a quarter of its excess.
  static let sliceCostWeight = 0.25

  /// A slice of the preparation ``nextMainThreadWork()`` picked took `nanoseconds`: its preparation's cost, for the
  /// next.
  func mainThreadSliceTook(_ nanoseconds: UInt64) {
    guard let identity = lastSliceIdentity else { return }
    lastSliceIdentity = nil
    let measured = Double(nanoseconds)
    // Bounded: preparations made anew per row would each add one.
    if sliceCosts.count >= Self.sliceCostsKept, sliceCosts[identity] == nil { sliceCosts = [:] }
    sliceCosts[identity] =
      sliceCosts[identity].map { UInt64(Double($0) + Self.sliceCostWeight * (measured - Double($0))) }
      ?? nanoseconds
  }

  func runMainThreadSlice(timeRemaining: () -> TimeInterval) -> Bool {
    guard let run = mainThreadRun else { return false }
    mainThreadRun = nil
    // Something ran, or ended: what the pass passed over may be admitted now.
    passedOverRuns = []
    defer { noteCacheRoom() }  // a result on its way here, or arrived: the workers' room changed
    let ran = runSlice(of: run, timeRemaining: timeRemaining)
    lastSliceIdentity = ran ? run.content?.work : nil
    return ran
  }
}
