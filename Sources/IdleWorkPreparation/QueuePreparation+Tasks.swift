import Foundation
@_spi(IdleWorkTesting) import IdleWork

/// Prepared tasks: a `prepare` run off the main thread by the queue's ``WorkerPool``, an `apply` run in the
/// queue's passes under the same rules as every task.
///
/// **Staleness at every step.** A task's configuration is checked before its preparation starts (a new
/// configuration of the cell, or every requester leaving, drops a preparation not started), offered to the
/// preparation as `isCancelled`, checked when the result arrives and again before the apply (the pass's usual
/// check). A result is never applied to a cell configured again or released.
///
/// **Accounting.** Each task ends as executed (applied), stale (``QueuePreparation/staleAfterPrepare`` says
/// whether after its result arrived), evicted, cancelled or failed, or is pending; a preparation whose result no
/// task applied is counted wasted.
extension QueuePreparation {
  /// The preparation half of `queue`, made by its first ``Preparer``: a line into the process's worker pool (or, on
  /// a driver that prepares by hand, into a pool of the queue's own that only the driver runs).
  static func of(_ queue: QueueCore, configuration: Preparer.Configuration) -> QueuePreparation {
    Validation.require(configuration.failure)
    if let made = queue.client as? QueuePreparation {
      if !made.configuration.isSame(as: configuration) {
        fatalError(
          "IdleWork: this queue's Preparer was made with \(made.configuration), another with \(configuration); "
            + "every Preparer of a queue shares its workers and cache: make them with the same configuration")
      }
      return made
    }
    let driver = queue.scheduler.driver
    let pool = driver.preparesByHand ? WorkerPool(byHand: true) : WorkerPool.shared
    let made = QueuePreparation(queue: queue, pool: pool, configuration: configuration)
    queue.client = made
    if driver.preparesByHand { driver.adoptPreparations { maximum in pool.runByHand(maximum: maximum) } }
    return made
  }

  /// What ``Preparer``'s `addTask` forms do, once their closures are erased: `binding` is the cell's configuration
  /// for a cell task (`nil` for a plain one).
  func addTask(
    key: TaskKey, binding: CellBinding?, content: PreparedContent?, discardable: Bool,
    estimatedCost: TimeInterval?, resultBytes: (@Sendable (any Sendable) -> Int)?,
    prepare: PreparationPlace,
    apply: @escaping @MainActor (AnyObject?, any Sendable) -> Void
  ) -> IdleTaskHandle {
    let cost = estimatedCost == nil ? nil : Validation.estimatedCost(estimatedCost)
    guard !queue.isInvalidated else { return IdleTaskHandle(queue: nil, seq: 0) }
    return addTask(
      key: key, binding: binding, content: content, discardable: discardable, cost: cost, resultBytes: resultBytes,
      prepare: prepare, apply: apply)
  }

  private func addTask(
    key: TaskKey, binding: CellBinding?, content: PreparedContent?, discardable: Bool, cost: UInt64?,
    resultBytes: (@Sendable (any Sendable) -> Int)?, prepare: PreparationPlace,
    apply: @escaping @MainActor (AnyObject?, any Sendable) -> Void
  ) -> IdleTaskHandle {
    // A result kept for this content applies at once: the row shows it in this very `cellForRowAt`. (Results that
    // arrived go to the cache first, so that a row shown from one passes the calls before its own.)
    if content != nil, cache.limit > 0, hasArrivals { takeInPreparedResults() }
    if let content, let call = cache.wantedCall(of: content) { rowShown(fromCall: call) }
    if let value = cachedValue(for: content) {
      cacheHits += 1
      noteCacheRoom()
      apply(binding?.record.cell, value)
      return IdleTaskHandle(queue: nil, seq: 0)
    }
    var run: PreparationRun
    var isNew = false
    var isJoiningPrefetch = false
    if let content, let shared = inFlight[content], shared.line.isJoinable(shared) {
      // Waiting, running, or finished with its result on the way to a pass (a row reloaded meanwhile).
      run = shared
      isJoiningPrefetch = shared.isPrefetched
    } else {
      run = PreparationRun(line: line(for: prepare), content: content, resultBytes: nil, prepare: prepare)
      isNew = true
      if let content {
        noteNewRun(for: content)
        inFlight[content] = run
      }
    }
    let request = PreparedRequest(
      client: self, run: run, binding: binding, isDiscardable: discardable, apply: apply)
    run.adoptResultBytes(resultBytes, for: request)
    run.requests.append(request)
    if isNew {
      // Not shared with a worker yet: its counts are set before the pool sees it.
      run.life = PreparationLife(requests: request.counts)
      run.line.submit(run)
    } else {
      request.join()
      // A pending prefetch of this content ends: the preparation is this task's now (visible work).
      if isJoiningPrefetch, let content { prefetchTakenOver(run, key: content) }
    }
    if let binding, binding.state != .stale {  // (stale already if the cell was configured again meanwhile)
      binding.record.addLaterTask(request)
    }
    let handle = queue.enqueue(
      key: key, QueuedTask(work: .later(request), binding: binding, estimatedCost: cost), discardable: discardable)
    request.seq = handle.seq
    return handle
  }

