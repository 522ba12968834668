import Foundation

/// Prepared tasks: a `prepare` run off the main thread by the queue's ``WorkerPool``, an `apply` run in the
/// queue's passes under the same rules as every task.
///
/// **Staleness at every step.** A task's configuration is checked before its render starts (a new
/// configuration of the cell, or every requester leaving, drops a render not started), offered to the
/// render as `isCancelled`, checked when the result arrives and again before the apply (the pass's usual
/// check). A result is never applied to a cell configured again or released.
///
/// **Accounting.** Each task ends as executed (applied), stale (``QueuePreparation/staleAfterPrepare`` says
/// whether after its result arrived), evicted, cancelled or failed, or is pending; a render whose result no
/// task applied is counted wasted.
extension QueueCore {
  /// The queue's preparation half, made on first use: a line into the process's worker pool (or, on a
  /// driver that prepares by hand, into a pool of the queue's own that only the driver runs).
  func preparationMade() -> QueuePreparation {
    if let preparation { return preparation }
    let driver = scheduler.driver
    let pool = driver.preparesByHand ? WorkerPool(byHand: true) : WorkerPool.shared
    let line = RenderLine(
      pool: pool, limit: workerLimit, measuresResults: cacheLimit > 0, wake: scheduler.waker,
      checkCells: { [weak self] render in
        MainActor.assumeIsolated { self?.dropReleasedCells(of: render) }
      })
    let made = QueuePreparation(line: line, cacheLimit: cacheLimit)
    preparation = made
    if driver.preparesByHand { driver.adoptPreparations { maximum in pool.runByHand(maximum: maximum) } }
    driver.measureCommits()
    cells.preparedDetached = { [unowned self] requests in self.preparedDetached(requests) }
    return made
  }

  /// What ``IdleQueue``'s prepared `addTask` forms do, once their closures are erased: `record` is the
  /// cell's configuration for a cell task (`nil` for a plain one).
  func addPreparedTask(
    key: TaskKey, record: CellRegistry.Record?, content: PreparedContent?, discardable: Bool,
    estimatedCost: TimeInterval?, resultBytes: (@Sendable (any Sendable) -> Int)?,
    prepare: @escaping RenderWork,
    apply: @escaping @MainActor (AnyObject?, any Sendable) -> Void
  ) -> IdleTaskHandle {
    let cost = estimatedCost == nil ? nil : Validation.estimatedCost(estimatedCost)
    guard !isInvalidated else { return IdleTaskHandle(queue: nil, seq: 0) }
    let preparation = preparationMade()
    // A result kept for this content applies at once: the row shows it in this very `cellForRowAt`.
    if let value = cachedValue(for: content, preparation) {
      list.recordAddedAndExecuted()
      preparation.cacheHits += 1
      apply(record?.cell, value)
      return IdleTaskHandle(queue: nil, seq: 0)
    }
    let binding = record.map { CellBinding(current: $0) }
    var render: Render
    var isNew = false
    var isJoiningPrefetch = false
    if let content, let shared = preparation.inFlight[content], preparation.line.isJoinable(shared) {
      // Waiting, running, or finished with its result on the way to a pass (a row reloaded meanwhile).
      render = shared
      isJoiningPrefetch = shared.isPrefetched
    } else {
      render = Render(line: preparation.line, content: content, resultBytes: nil, prepare: prepare)
      isNew = true
      if let content { preparation.inFlight[content] = render }
    }
    let request = PreparedRequest(render: render, binding: binding, isDiscardable: discardable, apply: apply)
    render.adoptResultBytes(resultBytes, for: request)
    render.requests.append(request)
    if isNew {
      // Not shared with a worker yet: its counts are set before the pool sees it.
      let counts = request.counts
      (render.live, render.wanted, render.urgent, render.cells) = counts
      preparation.line.submit(render)
    } else {
      request.join(preparation.line)
      // A pending prefetch of this content ends: the preparation is this task's now (visible work).
      if isJoiningPrefetch, let content { prefetchTakenOver(render, key: content, preparation) }
    }
    if let record {
      if record.prepared == nil { record.prepared = [] }
      record.prepared!.append(request)
    }
    let handle = enqueue(
      key: key, QueuedTask(work: .prepared(request), binding: binding, estimatedCost: cost), discardable: discardable)
    request.seq = handle.seq
    return handle
  }

  /// The result the cache keeps for `content`. Results that finished but were not taken in yet go to the cache
  /// first, so that the row applies one at once. (Without a cache, the task joins such a result instead.)
  private func cachedValue(for content: PreparedContent?, _ preparation: QueuePreparation) -> (any Sendable)? {
    guard let content, preparation.cache.limit > 0 else { return nil }
    if preparation.line.hasArrivals { takeInPreparedResults() }
    return preparation.cache.value(for: content)
  }

