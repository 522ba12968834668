import Foundation

/// Main-thread preparations: renders whose work runs in the queue's passes, a slice per step, because it is not
/// thread-safe. They live on a line of their own (``QueuePreparation/mainLine``), so sharing, the cache, staleness,
/// prefetching and the accounting are a worker render's; only where the work runs differs.
///
/// They run when a pass finds no runnable task, a slice at a time (``WorkerPool/nextByHand(of:)`` says the order):
/// visible rows' first, the one that appeared last first (it stays on screen longest), then renders under way for
/// rows gone off screen, then prefetches, nearest first. A visible row's is admitted like a task, within the pass budget and the frame
/// admission; a prefetch's only in time it cannot cost a frame (``PassPlanner/nextInSlack(_:)``). Results are
/// applied by their tasks, which the pass runs before the next slice.
extension QueuePreparation {
  /// Runs one slice of `render`, started here if it waits; once the work returns its value (or throws, or nothing
  /// waits for it any more) the outcome is taken in at once, as a worker's would be. Returns whether a slice of the
  /// app's code ran (not when the render was only ended, or could not start).
  func runSlice(of render: PreparationRun, timeRemaining: () -> TimeInterval) -> Bool {
    let pool = mainLine.pool
    switch pool.startByHand(render) {
    case .none:
      return false
    case .cancelled:
      finish(render, .failure(CancellationError()))
      return false
    case .run:
      break
    }
    if render.slices == nil { render.slices = render.mainThreadSlices() }
    let outcome = Result { try render.slices!.next(timeRemaining) }
    switch outcome {
    case .success(nil):
      return true
    case .success(let value?):
      finish(render, .success(value))
    case .failure(let error):
      finish(render, .failure(error))
    }
    return true
  }

  private func finish(_ render: PreparationRun, _ outcome: Result<any Sendable, any Error>) {
    render.endMainThreadWork()
    mainLine.pool.finishByHand(render, outcome)
    takeInPreparedResults()
  }

  /// Whether a main-thread render waits that some request wants, or one is under way.
  var hasMainThreadWork: Bool { mainLine.pool.hasStartableWork(of: mainLine) }

  func nextMainThreadWork() -> (work: MainThreadWork, cost: UInt64?)? {
    // Ended outside admission: ending runs none of the app's code, so it costs no budget and teaches no cost.
    for render in mainLine.pool.abandonedByHand(of: mainLine) { finish(render, .failure(CancellationError())) }
    noteCacheRoom()  // what the workers have on their way, for a prefetch's room
    guard let next = mainLine.pool.nextByHand(of: mainLine, passingOver: passedOverRenders) else {
      mainThreadRender = nil
      return nil
    }
    mainThreadRender = next.render
    return (next.isVisible ? .visibleRow : .prefetch, next.render.content.flatMap { sliceCosts[$0.work] })
  }

  func passOverMainThreadWork() {
    guard let render = mainThreadRender else { return }
    passedOverRenders.append(render)
    mainThreadRender = nil
  }

  /// The main-thread preparations whose slice cost is kept at most.
  static let sliceCostsKept = 256

  /// A slice of the render ``nextMainThreadWork()`` picked took `nanoseconds`: its preparation's cost, for the next.
  func mainThreadSliceTook(_ nanoseconds: UInt64) {
    guard let identity = lastSliceIdentity else { return }
    lastSliceIdentity = nil
    let measured = Double(nanoseconds)
    // Bounded: preparations made anew per row would each add one.
    if sliceCosts.count >= Self.sliceCostsKept, sliceCosts[identity] == nil { sliceCosts = [:] }
    sliceCosts[identity] =
      sliceCosts[identity].map { UInt64(Double($0) + CostPredictor.weight * (measured - Double($0))) }
      ?? nanoseconds
  }

  func runMainThreadSlice(timeRemaining: () -> TimeInterval) -> Bool {
    guard let render = mainThreadRender else { return false }
    mainThreadRender = nil
    // Something ran, or ended: what the pass passed over may be admitted now.
    passedOverRenders = []
    defer { noteCacheRoom() }  // a result on its way here, or arrived: the workers' room changed
    let ran = runSlice(of: render, timeRemaining: timeRemaining)
    lastSliceIdentity = ran ? render.content?.work : nil
    return ran
  }
}
