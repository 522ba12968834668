import CoreFoundation
import Dispatch
import Foundation
import XCTest

@testable import FeedDemoKit

/// The strongest peers a careful developer would pick: the careful GCD user (`workItemCareful`,
/// `workItemCarefulPrefetch`) and the Nuke-like image pipeline (`nukePipeline`, `nukePrefetch`) — their
/// cancellation of running draws, their QoS, and the pipeline's cache, coalescing, priorities and bounds.
final class StrongPeerTests: XCTestCase {
  // MARK: Careful GCD

  /// A row's draw is running when the row leaves: `didEndDisplaying` cancels the running item, its draw stops at
  /// its next pass (the second of its four bands never starts) and its job ends in the ledger.
  func testCarefulWorkItemStopsARunningDrawWhenItsRowLeaves() {
    MainActor.assumeIsolated {
      let model = FeedModel.make(Profile.light.settings, seed: 1)
      let entering = model.visibleRows(atOffset: model.rowHeight).upperBound
      XCTAssertFalse(model.visibleRows(atOffset: 0).contains(entering))
      let held = HeldDraw(row: entering, imageIndex: 0, holdAtPoll: 2)
      defer { held.release() }
      let strategy = CarefulWorkItemStrategy(render: held.render)
      let fixture = FeedFixture(profile: .light, strategy: strategy)
      defer { fixture.tearDown() }
      let feed = fixture.feed

      feed.scroll(to: model.rowHeight)  // the row appears: its draws start on the global queue
      XCTAssertEqual(held.reached.wait(timeout: .now() + 10), .success, "the draw reached its second band")
      feed.scroll(to: 0)  // the row leaves while its draw runs
      held.release()
      XCTAssertEqual(held.finished.wait(timeout: .now() + 10), .success)
      XCTAssertEqual(held.polls, 2, "stopped at the pass boundary after the cancel, not after all 4 bands")
      XCTAssertEqual(held.stopped, true)
      Self.turn { feed.ledger.outstandingJobs == 0 }
      XCTAssertEqual(feed.ledger.outstandingJobs, 0, "every job ended exactly once")
    }
  }

  /// Prefetches are submitted at `utility`; a row that appears before its prefetches started cancels them and
  /// submits its three draws at `userInitiated`; the replaced items never draw, and the row shows its images.
  func testCarefulPrefetchRunsAtUtilityAndAVisibleRowRaisesItsDrawsToUserInitiated() {
    MainActor.assumeIsolated {
      let submitted = SubmittedWorkItems()
      let strategy = CarefulWorkItemStrategy(prefetching: true, submit: { submitted.items.append(($0, $1)) })
      let fixture = FeedFixture(profile: .light, strategy: strategy)
      defer { fixture.tearDown() }
      let feed = fixture.feed
      let rowHeight = feed.model.rowHeight

      feed.scroll(to: rowHeight)  // a row appears; the prefetch window below it is prefetched
      let ahead = feed.visibleRows.upperBound + 1
      let contents = feed.drawContents(ofRow: ahead)
      XCTAssertEqual(contents.map { strategy.drawQoS(of: $0) }, [.utility, .utility, .utility])
      XCTAssertEqual(submitted.items.filter { $0.qos == .userInitiated }.count, 3, "the visible row's draws only")
      let before = submitted.items.count

      feed.scroll(to: 2 * rowHeight)  // `ahead` appears before any item ran
      XCTAssertTrue(feed.visibleRows.contains(ahead))
      XCTAssertEqual(contents.map { strategy.drawQoS(of: $0) }, [.userInitiated, .userInitiated, .userInitiated])
      XCTAssertEqual(submitted.items[before...].filter { $0.qos == .userInitiated }.count, 3)
      XCTAssertEqual(submitted.items.filter { $0.item.isCancelled }.count, 3, "the utility items replaced")

      for entry in submitted.items { entry.item.perform() }  // GCD's part, by hand
      Self.turn { feed.ledger.outstandingJobs == 0 }
      XCTAssertEqual(feed.ledger.outstandingJobs, 0)
      XCTAssertEqual(feed.visibleCells[ahead]?.imagesShown(row: ahead, version: feed.version(of: ahead)), 3)
      XCTAssertEqual(feed.ledger.snapshot.renders, submitted.items.count - 3, "the replaced items drew nothing")
    }
  }