  /// The result the cache keeps for `content` (``addTask`` took in what had arrived first). Without a cache, the task
  /// joins a result that arrived instead.
  private func cachedValue(for content: PreparedContent?) -> (any Sendable)? {
    guard let content, cache.limit > 0 else { return nil }
    return cache.value(for: content)
  }

  /// Takes in the results that arrived: each live task gets its value — or leaves as stale, if its cell
  /// was configured again or released meanwhile, or as failed, if `prepare` threw — and a result is kept in
  /// the cache by its content.
  func takeInPreparedResults() {
    let arrivals = line.takeArrivals() + mainLine.takeArrivals()
    guard !arrivals.isEmpty else { return }
    let wasTakingIn = isTakingIn  // (the app's sizing code may prefetch, which takes in what arrived since)
    isTakingIn = true
    for (run, outcome) in arrivals {
      if let content = run.content, inFlight[content] === run {
        inFlight[content] = nil
      }
      var removed: [TaskList<QueuedTask>.Removal] = []
      switch outcome {
      case .success(let value):
        run.arrival = .value
        // Kept for later with no task waiting: a prefetch's, or one whose row was just configured again (the task
        // it adds next applies it from the cache); such a result counts wasted only if it leaves the cache unused.
        run.keptForLater =
          cache.limit > 0 && !run.hasLiveRequests
          && (run.wasPrefetched || held.contains { $0 === run })
        if let content = run.content, cache.limit > 0 {
          let bytes = run.resultBytes(of: value)
          if run.line === mainLine { mainLine.measured(bytes, of: run) }
          cache.insert(
            value, bytes: bytes, for: content,
            keeping: run.keptForLater ? keeping(forArrivalOf: run) : .used, heldByTasks: run.hasLiveRequests)
          // Its tasks hold the value until they apply it or leave: it stays in the cache, counted against the
          // limit, until then (``settleIfDone(_:_:)`` unpins it), so the bytes kept never exceed the limit
          // while evicted results live on in tasks.
          if run.hasLiveRequests { run.cachePin = cache.pin(content) }
        }
        prefetchArrived(run, succeeded: true)
        for request in run.requests {
          // Also to tasks whose configuration was replaced while it was prepared: they leave as stale after
          // their preparation, at once.
          request.deliver(value)
          if request.binding?.state == .stale, let removal = queue.list.skipAsStale(request.seq) {
            removed.append(removal)
          }
        }
      case .failure:
        run.arrival = .error
        prefetchArrived(run, succeeded: false)
        for request in run.requests where request.isLive {
          // Cancelled in the queue's counts, failed in preparation's.
          if let removal = queue.list.cancel(request.seq) {
            failed += 1
            removed.append(removal)
          }
        }
      }
      queue.release(removed)
      settleIfDone(run)
    }
    isTakingIn = wasTakingIn
    noteCacheRoom()
    queue.onlyParkedLeft = false
    if !queue.list.isEmpty { queue.frameClock?.start() }
  }

