import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// `perform(key:)`: the value comes back; cancellation, eviction and invalidation never leave a caller hanging.
///
/// Async XCTest methods cannot spin the main run loop on Linux (GUIDE.md §2), so these tests use the manual
/// driver: the awaiting child task is started, the test yields until its task is queued, then steps passes.
final class AsyncPerformTests: XCTestCase {
  /// Starts a `perform` with key "k" whose work records that it started, and waits until it is queued.
  @MainActor
  private func performRecordingStart(on queue: IdleQueue) async -> (Task<Int, any Error>, LockedBox<Bool>) {
    let started = LockedBox(false)
    let call = Task { @MainActor in
      try await queue.perform(key: "k") {
        started.value = true
        return 1
      }
    }
    await waitUntilQueued(queue)
    return (call, started)
  }

  /// A cancelled `perform` after a pass: its work never started, it counts as cancelled, and its caller got
  /// `CancellationError`.
  @MainActor
  private func assertCancelledBeforeStarting(
    _ call: Task<Int, any Error>, started: LockedBox<Bool>, queue: IdleQueue
  ) async {
    XCTAssertFalse(started.value, "the work started after its caller was cancelled")
    XCTAssertEqual(queue.statistics.cancelled, 1)
    XCTAssertEqual(queue.statistics.executed, 0)
    do {
      _ = try await call.value
      XCTFail("expected CancellationError")
    } catch {
      XCTAssertTrue(error is CancellationError, "\(error)")
    }
  }

  @MainActor
  private func waitUntilQueued(_ queue: IdleQueue, count: Int = 1) async {
    for _ in 0..<10_000 where queue.statistics.added < count { await Task.yield() }
    XCTAssertGreaterThanOrEqual(queue.statistics.added, count, "the awaiting task never queued its work")
  }

  @MainActor
  func testPerformReturnsTheClosuresValueFromAnIdlePass() async throws {
    let (queue, driver) = manualQueue()
    let call = Task { @MainActor in try await queue.perform(key: "answer") { 6 * 7 } }
    await waitUntilQueued(queue)
    XCTAssertEqual(queue.statistics.executed, 0, "nothing runs before a pass")
    driver.runPass()
    let value = try await call.value
    XCTAssertEqual(value, 42)
    XCTAssertEqual(queue.statistics.executed, 1)
  }

  @MainActor
  func testOnceTheCallerIsCancelledTheWorkNeverStartsEvenIfAPassComesFirst() async {
    let (queue, driver) = manualQueue()
    let (call, started) = await performRecordingStart(on: queue)
    call.cancel()
    driver.runPass()  // at once: no main-actor hop has had a chance to run in between
    await assertCancelledBeforeStarting(call, started: started, queue: queue)
  }