  /// A row that appears while its prefetch is drawing waits for that draw: nothing is re-submitted, the draw keeps
  /// its `utility` QoS, and its image lands in the row.
  func testCarefulVisibleRowWaitsForItsRunningPrefetch() {
    MainActor.assumeIsolated {
      let model = FeedModel.make(Profile.light.settings, seed: 1)
      let ahead = model.visibleRows(atOffset: model.rowHeight).upperBound + 1
      let held = HeldDraw(row: ahead, imageIndex: 0, holdAtPoll: 1)
      defer { held.release() }
      let strategy = CarefulWorkItemStrategy(prefetching: true, render: held.render)
      let fixture = FeedFixture(profile: .light, strategy: strategy)
      defer { fixture.tearDown() }
      let feed = fixture.feed

      feed.scroll(to: model.rowHeight)
      XCTAssertEqual(held.reached.wait(timeout: .now() + 10), .success, "the prefetch is drawing")
      let content = feed.drawContents(ofRow: ahead)[0]
      feed.scroll(to: 2 * model.rowHeight)
      XCTAssertTrue(feed.visibleRows.contains(ahead))
      XCTAssertEqual(strategy.drawQoS(of: content), .utility, "the running item is waited for")
      held.release()
      Self.turn { feed.visibleCells[ahead]?.slot(0) == FeedCell.ImageSlot(row: ahead, version: 0) }
      XCTAssertEqual(feed.visibleCells[ahead]?.slot(0), FeedCell.ImageSlot(row: ahead, version: 0))
      XCTAssertEqual(held.polls, 4, "drawn whole")
    }
  }

  // MARK: Nuke-like pipeline

  /// Nuke's `TaskQueue`: a pending `.low` operation is dequeued after a `.normal` one added later, and a pending
  /// operation raised to `.normal` moves ahead of the `.low` ones queued before it.
  func testNukeTaskQueueDequeuesTheHighestPriorityFirstFIFOWithin() {
    var queue = NukeTaskQueue(maxConcurrentOperationCount: 1)
    let first = queue.add(priority: .normal)
    XCTAssertEqual(queue.next(), first)
    let low = queue.add(priority: .low)
    let raised = queue.add(priority: .low)
    let normal = queue.add(priority: .normal)
    queue.setPriority(raised, .normal)
    XCTAssertNil(queue.next(), "one slot, taken")
    queue.finish(first)
    XCTAssertEqual(queue.next(), normal)
    queue.finish(normal)
    XCTAssertEqual(queue.next(), raised, "the raised one goes to the back of its new bucket")
    queue.finish(raised)
    XCTAssertEqual(queue.next(), low)
  }

  /// Nuke's processing queue runs at most 2 draws at once; a finished one hands its slot to the next.
  func testNukePipelineDrawsAtMostTwoAtOnce() {
    MainActor.assumeIsolated {
      let ledger = RenderLedger()
      let workers = ManualWorkers()
      let pipeline = NukeLikePipeline(submit: workers.submit)
      let delivered = Delivered()
      for content in Self.contents(5, ledger: ledger) {
        _ = pipeline.loadImage(content) { delivered.images.append($0) }
      }
      XCTAssertEqual(workers.count, 2)
      workers.run(0)
      XCTAssertEqual(workers.count, 3, "the finished draw's slot went to the next")
      for index in 1..<5 {
        XCTAssertLessThanOrEqual(workers.count, index + 2)
        workers.run(index)
      }
      Self.turn { ledger.outstandingJobs == 0 }
      XCTAssertEqual(delivered.images.count, 5)
      XCTAssertEqual(ledger.snapshot.renders, 5)
    }
  }

  /// The same bound with real workers, through the strategy: over a feed scrolled with prefetching, never more
  /// than 2 draws run at once.
  func testNukePrefetchNeverRunsMoreThanTwoDrawsAtOnce() {
    MainActor.assumeIsolated {
      let strategy = NukeLikeStrategy(prefetching: true)
      let fixture = FeedFixture(profile: .light, strategy: strategy)
      defer { fixture.tearDown() }
      let feed = fixture.feed
      for row in 1...12 { feed.scroll(to: Double(row) * feed.model.rowHeight) }
      Self.turn { strategy.pendingCount == 0 }
      XCTAssertEqual(strategy.pendingCount, 0)
      XCTAssertTrue(feed.isVisibleContentComplete)
      XCTAssertGreaterThan(feed.ledger.snapshot.renders, 0)
      XCTAssertLessThanOrEqual(feed.ledger.snapshot.peakRunning, 2)
    }
  }

