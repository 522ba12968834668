import CoreFoundation
import Foundation
import XCTest

/// Spins the main run loop in `mode` until `condition` holds or `timeout` seconds pass.
/// A one-shot far-future timer keeps a custom mode from returning at once (GUIDE.md §1).
@MainActor
package func spin(
  until condition: () -> Bool, timeout: TimeInterval, mode: RunLoop.Mode = .default,
  file: StaticString = #filePath, line: UInt = #line
) {
  let deadline = Date().addingTimeInterval(timeout)
  while !condition(), Date() < deadline {
    _ = RunLoop.main.run(mode: mode, before: min(deadline, Date().addingTimeInterval(0.05)))
  }
  XCTAssertTrue(condition(), "condition not met within \(timeout) s", file: file, line: line)
}

/// Counts BeforeWaiting moments of the main run loop in the given modes, with a second observer.
@MainActor
package final class PassCounter {
  package private(set) var count = 0
  private var observer: CFRunLoopObserver?

  package init(modes: [CFRunLoopMode] = [cfDefaultMode], order: Int = 3_000_000) {
    let observer = CFRunLoopObserverCreateWithHandler(
      nil, CFRunLoopActivity.beforeWaiting.rawValue, true, CFIndex(order)
    ) { [weak self] _, _ in
      MainActor.assumeIsolated { self?.count += 1 }
    }
    self.observer = observer
    for mode in modes { CFRunLoopAddObserver(CFRunLoopGetMain(), observer, mode) }
  }

  package func remove() {
    if let observer { CFRunLoopObserverInvalidate(observer) }
    observer = nil
  }
}

/// A CF timer on the main run loop in `mode`, whose body runs on the main actor. Invalidate it when done.
@MainActor
@discardableResult
package func addTimer(
  every interval: TimeInterval, repeats: Bool = true, mode: RunLoop.Mode,
  _ body: @escaping @MainActor () -> Void
) -> CFRunLoopTimer {
  let timer = CFRunLoopTimerCreateWithHandler(
    nil, CFAbsoluteTimeGetCurrent() + interval, repeats ? interval : 0, 0, 0
  ) { _ in
    MainActor.assumeIsolated { body() }
  }!
  CFRunLoopAddTimer(CFRunLoopGetMain(), timer, cfMode(mode))
  return timer
}

/// The CoreFoundation name of a run-loop mode (a struct on Apple platforms, a `CFString` on Linux).
package func cfMode(_ mode: RunLoop.Mode) -> CFRunLoopMode {
  if mode == .default { return cfDefaultMode }
  #if canImport(Darwin)
    return CFRunLoopMode(rawValue: mode.rawValue as CFString)
  #else
    return CFStringCreateWithCString(nil, mode.rawValue, CFStringBuiltInEncodings.UTF8.rawValue)
  #endif
}

/// `kCFRunLoopDefaultMode`, spelled `CFRunLoopMode.defaultMode` in Apple's Swift overlay.
package var cfDefaultMode: CFRunLoopMode {
  #if canImport(Darwin)
    return CFRunLoopMode.defaultMode
  #else
    return kCFRunLoopDefaultMode
  #endif
}
