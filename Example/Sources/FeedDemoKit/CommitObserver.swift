import CoreFoundation

/// Core Animation's commit, simulated: a `kCFRunLoopBeforeWaiting` observer at order 2,000,000 in the
/// common modes that does a frame's layout/commit work (real CPU, a fixed cost per frame) and records
/// when the commit ended. A frame is dropped when its commit ends after the next vsync.
///
/// The order is what makes observer placement testable: Texture's queue (order 0) runs *before* the commit
/// and delays the frame being built; IdleWork (2,100,000) and DWU (`Int.max - 999`) run after it.
@MainActor
final class CommitObserver {
  /// Core Animation's commit observer order (UIKit's before/after-commit handlers are 1,999,000 and
  /// 2,001,000).
  static let order = 2_000_000

  /// A frame built by the display link and not yet committed.
  private struct Pending {
    let tick: Int64
    let start: UInt64
    let afterResume: Bool
  }

  /// The commit work per frame, in nanoseconds.
  let commitNanos: UInt64
  /// Called after each commit with the frame's vsync tick, its start, the commit's end, and whether it is
  /// the first frame since the link resumed.
  var onCommit: (@MainActor (_ tick: Int64, _ start: UInt64, _ end: UInt64, _ afterResume: Bool) -> Void)?
  private var pending: Pending?
  private var observer: CFRunLoopObserver?
  private var sink: UInt64 = 0

  /// Installs the observer on the main run loop.
  init(commitNanos: UInt64) {
    self.commitNanos = commitNanos
    let observer = CFRunLoopObserverCreateWithHandler(
      nil, CFRunLoopActivity.beforeWaiting.rawValue, true, CFIndex(CommitObserver.order)
    ) { [weak self] _, _ in
      MainActor.assumeIsolated { self?.flush() }
    }
    CFRunLoopAddObserver(CFRunLoopGetMain(), observer, kCFRunLoopCommonModes)
    self.observer = observer
  }

  /// The display link built the frame for `tick`; it is committed at the next BeforeWaiting.
  func frameBuilt(tick: Int64, start: UInt64, afterResume: Bool) {
    pending = Pending(tick: tick, start: start, afterResume: afterResume)
  }

  /// Commits the pending frame, if any. Called at BeforeWaiting, and by the display link when a new vsync
  /// comes before the loop reached BeforeWaiting: a version-0 source handled in a turn makes CoreFoundation
  /// skip that turn's BeforeWaiting, which a mach-port source on iOS does not, so the frame is committed
  /// before the next one is built rather than never.
  func flush() {
    guard let frame = pending else { return }
    pending = nil
    let begin = Clock.now
    sink &+= CPUWork.run(forNanoseconds: commitNanos, seed: begin)
    let end = Clock.now
    onCommit?(frame.tick, frame.start, end, frame.afterResume)
  }

  /// Removes the observer.
  func invalidate() {
    if let observer { CFRunLoopObserverInvalidate(observer) }
    observer = nil
    pending = nil
  }
}
