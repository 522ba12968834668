import CoreFoundation

/// Core Animation's commit, simulated: a `kCFRunLoopBeforeWaiting` observer at order 2,000,000 in the
/// common modes that lays out (the table's `layoutSubviews`: ``onLayout``), does a frame's render work (real CPU
/// work, a fixed number of kernel rounds that varies from frame to frame) and records when the commit ended. A
/// frame is dropped when its commit ends after the next vsync.
///
/// The order is what makes observer placement testable: Texture's queue (order 0) runs *before* the commit
/// and delays the frame being built; IdleWork (2,100,000) and DWU (`Int.max - 999`) run after it.
///
/// Every BeforeWaiting, frame or not, is also Core Animation's implicit transaction: first the layout pass
/// (``onLayout``: `cellForRow` for the rows a frame's scroll brought in, as UIKit runs it), then the display pass
/// (`-display` of every layer that called `setNeedsDisplay` since the last one: ``setNeedsDisplay(_:_:)``),
/// then ``onTransaction`` (the feed copies each image set since the previous commit, as the commit copies a
/// new bitmap to the render server), then the frame's own commit work if a frame is pending.
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

  /// The commit work per frame on average, in nanoseconds (when the kernel was timed).
  let commitNanos: UInt64
  /// The kernel rounds of an average frame's commit work, from the kernel's speed timed once per process (before
  /// any load), so a frame whose thread is preempted takes longer, as a real commit does.
  let commitIterations: Int
  /// How much a frame's work varies: each frame does between 1 − this and 1 + this times the average.
  nonisolated static let variation = 0.2
  /// Called after each commit with the frame's vsync tick, its start, the commit's end, and whether it is
  /// the first frame since the link resumed.
  var onCommit: (@MainActor (_ tick: Int64, _ start: UInt64, _ end: UInt64, _ afterResume: Bool) -> Void)?
  /// Called at every commit, before the frame's work: the transaction's share (copying applied images).
  var onTransaction: (@MainActor () -> Void)?
  /// Called at every commit first: the layout pass (`layoutSubviews`, where the table calls `cellForRow`).
  var onLayout: (@MainActor () -> Void)?
  private var pending: Pending?
  /// Layers waiting for the display pass, in the order they asked (each once per pass).
  private var needsDisplay: [(key: AnyHashable, display: @MainActor () -> Void)] = []
  private var needsDisplayKeys: Set<AnyHashable> = []
  private var observer: CFRunLoopObserver?
  private var sink: UInt64 = 0

  /// Installs the observer on the main run loop.
  init(commitNanos: UInt64) {
    self.commitNanos = commitNanos
    commitIterations = Int((Double(commitNanos) * CPUWork.iterationsPerNanosecond).rounded())
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
    onLayout?()
    runDisplayPass()
    onTransaction?()
    guard let frame = pending else { return }
    pending = nil
    sink &+= CPUWork.run(iterations: Self.iterations(commitIterations, tick: frame.tick), seed: UInt64(frame.tick))
    let end = Clock.now
    onCommit?(frame.tick, frame.start, end, frame.afterResume)
  }

  /// The kernel rounds of frame `tick`'s work: `average` times a factor within ±``variation``, the same for the
  /// same tick in every strategy's run.
  nonisolated static func iterations(_ average: Int, tick: Int64) -> Int {
    var x = UInt64(bitPattern: tick) &* 0x9E37_79B9_7F4A_7C15
    x ^= x >> 29
    let unit = Double(x % 10_000) / 10_000  // 0..<1
    return Int((Double(average) * (1 - variation + 2 * variation * unit)).rounded())
  }

  /// `-[CALayer setNeedsDisplay]`: `display` runs in the next commit's display pass (once, however often
  /// the layer `key` asked). The loop is woken so that the pass comes at the next turn even when nothing
  /// else would wake it (a request made after this turn's commit, at a later BeforeWaiting observer).
  func setNeedsDisplay(_ key: AnyHashable, _ display: @escaping @MainActor () -> Void) {
    guard needsDisplayKeys.insert(key).inserted else { return }
    needsDisplay.append((key, display))
    CFRunLoopWakeUp(CFRunLoopGetMain())
  }

  private func runDisplayPass() {
    guard !needsDisplay.isEmpty else { return }
    let layers = needsDisplay
    needsDisplay = []
    needsDisplayKeys = []
    for layer in layers { layer.display() }
  }

  /// Removes the observer.
  func invalidate() {
    if let observer { CFRunLoopObserverInvalidate(observer) }
    observer = nil
    pending = nil
    needsDisplay = []
    needsDisplayKeys = []
    onTransaction = nil
    onLayout = nil
  }
}
