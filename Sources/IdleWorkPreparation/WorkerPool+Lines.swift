import Foundation
import IdleWork

extension WorkerPool {
  // MARK: Lines (lock held by the caller unless said otherwise)

  /// A line opens: the pool may grow to its bound. Takes the lock.
  func open(_ line: PreparationLine) {
    lock.lock()
    defer { lock.unlock() }
    lines[ObjectIdentifier(line)] = line.limit
    limit = max(limit, line.limit)
    startWorkerLocked()  // preparations already waiting may start on the lanes a larger limit allows
  }

  /// A line closed: its waiting preparations are dropped and returned, to release on the main thread.
  func closeLocked(_ line: PreparationLine) -> [PreparationRun] {
    lines[ObjectIdentifier(line)] = nil
    limit = lines.values.max() ?? 0
    var dropped: [PreparationRun] = []
    for run in waiting where run.line === line && run.phase == .waiting {
      _ = run.life.apply(.queueEnded)  // (the line's count of wanted waiting preparations goes with it)
      dropped.append(run)
    }
    compactLocked()
    return dropped
  }

  /// Takes the dropped preparations out of `waiting`, into the release bin: they may be the last references.
  private func compactLocked() {
    var kept: [PreparationRun] = []
    var gone: [AnyObject] = []
    for run in waiting {
      if run.phase == .waiting { kept.append(run) } else { gone.append(run) }
    }
    waiting = kept
    droppedInWaiting = 0
    releaseOnMainLocked(gone)
  }

  /// Puts a new preparation in line; starts a worker for it if some request wants it now.
  func submitLocked(_ run: PreparationRun) {
    waiting.append(run)
    if run.urgent > 0 { visibleRowArrivedLocked(run) }
    if run.wanted > 0 { startWorkerLocked() }
  }

  /// A waiting preparation was dropped: it is skipped, and the list compacted once dropped entries are half of it.
  func droppedLocked() {
    droppedInWaiting += 1
    if droppedInWaiting >= 32, droppedInWaiting * 2 >= waiting.count { compactLocked() }
  }

  /// Some preparation of `line` may have become runnable (wanted, or the line below its bound again).
  func wantedLocked() { startWorkerLocked() }

  func waitingCountLocked(of line: PreparationLine) -> Int {
    waiting.reduce(0) { $0 + ($1.line === line && $1.phase == .waiting ? 1 : 0) }
  }

  /// Workers busy now (lanes with a preparation), and the most busy at once.
  var threadCounts: (now: Int, peak: Int) {
    lock.lock()
    defer { lock.unlock() }
    return (busyLanes, peak)
  }

  /// Hands `references` to the main thread, which drops them outside the lock. Lock held.
  func releaseOnMainLocked(_ references: [AnyObject]) {
    guard !references.isEmpty else { return }
    releaseBin.append(contentsOf: references)
    guard releaseBin.count == references.count else { return }
    DispatchQueue.main.async { [self] in
      lock.lock()
      let released = releaseBin
      releaseBin = []
      lock.unlock()
      withExtendedLifetime(released) {}
    }
  }
}
