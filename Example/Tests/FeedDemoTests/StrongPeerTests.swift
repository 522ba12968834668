import CoreFoundation
import Dispatch
import Foundation
import XCTest

@testable import FeedDemoKit

/// The strongest peers a careful developer would pick: the careful GCD user (`workItemCareful`,
/// `workItemCarefulPrefetch`) — its cancellation of running draws and its QoS.
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

  // MARK: Helpers

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
