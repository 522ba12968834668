import CoreFoundation

/// Debugging aid (`FEEDDEMO_DEBUG=1`): timestamps the work done at each `kCFRunLoopBeforeWaiting` by
/// observers ordered between `before` and `after` — for IdleWork, its passes — and each wake-up, so a late
/// frame can be traced to what held the main thread.
@MainActor
final class PassTracer {
  /// One BeforeWaiting span: from the observer before the traced ones to the one after.
  private(set) var spans: [(start: UInt64, end: UInt64)] = []
  /// Each AfterWaiting.
  private(set) var wakes: [UInt64] = []
  private var observers: [CFRunLoopObserver] = []
  private var open: UInt64?

  /// Traces observers with orders strictly between `before` and `after`, in every common mode.
  init(before: Int, after: Int) {
    let first = CFRunLoopObserverCreateWithHandler(nil, CFRunLoopActivity.beforeWaiting.rawValue, true, before) {
      [weak self] _, _ in MainActor.assumeIsolated { self?.open = Clock.now }
    }
    let last = CFRunLoopObserverCreateWithHandler(nil, CFRunLoopActivity.beforeWaiting.rawValue, true, after) {
      [weak self] _, _ in
      MainActor.assumeIsolated {
        guard let self, let start = self.open else { return }
        self.spans.append((start, Clock.now))
        self.open = nil
      }
    }
    let wake = CFRunLoopObserverCreateWithHandler(nil, CFRunLoopActivity.afterWaiting.rawValue, true, 0) {
      [weak self] _, _ in MainActor.assumeIsolated { self?.wakes.append(Clock.now) }
    }
    observers = [first, last, wake].compactMap { $0 }
    for observer in observers { CFRunLoopAddObserver(CFRunLoopGetMain(), observer, kCFRunLoopCommonModes) }
  }

  /// Removes the observers.
  func invalidate() {
    for observer in observers { CFRunLoopObserverInvalidate(observer) }
    observers = []
  }
}