  /// Takes in the results that arrived: each live task gets its value — or leaves as stale, if its cell
  /// was configured again or released meanwhile, or as failed, if `prepare` threw — and a result is kept in
  /// the cache by its content.
  func takeInPreparedResults() {
    guard let preparation else { return }
    let arrivals = preparation.line.takeArrivals()
    guard !arrivals.isEmpty else { return }
    for (render, outcome) in arrivals {
      if let content = render.content, preparation.inFlight[content] === render {
        preparation.inFlight[content] = nil
      }
      var removed: [TaskList<QueuedTask>.Removal] = []
      switch outcome {
      case .success(let value):
        render.arrival = .value
        // Kept for later with no task waiting: a prefetch's, or one whose row was just configured again (the task
        // it adds next applies it from the cache); such a result counts wasted only if it leaves the cache unused.
        render.keptForLater =
          preparation.cache.limit > 0 && !render.hasLiveRequests
          && (render.wasPrefetched || preparation.held.contains { $0 === render })
        if let content = render.content, preparation.cache.limit > 0 {
          preparation.cache.insert(
            value, bytes: render.resultBytes(of: value), for: content, prefetched: render.keptForLater)
          // Its tasks hold the value until they apply it or leave: it stays in the cache, counted against the
          // limit, until then (``settleIfDone(_:_:)`` unpins it), so the bytes kept never exceed the limit
          // while evicted results live on in tasks.
          if render.hasLiveRequests { render.cachePin = preparation.cache.pin(content) }
        }
        prefetchArrived(render, succeeded: true, preparation)
        for request in render.requests {
          // Also to tasks whose configuration was replaced while it was prepared: they leave as stale after
          // their render, at once.
          request.deliver(value)
          if request.binding?.state == .stale, let removal = list.skipAsStale(request.seq) {
            removed.append(removal)
          }
        }
      case .failure:
        render.arrival = .error
        prefetchArrived(render, succeeded: false, preparation)
        for request in render.requests where request.isLive {
          if let removal = list.fail(request.seq) { removed.append(removal) }
        }
      }
      release(removed)
      settleIfDone(render, preparation)
    }
    let cache = preparation.cache
    preparation.line.noteCache(free: max(0, cache.limit - cache.bytes))
    onlyParkedLeft = false
    if !list.isEmpty { frameClock?.start() }
  }

  /// A cell went off screen or came back: its prepared tasks' renders are wanted accordingly.
  func preparedDisplayChanged(_ record: CellRegistry.Record) {
    guard let preparation, let requests = record.prepared else { return }
    for request in requests { request.setWanted(record.isDisplayed, in: preparation.line) }
  }

  /// A new configuration of a cell replaced the one these prepared tasks belong to: they leave at once, as
  /// stale (``IdleQueue/Statistics-swift.struct/staleAfterPrepare`` says whether their result had arrived by
  /// then), so that a render no other task waits for is dropped if it has not started, or told it is
  /// cancelled. A render with content that loses its last task this way is held joinable until the main
  /// thread has finished what it is doing (the `cellForRowAt` that called `bind`): the task the same call
  /// adds next for the same content joins it instead of starting it again.
  func preparedDetached(_ requests: [PreparedRequest]) {
    guard let preparation else { return }
    for request in requests where request.isLive {
      let render = request.render
      if render.content != nil, render.arrival == .none, !render.isPrefetched,
        !preparation.held.contains(where: { $0 === render }),
        render.requests.filter({ $0.isLive }).count == 1
      {
        hold(render, preparation)
      }
      if let removal = list.skipAsStale(request.seq) {
        release([removal])
      } else {
        requestLeft(request, preparation)  // out of the list already (its apply is running)
      }
    }
  }

  /// Keeps `render` joinable (one more live count) until ``releaseHeldRenders()``, which the next pass or the
  /// main queue's next turn calls, whichever comes first.
  private func hold(_ render: Render, _ preparation: QueuePreparation) {
    preparation.line.adjust(render, live: 1)
    preparation.held.append(render)
    guard !preparation.releaseOfHeldPending else { return }
    preparation.releaseOfHeldPending = true
    DispatchQueue.main.async { [weak self] in
      MainActor.assumeIsolated { self?.releaseHeldRenders() }
    }
    scheduler.setNeedsPass()
  }

  /// Lets go of the renders held joinable after their cell was configured again: one that no task joined is
  /// dropped if it has not started, or told it is cancelled.
  func releaseHeldRenders() {
    guard let preparation, !preparation.held.isEmpty else { return }
    let held = preparation.held
    preparation.held = []
    preparation.releaseOfHeldPending = false
    for render in held {
      preparation.line.adjust(render, live: -1)
      if !render.hasLiveRequests, !render.isPrefetched, let content = render.content,
        preparation.inFlight[content] === render
      {
        preparation.inFlight[content] = nil
      }
    }
  }

