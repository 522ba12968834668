import CoreFoundation
import Dispatch
import Foundation

/// The CoreFoundation glue: a `CFRunLoopObserver` at `kCFRunLoopBeforeWaiting` on the main run loop.
///
/// - Idle modes (default: `kCFRunLoopDefaultMode` only) get ``IdlePassKind/idle`` passes. While UIKit
///   tracks a scroll the main loop runs in `UITrackingRunLoopMode`, where such an observer does not fire,
///   so no idle work competes with the finger.
/// - Tracking modes (empty unless ``IdleQueue/Configuration/scrollingSlack`` is set) get
///   ``IdlePassKind/tracking`` passes.
/// - Waking: `requestPass()` calls `CFRunLoopWakeUp`. Called inside the BeforeWaiting callout it makes
///   the loop come round at once instead of sleeping; with nothing pending nobody calls it, and the loop
///   sleeps — there is no keep-alive timer.
@MainActor
final class RunLoopPassDriver: IdlePassDriver {
  private let runLoop: CFRunLoop
  private let idleModes: [CFString]
  private let trackingModes: [CFString]
  private let order: Int
  nonisolated(unsafe) private var observer: CFRunLoopObserver?

  init(modes: [RunLoop.Mode], trackingModes: [RunLoop.Mode], order: Int) {
    self.runLoop = CFRunLoopGetMain()
    self.idleModes = modes.map(Self.cfMode)
    self.trackingModes = trackingModes.map(Self.cfMode)
    self.order = order
  }

  deinit {
    if let observer { CFRunLoopObserverInvalidate(observer) }
  }

  func start(_ pass: @escaping @MainActor (IdlePassKind) -> Void) {
    precondition(observer == nil, "IdleWork: a RunLoopPassDriver is started once")
    let idleModes = self.idleModes
    let observer = CFRunLoopObserverCreateWithHandler(
      kCFAllocatorDefault, CFRunLoopActivity.beforeWaiting.rawValue, true, CFIndex(order)
    ) { _, _ in
      MainActor.assumeIsolated {
        pass(Self.currentModeIsIdle(idleModes) ? .idle : .tracking)
      }
    }
    self.observer = observer
    for mode in idleModes + trackingModes { CFRunLoopAddObserver(runLoop, observer, mode) }
  }

  func requestPass() {
    CFRunLoopWakeUp(runLoop)
  }

  func stop() {
    guard let observer else { return }
    CFRunLoopObserverInvalidate(observer)
    self.observer = nil
  }

  var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

  nonisolated func makeWaker() -> @Sendable () -> Void {
    let box = RunLoopBox(runLoop: CFRunLoopGetMain())
    return { CFRunLoopWakeUp(box.runLoop) }
  }

  private static func currentModeIsIdle(_ idleModes: [CFString]) -> Bool {
    guard let current = CFRunLoopCopyCurrentMode(CFRunLoopGetMain()) else { return true }
    if idleModes.contains(where: { CFEqual($0, current) }) { return true }
    // With common modes among the idle modes, every mode counts as idle.
    return idleModes.contains(where: { CFEqual($0, kCFRunLoopCommonModes) })
  }

  static func cfMode(_ mode: RunLoop.Mode) -> CFString {
    if mode == .default { return kCFRunLoopDefaultMode }
    if mode == .common { return kCFRunLoopCommonModes }
    #if canImport(Darwin)
      return mode.rawValue as CFString
    #else
      return CFStringCreateWithCString(nil, mode.rawValue, CFStringBuiltInEncodings.UTF8.rawValue)
    #endif
  }
}

/// `CFRunLoopWakeUp` is thread-safe; the box only carries the reference across threads.
private struct RunLoopBox: @unchecked Sendable {
  let runLoop: CFRunLoop
}