  /// A new configuration of a cell replaced the one this prepared task belongs to: it leaves at once, as
  /// stale (`IdleQueue.Statistics.staleAfterPrepare` says whether its result had arrived by
  /// then), so that a preparation no other task waits for is dropped if it has not started, or told it is
  /// cancelled. A preparation with content that loses its last task this way is held joinable until the main
  /// thread has finished what it is doing (the `cellForRowAt` that called `bind`): the task the same call
  /// adds next for the same content joins it instead of starting it again.
  func detached(_ request: PreparedRequest) {
    guard request.isLive else { return }
    let run = request.run
    if run.content != nil, run.arrival == .none, !run.isPrefetched,
      !held.contains(where: { $0 === run }),
      run.requests.filter({ $0.isLive }).count == 1
    {
      hold(run)
    }
    if let removal = queue.list.skipAsStale(request.seq) {
      queue.release([removal])
    } else {
      requestLeft(request)  // out of the list already (its apply is running)
    }
  }

  /// Keeps `run` joinable (one more live count) until ``releaseHeldRuns()``, which the next pass or the
  /// main queue's next turn calls, whichever comes first.
  private func hold(_ run: PreparationRun) {
    run.line.adjust(run, live: 1)
    held.append(run)
    guard !releaseOfHeldPending else { return }
    releaseOfHeldPending = true
    DispatchQueue.main.async { [weak self] in
      MainActor.assumeIsolated { self?.releaseHeldRuns() }
    }
    queue.scheduler.setNeedsPass()
  }

  /// Lets go of the preparations held joinable after their cell was configured again: one that no task joined is
  /// dropped if it has not started, or told it is cancelled.
  func releaseHeldRuns() {
    guard !held.isEmpty else { return }
    let released = held
    held = []
    releaseOfHeldPending = false
    for run in released {
      run.line.adjust(run, live: -1)
      if !run.hasLiveRequests, !run.isPrefetched, let content = run.content,
        inFlight[content] === run
      {
        inFlight[content] = nil
      }
    }
  }

  /// Drops the waiting tasks of `run` whose cell was released (the main thread's answer to a running
  /// preparation's `isCancelled()` poll): with none left, the preparation is told it is cancelled.
  func dropReleasedCells(of run: PreparationRun) {
    line.cellsChecked(run)
    var removed: [TaskList<QueuedTask>.Removal] = []
    for request in run.requests where request.isLive {
      guard let binding = request.binding, !binding.record.isAlive else { continue }
      if let removal = queue.list.skipAsStale(request.seq) { removed.append(removal) }
    }
    queue.release(removed)
  }

  /// A prepared task left the list as `fate` (or ran, `.executed`).
  func preparedTaskLeft(_ request: PreparedRequest, fate: TaskFate) {
    // After its prepare: the result had arrived — taken in, or finished and on its way to the main thread.
    if fate == .stale, request.hasArrived || request.run.line.hasFinished(request.run) {
      staleAfterPrepare += 1
    }
    // Out of its preparation's requests too: the two hold each other, and a preparation that never arrives (dropped
    // before it started, or running when the queue ended) is never settled, which would keep both alive.
    request.run.requests.removeAll { $0 === request }
    request.run.forgetResultBytes(of: request)
    requestLeft(request)
    request.binding?.record.removeLaterTask(request)
  }

  /// Takes `request` out of its preparation's counts; a preparation no task waits for any more is settled.
  private func requestLeft(_ request: PreparedRequest) {
    guard request.leave() else { return }
    let run = request.run
    if !run.hasLiveRequests, !run.isPrefetched, let content = run.content,
      inFlight[content] === run, !held.contains(where: { $0 === run })
    {
      // Doomed (its work may already have been told it is cancelled): no later task joins it.
      inFlight[content] = nil
    }
    settleIfDone(run)
  }

  /// Counts a preparation whose result arrived once no task waits for it: wasted if none applied it.
  func settleIfDone(_ run: PreparationRun) {
    guard !run.settled, !run.hasLiveRequests, run.arrival != .none else { return }
    run.settled = true
    if let pin = run.cachePin {
      run.cachePin = nil
      cache.unpin(pin)
      noteCacheRoom()
    }
    run.requests = []
    if run.arrival == .value, !run.applied, !run.keptForLater { wasted += 1 }
  }

  /// Runs a prepared task's apply (its result has arrived and its configuration is current).
  func applyPrepared(_ request: PreparedRequest, cell: AnyObject?) {
    guard let value = request.value else { return }
    // Counted applied before the apply runs: an apply that configures its cell again (a row reloaded for its
    // new height) takes the task out of its preparation meanwhile, which must not find the preparation wasted.
    request.run.applied = true
    request.apply(cell, value)
  }
}
