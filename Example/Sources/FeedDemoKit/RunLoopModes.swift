import CoreFoundation
import Foundation

/// The run-loop modes of the simulation, named and used as UIKit uses them: while a finger drags the list
/// or it decelerates, the main loop runs in the tracking mode; at rest, in the default mode.
@MainActor
enum RunLoopModes {
  /// UIKit's tracking mode name, `UITrackingRunLoopMode`.
  static let tracking = RunLoop.Mode("UITrackingRunLoopMode")

  /// The tracking mode as a CoreFoundation string.
  static let trackingCF: CFString = cfString(tracking.rawValue)

  /// The default mode as a CoreFoundation string.
  static var defaultCF: CFString { cfMode(kCFRunLoopDefaultMode) }

  /// Makes the tracking mode a common mode of the main loop, as UIKit does, so that common-mode timers
  /// (the display link), sources and the main dispatch queue are served in it.
  static func install() {
    #if canImport(Darwin)
      CFRunLoopAddCommonMode(CFRunLoopGetMain(), CFRunLoopMode(trackingCF))
    #else
      CFRunLoopAddCommonMode(CFRunLoopGetMain(), trackingCF)
    #endif
  }

  /// Runs the main loop in `mode` until `done()` holds or `timeout` seconds pass. `done` is re-checked
  /// each time the loop returns; whoever makes it true calls `CFRunLoopStop` (see `PhaseGate`).
  static func run(mode: CFString, timeout: Double, until done: () -> Bool) {
    let deadline = Clock.now + Clock.nanoseconds(timeout)
    while !done() {
      let now = Clock.now
      guard now < deadline else { return }
      let remaining = Double(deadline - now) / 1e9
      #if canImport(Darwin)
        _ = CFRunLoopRunInMode(CFRunLoopMode(mode), remaining, false)
      #else
        _ = CFRunLoopRunInMode(mode, remaining, false)
      #endif
    }
  }

  /// A CoreFoundation string (`"x" as CFString` does not compile on Linux).
  static func cfString(_ string: String) -> CFString {
    #if canImport(Darwin)
      return string as CFString
    #else
      return CFStringCreateWithCString(nil, string, CFStringBuiltInEncodings.UTF8.rawValue)
    #endif
  }

  #if canImport(Darwin)
    private static func cfMode(_ mode: CFRunLoopMode) -> CFString { mode.rawValue }
  #else
    private static func cfMode(_ mode: CFString) -> CFString { mode }
  #endif
}
