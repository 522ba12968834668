import CoreFoundation
import Foundation
import XCTest

@testable import FeedDemoKit

/// The background path's metrics, each shown failing on a hand-built trace (or a hand-driven feed) and
/// clean on another: wrong-cell applies, flicker, renders wasted, CPU, threads, result bytes.
final class BackgroundMetricsTests: XCTestCase {
  private static func result(_ recording: Recording) -> ScenarioResult {
    ScenarioMetrics.result(kind: .workItem, profile: .reload, refreshHz: 60, recording: recording, origin: 0)
  }

  /// A trace: two background applies, one into a cell showing another content version; renders 5 of which
  /// 2 were applied.
  func testWrongCellAppliesAndWastedRendersFailOnATrace() {
    var recording = Recording()
    recording.draws = [
      .init(start: 0, end: 1, row: 1, verdict: .fresh, background: true),
      .init(start: 1, end: 2, row: 2, verdict: .stale, background: true),
    ]
    recording.backgroundRenders = 5
    recording.appliedRenders = [1, 2]
    let r = Self.result(recording)
    XCTAssertEqual(r[.wrongCellApplies], 1)
    XCTAssertEqual(r[.staleExecutions], 1)
    XCTAssertEqual(r[.rendersWasted], 3)
    XCTAssertEqual(r[.drawsExecuted], 5, "renders off the main thread; their applies are not draws")
    var clean = Recording()
    clean.draws = [.init(start: 0, end: 1, row: 1, verdict: .fresh, background: true)]
    clean.backgroundRenders = 1
    clean.appliedRenders = [1]
    XCTAssertEqual(Self.result(clean)[.wrongCellApplies], 0)
    XCTAssertEqual(Self.result(clean)[.rendersWasted], 0)
  }

  /// CPU, threads and result bytes come through the metrics as recorded; the threads figure is the larger of
  /// the live threads' growth and the renders that ran at once.
  func testCostFiguresThroughTheMetrics() {
    var recording = Recording()
    recording.cpuProcessMs = 812.5
    recording.cpuMainMs = 301
    recording.threadBaseline = 9
    recording.threadPeak = 30
    recording.peakConcurrentRenders = 4
    recording.peakResultBytes = 37_000_000
    let r = Self.result(recording)
    XCTAssertEqual(r[.cpuMs], 812.5)
    XCTAssertEqual(r[.mainThreadCpuMs], 301)
    XCTAssertEqual(r[.peakThreads], 21)
    XCTAssertEqual(r[.peakResultBytes], 37_000_000)
    recording.threadPeak = 8  // threads left by an earlier run: the renders running at once still count
    XCTAssertEqual(Self.result(recording)[.peakThreads], 4)
  }

  /// Work on another thread shows in the process's CPU time and not in the main thread's; work on the main
  /// thread shows in both. (No timing: only which clock moves.)
  func testProcessAndMainThreadClocks() {
    let mainBefore = ProcessProbe.threadCPUMilliseconds()
    let processBefore = ProcessProbe.processCPUMilliseconds()
    let done = DispatchSemaphore(value: 0)
    let sink = Locked<UInt64>(0)
    let thread = Thread {
      sink.value = CPUWork.run(iterations: 40_000_000, seed: 3)
      done.signal()
    }
    thread.start()
    done.wait()
    let mainAfter = ProcessProbe.threadCPUMilliseconds()
    let processAfter = ProcessProbe.processCPUMilliseconds()
    XCTAssertGreaterThan(processAfter - processBefore, (mainAfter - mainBefore) + 5)
    XCTAssertNotEqual(sink.value, 0)
  }

  /// A thread kept alive on a semaphore is an entry in `/proc/self/task`, which `liveThreads()` counts. (Checked
  /// by the thread's own ID: a count taken before it started could already include threads of earlier tests that
  /// ended meanwhile — a worker pool's idle threads — and fail for no fault of the probe.)
  func testLiveThreadsCountAThread() throws {
    #if !os(Linux)
      throw XCTSkip("/proc/self/task is Linux's")
    #else
      final class Box: @unchecked Sendable {
        // @unchecked Sendable: written by the thread before `started.signal()`, read after `started.wait()`.
        var id = 0
      }
      let box = Box()
      let started = DispatchSemaphore(value: 0)
      let release = DispatchSemaphore(value: 0)
      let ended = DispatchSemaphore(value: 0)
      let thread = Thread {
        // "/proc/thread-self" links to "<pid>/task/<tid>".
        let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
        box.id = Int(link.split(separator: "/").last ?? "") ?? 0
        started.signal()
        release.wait()
        ended.signal()
      }
      thread.start()
      started.wait()
      XCTAssertGreaterThan(box.id, 0)
      let ids = ProcessProbe.liveThreadIDs()
      XCTAssertTrue(ids.contains(box.id), "thread \(box.id) among \(ids.sorted())")
      XCTAssertGreaterThanOrEqual(ProcessProbe.liveThreads(), 2, "this thread and the test's")
      release.signal()
      ended.wait()
    #endif
  }