  /// Drops the waiting tasks of `render` whose cell was released (the main thread's answer to a running
  /// render's `isCancelled()` poll): with none left, the render is told it is cancelled.
  func dropReleasedCells(of render: Render) {
    guard let preparation else { return }
    preparation.line.cellsChecked(render)
    var removed: [TaskList<QueuedTask>.Removal] = []
    for request in render.requests where request.isLive {
      guard let binding = request.binding, !binding.record.isAlive else { continue }
      if let removal = list.skipAsStale(request.seq) { removed.append(removal) }
    }
    release(removed)
  }

  /// A prepared task left the list as `fate` (or ran, `.executed`).
  func preparedTaskLeft(_ request: PreparedRequest, fate: TaskFate) {
    guard let preparation else { return }
    // After its prepare: the result had arrived — taken in, or finished and on its way to the main thread.
    if fate == .stale, request.hasArrived || preparation.line.hasFinished(request.render) {
      preparation.staleAfterPrepare += 1
    }
    // Out of its render's requests too: the two hold each other, and a render that never arrives (dropped
    // before it started, or running when the queue ended) is never settled, which would keep both alive.
    request.render.requests.removeAll { $0 === request }
    request.render.forgetResultBytes(of: request)
    requestLeft(request, preparation)
    if let record = request.binding?.record, var requests = record.prepared {
      requests.removeAll { $0 === request }
      record.prepared = requests.isEmpty ? nil : requests
    }
  }

  /// Takes `request` out of its render's counts; a render no task waits for any more is settled.
  private func requestLeft(_ request: PreparedRequest, _ preparation: QueuePreparation) {
    guard request.leave(preparation.line) else { return }
    let render = request.render
    if !render.hasLiveRequests, !render.isPrefetched, let content = render.content,
      preparation.inFlight[content] === render, !preparation.held.contains(where: { $0 === render })
    {
      // Doomed (its work may already have been told it is cancelled): no later task joins it.
      preparation.inFlight[content] = nil
    }
    settleIfDone(render, preparation)
  }

  /// Counts a render whose result arrived once no task waits for it: wasted if none applied it.
  private func settleIfDone(_ render: Render, _ preparation: QueuePreparation) {
    guard !render.settled, !render.hasLiveRequests, render.arrival != .none else { return }
    render.settled = true
    if let pin = render.cachePin {
      render.cachePin = nil
      preparation.cache.unpin(pin)
    }
    render.requests = []
    if render.arrival == .value, !render.applied, !render.keptForLater { preparation.wasted += 1 }
  }

  /// Runs a prepared task's apply (its result has arrived and its configuration is current).
  func applyPrepared(_ request: PreparedRequest, cell: AnyObject?) {
    guard let value = request.value else { return }
    // Counted applied before the apply runs: an apply that configures its cell again (a row reloaded for its
    // new height) takes the task out of its render meanwhile, which must not find the render wasted.
    request.render.applied = true
    request.apply(cell, value)
  }

  /// Ends the preparation half: renders not started are dropped, results not taken in are released here
  /// (on the main thread) and workers end.
  func endPreparation() {
    guard let preparation else { return }
    releaseHeldRenders()
    cancelAllPrefetches()
    let closed = preparation.line.close()
    for (render, outcome) in closed.arrivals {
      if case .success = outcome { render.arrival = .value } else { render.arrival = .error }
      settleIfDone(render, preparation)
    }
    withExtendedLifetime(closed) {}  // released here, on the main thread, outside the pool's lock
    preparation.cache.removeAll()
    preparation.inFlight = [:]
  }

  /// Teaches the predictor what the commit before this pass cost after the results applied since the last
  /// one: applying sets a bitmap, and the commit that follows copies it to the render server.
  func learnCommit(_ duration: UInt64) {
    guard preparation != nil else { return }
    predictor.recordCommit(duration: duration, applies: appliesSinceCommit)
    appliesSinceCommit = 0
  }

  /// Whether a result is being prepared for a task that wants it (its cell on screen, or none).
  var awaitsPreparedResults: Bool {
    !isInvalidated && (preparation?.line.isPreparing ?? false)
  }

  /// The statistics with the preparation half's counts.
  func addPreparationCounts(to statistics: inout IdleQueue.Statistics) {
    guard let preparation else { return }
    statistics.staleAfterPrepare = preparation.staleAfterPrepare
    statistics.wastedPreparations = preparation.wasted + preparation.cache.unusedPrefetchesDropped
    statistics.cacheHits = preparation.cacheHits
    let prefetches = preparation.prefetchCounts
    statistics.added += prefetches.added
    statistics.executed += prefetches.executed
    statistics.cancelled += prefetches.cancelled
    statistics.evicted += prefetches.evicted
    statistics.failed += prefetches.failed
    statistics.pending += preparation.prefetches.count
  }
}