  /// A display request for an image being prefetched joins the prefetch's task: one draw, at the prefetch's
  /// `utility`, delivered to the display request, cached, and the prefetch done.
  func testNukeDisplayRequestForAPrefetchingImageJoinsItsDraw() {
    MainActor.assumeIsolated {
      let ledger = RenderLedger()
      let workers = ManualWorkers()
      let pipeline = NukeLikePipeline(submit: workers.submit)
      let content = Self.contents(1, ledger: ledger)[0]
      pipeline.startPrefetching([content])
      XCTAssertEqual(workers.qos, [.utility])
      let delivered = Delivered()
      XCTAssertNotNil(pipeline.loadImage(content) { delivered.images.append($0) })
      XCTAssertEqual(workers.count, 1, "no second draw")
      XCTAssertEqual(ledger.outstandingJobs, 1, "one task")
      workers.run(0)
      Self.turn { !delivered.images.isEmpty }
      XCTAssertEqual(delivered.images.count, 1)
      XCTAssertEqual(ledger.snapshot.renders, 1)
      XCTAssertEqual(ledger.outstandingJobs, 0)
      XCTAssertEqual(pipeline.prefetchCount, 0)
      XCTAssertTrue(pipeline.cachedImage(for: content) === delivered.images.first)
    }
  }

  /// With both slots busy, two prefetches wait in the processing queue at `.low`; a display request joining the
  /// second raises its task to `.normal`, so it is drawn next, at `userInitiated`, before the first prefetch.
  func testNukeJoiningRaisesAQueuedTaskAheadOfTheLowOnes() {
    MainActor.assumeIsolated {
      let ledger = RenderLedger()
      let workers = ManualWorkers()
      let pipeline = NukeLikePipeline(submit: workers.submit)
      let contents = Self.contents(4, ledger: ledger)
      let delivered = Delivered()
      for content in contents[0..<2] { _ = pipeline.loadImage(content) { delivered.images.append($0) } }
      pipeline.startPrefetching([contents[2], contents[3]])
      _ = pipeline.loadImage(contents[3]) { delivered.images.append($0) }
      XCTAssertEqual(workers.count, 2)
      workers.run(0)
      XCTAssertEqual(workers.qos, [.userInitiated, .userInitiated, .userInitiated], "the raised task is next")
      workers.run(1)
      XCTAssertEqual(workers.qos.last, .utility, "then the prefetch queued before it")
      workers.run(2)
      workers.run(3)
      Self.turn { ledger.outstandingJobs == 0 }
      XCTAssertEqual(delivered.images.map(\.row), [0, 1, 3])
      XCTAssertNotNil(pipeline.cachedImage(for: contents[2]), "the prefetch's image is cached")
    }
  }

  /// A task is cancelled when its last subscriber leaves, not before: a queued draw shared by a display request
  /// and a prefetch survives the display request's cancel, and is dropped (its job ended, never drawn) when the
  /// prefetch stops too.
  func testNukeTaskIsCancelledWhenItsLastSubscriberLeaves() {
    MainActor.assumeIsolated {
      let ledger = RenderLedger()
      let workers = ManualWorkers()
      let pipeline = NukeLikePipeline(submit: workers.submit)
      let contents = Self.contents(3, ledger: ledger)
      let delivered = Delivered()
      for content in contents[0..<2] { _ = pipeline.loadImage(content) { delivered.images.append($0) } }
      let display = pipeline.loadImage(contents[2]) { delivered.images.append($0) }
      pipeline.startPrefetching([contents[2]])
      XCTAssertEqual(ledger.outstandingJobs, 3)
      pipeline.cancel(try! XCTUnwrap(display))
      XCTAssertEqual(ledger.outstandingJobs, 3, "the prefetch still wants it")
      pipeline.stopPrefetching([contents[2]])
      XCTAssertEqual(ledger.outstandingJobs, 2, "the last subscriber left: the queued draw is dropped")
      workers.run(0)
      workers.run(1)
      XCTAssertEqual(workers.count, 2, "the dropped draw never starts")
      Self.turn { ledger.outstandingJobs == 0 }
      XCTAssertEqual(delivered.images.map(\.row), [0, 1])
      XCTAssertEqual(ledger.snapshot.renders, 2)
    }
  }

