import Foundation

/// The background path's book-keeping for one scenario, shared by the main thread and the strategies'
/// workers: renders completed, bytes of rendered results alive (and their peak), renders running at once
/// (and their peak), live threads sampled while renders run, and the strategy's outstanding work (what
/// `pendingCount` reports for a background strategy: jobs handed to a queue whose chain — draw, hop to
/// main, apply or drop — has not ended).
final class RenderLedger: @unchecked Sendable {
  // @unchecked Sendable: every stored property is read and written only while holding `lock`.
  private let lock = NSLock()
  private var nextID = 0
  private var renders = 0
  private var liveBytes = 0
  private var peakLiveBytes = 0
  private var running = 0
  private var peakRunning = 0
  private var peakThreads = 0
  private var outstanding = 0

  /// Creates an empty ledger.
  init() {}

  /// A render finished: returns its id and counts its bytes as alive.
  func imageCreated(bytes: Int) -> Int {
    lock.lock()
    defer { lock.unlock() }
    nextID += 1
    renders += 1
    liveBytes += bytes
    peakLiveBytes = max(peakLiveBytes, liveBytes)
    return nextID
  }

  /// A rendered result was freed.
  func imageReleased(bytes: Int) {
    lock.lock()
    liveBytes -= bytes
    lock.unlock()
  }

  /// A render starts on the calling thread: counts it running, and samples the process's live threads.
  func renderBegan() {
    let threads = ProcessProbe.liveThreads()
    lock.lock()
    running += 1
    peakRunning = max(peakRunning, running)
    peakThreads = max(peakThreads, threads)
    lock.unlock()
  }

  /// A render ended (finished or cancelled).
  func renderEnded() {
    lock.lock()
    running -= 1
    lock.unlock()
  }

  /// Samples the live threads (the main thread calls it at each frame).
  func sampleThreads() {
    let threads = ProcessProbe.liveThreads()
    lock.lock()
    peakThreads = max(peakThreads, threads)
    lock.unlock()
  }

  /// A strategy handed a job to its workers (balanced by ``jobEnded()``).
  func jobStarted() {
    lock.lock()
    outstanding += 1
    lock.unlock()
  }

  /// A job's chain ended: applied, dropped at a check, or cancelled.
  func jobEnded() {
    lock.lock()
    outstanding -= 1
    lock.unlock()
  }

  /// What the ledger holds now.
  struct Snapshot: Sendable, Equatable {
    var renders = 0
    var liveBytes = 0
    var peakLiveBytes = 0
    var peakRunning = 0
    var peakThreads = 0
    var outstanding = 0
  }

  /// The figures so far.
  var snapshot: Snapshot {
    lock.lock()
    defer { lock.unlock() }
    return Snapshot(
      renders: renders, liveBytes: liveBytes, peakLiveBytes: peakLiveBytes, peakRunning: peakRunning,
      peakThreads: peakThreads, outstanding: outstanding)
  }

  /// Jobs whose chain has not ended.
  var outstandingJobs: Int { snapshot.outstanding }
}
