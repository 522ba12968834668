import Foundation
@_spi(IdleWorkTesting) import IdleWork

/// Prepared tasks: a `prepare` run off the main thread by the queue's ``WorkerPool``, an `apply` run in the
/// queue's passes as a later task (``LaterTask``), under the same rules as every task.
///
/// **Staleness at every step.** A task leaves as soon as its cell is configured again (its later task is abandoned
/// at once, inside `bind`), which drops a preparation no other request waits for if it has not started; a released
/// cell is offered to the preparation as `isCancelled`; the pass checks the cell again before the apply. A result is
/// never applied to a cell configured again or released.
///
/// **Accounting.** Each task counts once in the queue's statistics, as a task; one whose preparation threw is cancelled
/// there and counted failed here; a preparation whose result no task applied is counted wasted.
extension QueuePreparation {
  /// The preparation half of `queue`, made by its first ``Preparer``: a line into the process's worker pool (or, on
  /// a driver that prepares by hand, into a pool of the queue's own that only the driver runs).
  static func of(_ queue: QueueCore, configuration: Preparer.Configuration) -> QueuePreparation {
    if let failure = configuration.failure { fatalError(failure) }
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
    // A queue that ended will not tell its client: its line leaves the pool now, or would hold the pool's size.
    if queue.isInvalidated { made.queueEnded() }
    if driver.preparesByHand { driver.adoptPreparations { maximum in pool.runByHand(maximum: maximum) } }
    return made
  }

  /// What ``Preparer``'s `addTask` forms do first: the result the cache keeps for `content`, counted a cache hit (the
  /// caller applies it at once, inside `cellForRowAt`, so the row shows it in its first frame; no task is queued).
  /// Results that arrived go to the cache first, so that a row shown from one passes the calls before its own.
  func cachedResult(for content: PreparedContent?) -> (any Sendable)? {
    if content != nil, cache.limit > 0, hasArrivals { takeInPreparedResults() }
    if let content, let call = cache.wantedCall(of: content) { rowShown(fromCall: call) }
    guard let value = cachedValue(for: content) else { return nil }
    cacheHits += 1
    noteCacheRoom()
    return value
  }

  /// A request for `content`'s preparation, with a new preparation of its own; it counts once its task is queued
  /// (``start(_:resultBytes:)``), which may share one in flight instead.
  func makeRequest(
    content: PreparedContent?, cell: AnyObject?, discardable: Bool, prepare: PreparationPlace,
    apply: @escaping @MainActor (AnyObject?, any Sendable) -> Void
  ) -> PreparedRequest {
    let run = PreparationRun(line: line(for: prepare), content: content, resultBytes: nil, prepare: prepare)
    return PreparedRequest(client: self, run: run, cell: cell, isDiscardable: discardable, apply: apply)
  }

  /// `request`'s task was queued: it joins the preparation in flight for its content — waiting, running, or finished
  /// with its result on the way to a pass (a row reloaded meanwhile) — or submits its own. Decided here, after the
  /// callbacks `addLaterTask` may have run (an app's `onAbandon` may end a preparation, or start one). A task that
  /// left at once (its queue had ended, or was full of tasks that go first, or a callback configured its cell again)
  /// does neither.
  func start(_ request: PreparedRequest, resultBytes: (@Sendable (any Sendable) -> Int)?) {
    guard request.isLive else { return }
    if let content = request.run.content, let shared = inFlight[content], shared.line.isJoinable(shared) {
      request.share(shared)
    }
    let run = request.run
    run.adoptResultBytes(resultBytes, for: request)
    run.requests.append(request)
    if run.content.map({ inFlight[$0] !== run }) ?? true {
      if let content = run.content {
        noteNewRun(for: content)
        inFlight[content] = run
      }
      // Not shared with a worker yet: its counts are set before the pool sees it.
      request.joined(adjusting: false)
      run.life = PreparationLife(requests: request.counts)
      run.line.submit(run)
    } else {
      let isJoiningPrefetch = run.isPrefetched
      request.joined(adjusting: true)
      // A pending prefetch of this content ends: the preparation is this task's now (visible work).
      if isJoiningPrefetch, let content = run.content { prefetchTakenOver(run, key: content) }
    }
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
        for request in run.requests { request.deliver(value) }
      case .failure:
        run.arrival = .error
        prefetchArrived(run, succeeded: false)
        for request in run.requests where request.isLive {
          // Cancelled in the queue's counts, failed in preparation's.
          if request.cancelTask?() == true { failed += 1 }
        }
      }
      settleIfDone(run)
    }
    isTakingIn = wasTakingIn
    noteCacheRoom()
  }

  /// A prepared task left the queue without running (its cell configured again or released, evicted, cancelled, or
  /// its queue ended): it stops counting in its preparation, which is dropped if no task waits for it and it has not
  /// started, or told it is cancelled. A preparation with content that loses its last task this way is held joinable
  /// until the main thread has finished what it is doing (the `cellForRowAt` that called `bind`): the task the same
  /// call adds next for the same content joins it instead of starting it again.
  func abandoned(_ request: PreparedRequest) {
    guard request.isLive else { return }
    guard request.hasJoined else {
      request.leave()  // it left inside `addLaterTask`: it never counted
      return
    }
    let run = request.run
    if run.content != nil, run.arrival == .none, !run.isPrefetched,
      !held.contains(where: { $0 === run }),
      run.requests.filter({ $0.isLive }).count == 1
    {
      hold(run)
    }
    preparedTaskLeft(request)
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

  /// Stops counting the tasks of `run` whose cell was released (the main thread's answer to a running preparation's
  /// `isCancelled()` poll): with none left, the preparation is told it is cancelled. Their tasks leave the queue as
  /// stale at its next pass.
  func dropReleasedCells(of run: PreparationRun) {
    line.cellsChecked(run)
    for request in run.requests where request.isLive && request.cellIsGone { preparedTaskLeft(request) }
  }

  /// A prepared task ran, or left: it is out of its preparation's requests too. The two hold each other, and a
  /// preparation that never arrives (dropped before it started, or running when the queue ended) is never settled,
  /// which would keep both alive.
  func preparedTaskLeft(_ request: PreparedRequest) {
    request.run.requests.removeAll { $0 === request }
    request.run.forgetResultBytes(of: request)
    requestLeft(request)
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

  /// Runs a prepared task's apply (its result has arrived and its cell still shows its row): its task runs.
  func ran(_ request: PreparedRequest, cell: AnyObject?) {
    guard let value = request.value else { return }
    // Counted applied before the apply runs: an apply that configures its cell again (a row reloaded for its
    // new height) takes the task out of its preparation meanwhile, which must not find the preparation wasted.
    request.run.applied = true
    request.apply(cell, value)
    preparedTaskLeft(request)
  }
}