  /// A running draw whose last subscriber leaves stops at its next pass, delivers nothing, and its job ends.
  func testNukeRunningDrawStopsAtItsNextPassWhenCancelled() {
    MainActor.assumeIsolated {
      let ledger = RenderLedger()
      let content = Self.contents(1, ledger: ledger)[0]
      let held = HeldDraw(row: content.job.row, imageIndex: 0, holdAtPoll: 2)
      defer { held.release() }
      let pipeline = NukeLikePipeline(render: held.render)
      let delivered = Delivered()
      let subscription = pipeline.loadImage(content) { delivered.images.append($0) }
      XCTAssertEqual(held.reached.wait(timeout: .now() + 10), .success)
      pipeline.cancel(try! XCTUnwrap(subscription))
      held.release()
      XCTAssertEqual(held.finished.wait(timeout: .now() + 10), .success)
      XCTAssertEqual(held.polls, 2)
      XCTAssertEqual(held.stopped, true)
      Self.turn { ledger.outstandingJobs == 0 }
      XCTAssertEqual(ledger.outstandingJobs, 0)
      XCTAssertEqual(ledger.snapshot.renders, 0)
      XCTAssertTrue(delivered.images.isEmpty)
      XCTAssertNil(pipeline.cachedImage(for: content))
    }
  }

  /// Rows drawn once and scrolled away come back from the memory cache: their images are set inside
  /// `cellForRow`, before the loop turns.
  func testNukeMemoryCacheHitInCellForRowAppliesAtOnce() {
    MainActor.assumeIsolated {
      let strategy = NukeLikeStrategy()
      let fixture = FeedFixture(profile: .light, strategy: strategy)
      defer { fixture.tearDown() }
      let feed = fixture.feed
      let start = 30 * feed.model.rowHeight
      feed.scroll(to: start)
      Self.turn { strategy.pendingCount == 0 }
      XCTAssertTrue(feed.isVisibleContentComplete)
      let rows = feed.visibleRows
      feed.scroll(to: start + 2 * feed.model.viewportHeight)
      feed.scroll(to: start)
      XCTAssertEqual(feed.visibleRows, rows)
      XCTAssertTrue(feed.isVisibleContentComplete, "every image set in cellForRow")
    }
  }

  /// Nuke's memory cache keeps its cost limit with its CLOCK sweep: an image read since it was stored gets a
  /// second chance, so the oldest unread one goes first.
  func testNukeMemoryCacheEvictsTheOldestUnreadImageFirst() {
    let ledger = RenderLedger()
    let images = (0..<4).map {
      RenderedImage(row: $0, version: 0, imageIndex: 0, pixels: [UInt8](repeating: 0, count: 100), ledger: ledger)
    }
    let keys = Self.contents(4, ledger: ledger)
    var cache = NukeMemoryCache(costLimit: 300, entryCostLimit: 1)
    for index in 0..<3 { cache.insert(images[index], for: keys[index]) }
    XCTAssertNotNil(cache.value(for: keys[0]))
    cache.insert(images[3], for: keys[3])
    XCTAssertEqual(cache.totalCost, 300)
    XCTAssertEqual((0..<4).map { cache.contains(keys[$0]) }, [true, false, true, true])
  }

  // MARK: Registration

  /// The four kinds are background strategies, the prefetch variants prefetch, each keeps at most 32 MB of results
  /// but the careful user without prefetching (no cache), and each is a peer in its kind's contest.
  func testTheStrongPeersAreRegistered() {
    let kinds: [(StrategyKind, prefetches: Bool, limit: Int?)] = [
      (.workItemCareful, false, nil), (.workItemCarefulPrefetch, true, 32 << 20), (.nukePipeline, false, 32 << 20),
      (.nukePrefetch, true, 32 << 20),
    ]
    for (kind, prefetches, limit) in kinds {
      XCTAssertTrue(kind.isBackground, kind.rawValue)
      XCTAssertFalse(kind.isCanary, kind.rawValue)
      MainActor.assumeIsolated {
        XCTAssertEqual(kind.make().prefetches, prefetches, kind.rawValue)
        XCTAssertEqual(kind.resultByteLimit, limit, kind.rawValue)
      }
      let contest = prefetches ? StrategyKind.idleWorkPreparePrefetch : .idleWorkPrepare
      XCTAssertTrue(Verdict.allContests.contains { $0.idleWork == contest && $0.peers.contains(kind) }, kind.rawValue)
      XCTAssertFalse(kind.policy.isEmpty)
    }
  }