  /// Rendered results alive are counted while held and released when freed; the peak stays.
  func testResultBytesAreCountedWhileHeld() {
    let ledger = RenderLedger()
    let model = FeedModel.make(Profile.light.settings, seed: 1)
    let job = RenderJob(model: model, row: 3, version: 0, imageIndex: 1, ledger: ledger)
    var held: [RenderedImage] = []
    for _ in 0..<3 { held.append(job.render()!) }
    XCTAssertEqual(ledger.snapshot.liveBytes, 3 * ImageRasterizer.byteCount)
    held.removeAll()
    XCTAssertEqual(ledger.snapshot.liveBytes, 0)
    XCTAssertEqual(ledger.snapshot.peakLiveBytes, 3 * ImageRasterizer.byteCount)
    XCTAssertEqual(ledger.snapshot.renders, 3)
    XCTAssertNil(job.render(isCancelled: { true }), "a cancelled draw is no render")
    XCTAssertEqual(ledger.snapshot.renders, 3)
  }

  /// Flicker: an image of a cell on screen cleared, shown so by a commit, then set again with the same
  /// content counts once; cleared and set again before any commit (the user never saw it) counts nothing.
  func testFlickerFailsOnlyWhenACommitShowedTheLoss() {
    MainActor.assumeIsolated {
      let fixture = FeedFixture(profile: .light, strategy: SyncStrategy())
      defer { fixture.tearDown() }
      let (feed, recorder) = (fixture.feed, fixture.recorder)
      let row = feed.visibleRows.lowerBound
      let cell = feed.visibleCells[row]!
      let image = RenderJob(model: feed.model, row: row, version: 0, imageIndex: 0, ledger: feed.ledger).render()!
      feed.clearImage(index: 0, of: cell)
      feed.apply(image, to: cell)
      feed.commitTransaction()
      XCTAssertEqual(recorder.recording.flicker, 0)
      feed.clearImage(index: 0, of: cell)
      feed.commitTransaction()
      feed.apply(image, to: cell)
      XCTAssertEqual(recorder.recording.flicker, 1)
      XCTAssertEqual(Self.result(recorder.recording)[.flicker], 1)
    }
  }

  /// A reload while the old content's draws are in flight: a strategy with no check, or only an index-path
  /// check, applies the old content into cells configured for the new (wrong-cell applies); sentinels (YY,
  /// Texture) and IdleWork's `bind` apply none. The loop turns until every strategy holds nothing.
  func testReloadDuringDrawsFailsIndexPathAndNoChecksButNotSentinels() {
    MainActor.assumeIsolated {
      XCTAssertGreaterThan(Self.wrongCellAfterReload(BackgroundNoGuardStrategy()), 0)
      XCTAssertGreaterThan(Self.wrongCellAfterReload(WorkItemStrategy()), 0)
      XCTAssertEqual(Self.wrongCellAfterReload(YYAsyncLayerStrategy()), 0)
      XCTAssertEqual(Self.wrongCellAfterReload(TextureAsyncDisplayStrategy()), 0)
      XCTAssertEqual(Self.wrongCellAfterReload(IdleWorkStrategy(variant: .prepare(workers: 1))), 0)
    }
  }

  /// The visible rows of a light feed configured (21 draws), then reconfigured with new content in the same
  /// turn (21 more); the loop runs until the strategy holds nothing. Returns the wrong-cell applies.
  @MainActor
  private static func wrongCellAfterReload(_ strategy: FeedStrategy) -> Double {
    let fixture = FeedFixture(profile: .reload, strategy: strategy)
    defer { fixture.tearDown() }
    let (feed, recorder) = (fixture.feed, fixture.recorder)
    // Holding nothing includes the applies queued on the main queue.
    fixture.reconfigureTwiceAndTurn(timerMode: kCFRunLoopCommonModes, timeout: 10) {
      strategy.pendingCount == 0 && feed.ledger.outstandingJobs == 0
    }
    XCTAssertEqual(strategy.pendingCount, 0, "\(type(of: strategy)) drained")
    return ScenarioMetrics.result(
      kind: .workItem, profile: .reload, refreshHz: 60, recording: recorder.recording, origin: 0)[.wrongCellApplies]
  }
}