  /// Cancelled from another thread: the caller resumes with `CancellationError`, and whichever reaches the
  /// main thread first — the removal sent through the main queue, or a pass — the work never starts (the
  /// claim is checked under the waiter's lock just before it would run).
  @MainActor
  func testCancelledFromAnotherThreadTheWorkNeverStarts() async {
    let (queue, driver) = manualQueue()
    let (call, started) = await performRecordingStart(on: queue)
    let cancelledOffMain = LockedBox(false)
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      DispatchQueue.global().async {
        cancelledOffMain.value = !Thread.isMainThread
        call.cancel()
        done.resume()
      }
    }
    XCTAssertTrue(cancelledOffMain.value)
    driver.runPass()
    await assertCancelledBeforeStarting(call, started: started, queue: queue)
    XCTAssertTrue(queue.statistics.isBalanced)
  }

  @MainActor
  func testPerformRethrowsTheClosuresError() async {
    struct Boom: Error {}
    let (queue, driver) = manualQueue()
    let call = Task { @MainActor in try await queue.perform(key: 0) { () throws -> Int in throw Boom() } }
    await waitUntilQueued(queue)
    driver.runPass()
    do {
      _ = try await call.value
      XCTFail("expected Boom")
    } catch {
      XCTAssertTrue(error is Boom, "\(error)")
    }
  }

  @MainActor
  func testCancellingTheAwaitingTaskRemovesTheWorkAndThrowsCancellationError() async {
    let (queue, driver) = manualQueue()
    var ran = false
    let call = Task { @MainActor in try await queue.perform(key: 0) { ran = true } }
    await waitUntilQueued(queue)
    call.cancel()
    do {
      try await call.value
      XCTFail("expected CancellationError")
    } catch {
      XCTAssertTrue(error is CancellationError, "\(error)")
    }
    XCTAssertEqual(queue.pendingTaskCount, 0, "the cancelled work left the queue")
    XCTAssertEqual(queue.statistics.cancelled, 1)
    driver.drain()
    XCTAssertFalse(ran)
  }

  @MainActor
  func testEvictionThrowsEvicted() async {
    let (queue, driver) = manualQueue(maximumQueueLength: 1)
    let call = Task { @MainActor in try await queue.perform(key: 0) { 1 } }
    await waitUntilQueued(queue)
    queue.addTask(key: 1) {}  // the queue holds one task: the awaited one is evicted
    do {
      _ = try await call.value
      XCTFail("expected IdleWorkError.evicted")
    } catch {
      XCTAssertEqual(error as? IdleWorkError, .evicted)
    }
    driver.drain()
  }

  @MainActor
  func testInvalidationThrowsInvalidated() async {
    let (queue, _) = manualQueue()
    let call = Task { @MainActor in try await queue.perform(key: 0) { 1 } }
    await waitUntilQueued(queue)
    queue.invalidate()
    do {
      _ = try await call.value
      XCTFail("expected IdleWorkError.cancelled (invalidation)")
    } catch {
      XCTAssertEqual(error as? IdleWorkError, .cancelled)
    }
    do {
      _ = try await queue.perform(key: 1) { 2 }
      XCTFail("perform on an invalidated queue must throw")
    } catch {
      XCTAssertEqual(error as? IdleWorkError, .cancelled)
    }
  }

  @MainActor
  func testCancelByKeyThrowsCancelled() async {
    let (queue, _) = manualQueue()
    let call = Task { @MainActor in try await queue.perform(key: "k") { 1 } }
    await waitUntilQueued(queue)
    queue.cancelTasks(forKey: "k")
    do {
      _ = try await call.value
      XCTFail("expected IdleWorkError.cancelled")
    } catch {
      XCTAssertEqual(error as? IdleWorkError, .cancelled)
    }
  }

  /// Every other way a pending `perform` leaves the queue unrun also throws `.cancelled`: removing all
  /// tasks, dropping discardable ones (memory pressure), and a replacing addition with its key.
  @MainActor
  func testRemoveAllDropDiscardableAndReplacingThrowCancelled() async {
    let removals: [(name: String, remove: @MainActor (IdleQueue) -> Void)] = [
      ("removeAllTasks", { $0.removeAllTasks() }),
      ("dropDiscardableTasks", { $0.dropDiscardableTasks() }),
      ("replacesPending", { $0.addTask(key: "k", replacesPending: true) {} }),
    ]
    for removal in removals {
      let (queue, driver) = manualQueue()
      let call = Task { @MainActor in try await queue.perform(key: "k", discardable: true) { 1 } }
      await waitUntilQueued(queue)
      removal.remove(queue)
      do {
        _ = try await call.value
        XCTFail("\(removal.name): expected IdleWorkError.cancelled")
      } catch {
        XCTAssertEqual(error as? IdleWorkError, .cancelled, removal.name)
      }
      driver.drain()
      XCTAssertEqual(queue.statistics.cancelled, 1, removal.name)
      XCTAssertEqual(queue.statistics.executed, removal.name == "replacesPending" ? 1 : 0, removal.name)
    }
  }

  /// A `perform` cancelled from another thread counts as cancelled even when an overflow comes before the deferred
  /// removal reaches the main thread: its caller got `CancellationError`, so it is not evicted.
  @MainActor
  func testAPerformCancelledFromAnotherThreadCountsAsCancelledWhenAnOverflowComesFirst() async {
    let (queue, _) = manualQueue(maximumQueueLength: 1)
    let call = Task { @MainActor in try await queue.perform(key: "k") { 1 } }
    for _ in 0..<10_000 where queue.statistics.added < 1 { await Task.yield() }
    XCTAssertEqual(queue.statistics.added, 1)
    // Cancel on another thread while the main thread waits: the removal it sends through the main queue
    // cannot run before the overflow below.
    let cancelled = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      call.cancel()
      cancelled.signal()
    }
    cancelled.wait()
    queue.addTask(key: "overflow") {}
    XCTAssertEqual(queue.statistics.cancelled, 1, "\(queue.statistics.summary)")
    XCTAssertEqual(queue.statistics.evicted, 0, "the withdrawn perform is not counted as evicted")
    XCTAssertEqual(queue.pendingTaskCount, 1, "the overflowing task stays")
    do {
      _ = try await call.value
      XCTFail("expected CancellationError")
    } catch {
      XCTAssertTrue(error is CancellationError, "\(error)")
    }
  }
}

/// `perform` on the real main run loop: the awaiting task resumes after the idle pass.
final class AsyncPerformRunLoopTests: XCTestCase {
  func testPerformOnTheRealRunLoop() {
    MainActor.assumeIsolated {
      let queue = IdleQueue()
      defer { queue.invalidate() }
      var result: Int?
      Task { @MainActor in result = try? await queue.perform(key: 0) { 6 * 7 } }
      spin(until: { result != nil }, timeout: 5)
      XCTAssertEqual(result, 42)
    }
  }
}

/// `perform` on a stopped scheduler: the queue is invalidated, so the caller gets an error, never a hang.
final class AsyncPerformStoppedSchedulerTests: XCTestCase {
  @MainActor
  func testPerformThrowsInvalidatedWhenTheSchedulerStops() async {
    let driver = ManualPassDriver()
    let scheduler = IdleScheduler(driver: driver.core)
    let queue = IdleQueue(scheduler: scheduler)
    let call = Task { @MainActor in try await queue.perform(key: 0) { 1 } }
    for _ in 0..<10_000 where queue.statistics.added == 0 { await Task.yield() }
    scheduler.stop()
    do {
      _ = try await call.value
      XCTFail("expected IdleWorkError.cancelled (invalidation)")
    } catch {
      XCTAssertEqual(error as? IdleWorkError, .cancelled)
    }
    let late = IdleQueue(scheduler: scheduler)
    do {
      _ = try await late.perform(key: 0) { 2 }
      XCTFail("a queue on a stopped scheduler must refuse work")
    } catch {
      XCTAssertEqual(error as? IdleWorkError, .cancelled)
    }
  }
}