  // MARK: Helpers

  /// Image 0 of rows `0..<count`, content version 0, of a light feed, counted in `ledger`.
  private static func contents(_ count: Int, ledger: RenderLedger) -> [DrawContent] {
    let model = FeedModel.make(Profile.light.settings, seed: 1)
    return (0..<count).map {
      DrawContent(RenderJob(model: model, row: $0, version: 0, imageIndex: 0, ledger: ledger))
    }
  }

  /// Turns the main loop until `done` holds (10 s at most); a 1 ms timer keeps it waking meanwhile.
  @MainActor
  private static func turn(until done: @escaping @MainActor () -> Bool) {
    let timer = CFRunLoopTimerCreateWithHandler(nil, CFAbsoluteTimeGetCurrent() + 0.001, 0.001, 0, 0) { _ in }
    CFRunLoopAddTimer(CFRunLoopGetMain(), timer, kCFRunLoopCommonModes)
    defer { CFRunLoopTimerInvalidate(timer) }
    let gate = PhaseGate()
    defer { gate.invalidate() }
    XCTAssertTrue(gate.run(mode: RunLoopModes.defaultCF, timeout: 10, until: done), "the condition came true")
  }
}

/// A render seam that holds one image's draw at a pass boundary: at its `holdAtPoll`-th poll of `isCancelled`
/// the draw signals ``reached`` and waits for ``release()``, then reads the real `isCancelled`; every other
/// draw renders as usual. `@unchecked Sendable`: the semaphores are thread-safe, and `state` is behind a lock.
private final class HeldDraw: @unchecked Sendable {
  let row: Int
  let imageIndex: Int
  let holdAtPoll: Int
  /// Signalled when the held draw reaches its hold.
  let reached = DispatchSemaphore(value: 0)
  /// Signalled when the held draw returned.
  let finished = DispatchSemaphore(value: 0)
  private let gate = DispatchSemaphore(value: 0)
  private let state = Locked((polls: 0, stopped: Bool?.none, released: false))

  init(row: Int, imageIndex: Int, holdAtPoll: Int) {
    self.row = row
    self.imageIndex = imageIndex
    self.holdAtPoll = holdAtPoll
  }

  /// Polls of `isCancelled` the held draw made.
  var polls: Int { state.value.polls }
  /// Whether the held draw stopped early (`nil` until it returned).
  var stopped: Bool? { state.value.stopped }

  /// Lets the held draw go on (once; later calls do nothing).
  func release() {
    let first = state.withValue { state in
      defer { state.released = true }
      return !state.released
    }
    if first { gate.signal() }
  }

  /// The seam: ``RenderJob/render(isCancelled:)``, holding the chosen draw.
  var render: @Sendable (RenderJob, () -> Bool) -> RenderedImage? {
    { [self] job, isCancelled in
      guard job.row == row, job.imageIndex == imageIndex else { return job.render(isCancelled: isCancelled) }
      var polls = 0
      let image = job.render {
        polls += 1
        if polls == holdAtPoll {
          reached.signal()
          gate.wait()
        }
        return isCancelled()
      }
      state.withValue {
        $0.polls = polls
        $0.stopped = image == nil
      }
      finished.signal()
      return image
    }
  }
}

/// The work items a strategy handed to GCD, with their QoS, kept to run by hand.
@MainActor
private final class SubmittedWorkItems {
  var items: [(qos: DispatchQoS.QoSClass, item: DispatchWorkItem)] = []
}

/// A pipeline's draws, kept to run by hand on the calling thread, with their QoS.
private final class ManualWorkers: Sendable {
  private let blocks = Locked<[(qos: DispatchQoS.QoSClass, block: @Sendable () -> Void)]>([])

  /// The seam to give the pipeline.
  var submit: NukeLikePipeline.Submit {
    { [blocks] qos, block in blocks.withValue { $0.append((qos, block)) } }
  }

  /// Draws submitted so far.
  var count: Int { blocks.value.count }
  /// Their QoS, in order.
  var qos: [DispatchQoS.QoSClass] { blocks.value.map(\.qos) }

  /// Runs draw `index` now.
  func run(_ index: Int) { blocks.value[index].block() }
}

/// The images a pipeline's completions delivered, in order.
@MainActor
private final class Delivered {
  var images: [RenderedImage] = []
}
