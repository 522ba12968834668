import CoreFoundation

/// Ends a scenario phase as soon as its condition holds: an observer at `kCFRunLoopBeforeWaiting` in the
/// common modes, ordered after every strategy's observer (`CFIndex.max`), checks the condition each time
/// the loop is about to sleep and stops the loop (`CFRunLoopStop` also wakes it).
///
/// It adds no wake-ups of its own; it is disarmed during the idle measurement.
@MainActor
final class PhaseGate {
  private var observer: CFRunLoopObserver?
  private var condition: (@MainActor () -> Bool)?

  /// Installs the observer.
  init() {
    let observer = CFRunLoopObserverCreateWithHandler(
      nil, CFRunLoopActivity.beforeWaiting.rawValue, true, CFIndex.max
    ) { [weak self] _, _ in
      MainActor.assumeIsolated { self?.check() }
    }
    CFRunLoopAddObserver(CFRunLoopGetMain(), observer, kCFRunLoopCommonModes)
    self.observer = observer
  }

  /// Runs the main loop in `mode` until `done` holds or `timeout` seconds pass; returns whether `done` held.
  @discardableResult
  func run(mode: CFString, timeout: Double, until done: @escaping @MainActor () -> Bool) -> Bool {
    condition = done
    defer { condition = nil }
    RunLoopModes.run(mode: mode, timeout: timeout, until: done)
    return done()
  }

  /// Removes the observer.
  func invalidate() {
    if let observer { CFRunLoopObserverInvalidate(observer) }
    observer = nil
  }

  private func check() {
    if let condition, condition() { CFRunLoopStop(CFRunLoopGetMain()) }
  }
}
