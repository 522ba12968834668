import CoreFoundation
import Dispatch
import Foundation

/// The CoreFoundation glue: a `CFRunLoopObserver` at `kCFRunLoopBeforeWaiting` on the main run loop.
///
/// - Idle modes (default: `kCFRunLoopDefaultMode` only) get ``IdlePassKind/idle`` passes. While UIKit
///   tracks a scroll the main loop runs in `UITrackingRunLoopMode`, where such an observer does not fire,
///   so no idle work competes with the finger.
/// - Tracking modes (`UITrackingRunLoopMode` under ``IdleQueue/Scrolling/fitToFrames(timeUntilNextFrame:)``,
///   none under ``IdleQueue/Scrolling/pause``) get
///   ``IdlePassKind/tracking`` passes.
/// - Waking: `requestPass()` calls `CFRunLoopWakeUp`. Called inside the BeforeWaiting callout it makes
///   the loop come round at once instead of sleeping; with nothing pending nobody calls it, and the loop
///   sleeps — there is no keep-alive timer.
/// - Committing: the observer runs after Core Animation's commit observer, so the layer changes of a
///   pass's tasks are committed at the *next* BeforeWaiting. When a pass — idle or tracking — ran tasks
///   and no pass was requested during it (the queue is drained, holds only parked tasks, or it was a
///   tracking pass, after which the scheduler asks for none), the driver wakes the loop once more, so that
///   this next BeforeWaiting comes at once instead of at the next touch or timer. One extra turn after
///   such a pass; none at rest.
@MainActor
final class RunLoopPassDriver: IdlePassDriver {
  /// The main run loop.
  private var runLoop: CFRunLoop { CFRunLoopGetMain() }
  private let modes: ModeNames
  private var idleModes: [CFRunLoopMode] { modes.idle }
  private var trackingModes: [CFRunLoopMode] { modes.tracking }
  private let order: Int
  private var pass: (@MainActor (IdlePassKind) -> Bool)?
  private var requestedDuringPass = false
  /// When the running pass began (`CFAbsoluteTime`); `nil` outside a pass.
  private var passStartedAt: CFAbsoluteTime?
  private var observer: CFRunLoopObserver?
  /// Mark the start and the end of the commit before each pass (see ``measureCommits()``); `nil` until asked
  /// for.
  private var commitProbe: CFRunLoopObserver?
  private var commitEndProbe: CFRunLoopObserver?
  /// When the commit probe last fired (``nanoseconds``); taken by the end probe of the same turn.
  private var commitStartedAt: UInt64?
  /// The commit the end probe measured this turn; taken by the pass of the same turn.
  private var commitMeasured: UInt64?
  private(set) var commitDuration: UInt64?
  /// Wakes the loop at a frame deadline a pass is waiting for; created on first use, re-armed each time.
  private var deadlineTimer: CFRunLoopTimer?
  /// Every observer and timer above, invalidated when the driver is freed without ``stop()`` (on any thread).
  private let added = AddedToRunLoop()

  /// Callable from any thread (a queue may be created on any thread): it only stores its settings; the
  /// observer is added to the main run loop by ``start(_:)``, on the main thread.
  nonisolated init(modes: [RunLoop.Mode], trackingModes: [RunLoop.Mode], order: Int) {
    self.modes = ModeNames(idle: modes.map(Self.cfMode), tracking: trackingModes.map(Self.cfMode))
    self.order = order
  }

  /// The order of the commit probe: UIKit's before-commit handler's, just before Core Animation's commit
  /// observer (2,000,000).
  nonisolated static let commitProbeOrder = 1_999_000
  /// The order of the end probe: after UIKit's after-commit handler (2,001,000), before every IdleWork pass
  /// (2,100,000). The time between the two probes is the commit and UIKit's handlers — and nothing of the passes
  /// of other queues, each with its own observer at the same order as this one's, which may run before it.
  nonisolated static let commitEndProbeOrder = 2_050_000

  /// Adds the commit probes, once: two BeforeWaiting observers in the pass's modes that note the time, so
  /// that the pass of the same turn knows how long the commit took (``commitDuration``). Two observer
  /// call-outs per turn, only for queues with later tasks (prepared ones among them).
  func measureCommits() {
    wantsCommitProbe = true
    addCommitProbe()
  }

  /// Whether ``measureCommits()`` was called: a queue created off the main thread may ask before
  /// ``start(_:)``, which then adds the probe.
  private var wantsCommitProbe = false

  /// Adds the commit probe once it is asked for and the pass's observer is in place.
  private func addCommitProbe() {
    guard wantsCommitProbe, commitProbe == nil, observer != nil else { return }
    let probe = CFRunLoopObserverCreateWithHandler(
      kCFAllocatorDefault, CFRunLoopActivity.beforeWaiting.rawValue, true, CFIndex(Self.commitProbeOrder)
    ) { [weak self] _, _ in
      MainActor.assumeIsolated { self?.commitStartedAt = self?.nanoseconds }
    }
    let endProbe = CFRunLoopObserverCreateWithHandler(
      kCFAllocatorDefault, CFRunLoopActivity.beforeWaiting.rawValue, true, CFIndex(Self.commitEndProbeOrder)
    ) { [weak self] _, _ in
      MainActor.assumeIsolated {
        guard let self else { return }
        self.commitMeasured = self.commitStartedAt.map { self.nanoseconds &- $0 }
        self.commitStartedAt = nil
      }
    }
    commitProbe = probe
    commitEndProbe = endProbe
    added.observers += [probe, endProbe]
    for mode in idleModes + trackingModes {
      CFRunLoopAddObserver(runLoop, probe, mode)
      CFRunLoopAddObserver(runLoop, endProbe, mode)
    }
  }

  func start(_ pass: @escaping @MainActor (IdlePassKind) -> Bool) {
    precondition(observer == nil, "IdleWork: a RunLoopPassDriver is started once")
    self.pass = pass
    let observer = CFRunLoopObserverCreateWithHandler(
      kCFAllocatorDefault, CFRunLoopActivity.beforeWaiting.rawValue, true, CFIndex(order)
    ) { [weak self] _, _ in
      MainActor.assumeIsolated { self?.beforeWaiting() }
    }
    self.observer = observer
    added.observers.append(observer)
    for mode in idleModes + trackingModes { CFRunLoopAddObserver(runLoop, observer, mode) }
    addCommitProbe()
  }

  private func beforeWaiting() {
    guard let pass else { return }
    requestedDuringPass = false
    commitDuration = commitMeasured
    commitMeasured = nil
    passStartedAt = CFAbsoluteTimeGetCurrent()
    let ranTasks = pass(currentPassKind())
    passStartedAt = nil
    if ranTasks, !requestedDuringPass, observer != nil { CFRunLoopWakeUp(runLoop) }
  }

  /// Wakes the loop so that it comes round again at once instead of sleeping — unless, during a pass, a
  /// timer of the current mode fell due while the pass ran (a display link's next frame). That timer wakes
  /// the loop by itself, and the next pass follows it; an explicit wake-up could be served first and let a
  /// second pass run before the frame (measured in the Example: a frame late behind two 4 ms passes at
  /// 120 Hz). A timer that was due before the pass began and has still not fired (one whose callout is
  /// running a nested loop, say) is not trusted to wake anything: the loop is woken as usual.
  ///
  /// On iOS a `CADisplayLink` is a run-loop *source*, not a timer, so this check never sees it: the loop is
  /// woken, and a pass may come before the display link's callback. That pass finds the frame deadline
  /// passed (the link has not moved its target yet) and waits instead of running anything
  /// (``FrameReading/late(retryIn:)``), so the wake-up costs one empty loop turn, never a late frame.
  func requestPass() {
    requestedDuringPass = true
    if let passStartedAt, let mode = CFRunLoopCopyCurrentMode(runLoop) {
      let nextTimer = CFRunLoopGetNextTimerFireDate(runLoop, mode)  // 0 when the mode has no timer
      if nextTimer >= passStartedAt, nextTimer <= CFAbsoluteTimeGetCurrent() { return }
    }
    CFRunLoopWakeUp(runLoop)
  }

  /// Arms a timer (in the observer's modes) for the deadline; its firing wakes the loop, and the pass
  /// follows at the BeforeWaiting after it. The timer repeats only nominally (every 10⁹ s), so that it stays
  /// valid and is re-armed by setting its next fire date; an earlier armed time stands.
  func requestPass(afterNanoseconds nanoseconds: UInt64) {
    guard observer != nil else { return }
    let fireDate = CFAbsoluteTimeGetCurrent() + Double(nanoseconds) / 1e9
    if let deadlineTimer {
      let armed = CFRunLoopTimerGetNextFireDate(deadlineTimer)
      if armed > CFAbsoluteTimeGetCurrent(), armed <= fireDate { return }
      CFRunLoopTimerSetNextFireDate(deadlineTimer, fireDate)
      return
    }
    let timer = CFRunLoopTimerCreateWithHandler(kCFAllocatorDefault, fireDate, 1e9, 0, 0) { _ in }
    deadlineTimer = timer
    added.timers.append(timer)
    for mode in idleModes + trackingModes { CFRunLoopAddTimer(runLoop, timer, mode) }
  }

  /// When the deadline timer will fire (`CFAbsoluteTime`); `nil` if it was never armed. For tests.
  var deadlineTimerFireDate: CFAbsoluteTime? { deadlineTimer.map(CFRunLoopTimerGetNextFireDate) }

  func stop() {
    pass = nil
    if let deadlineTimer { CFRunLoopTimerInvalidate(deadlineTimer) }
    deadlineTimer = nil
    guard let observer else { return }
    CFRunLoopObserverInvalidate(observer)
    self.observer = nil
    if let commitProbe { CFRunLoopObserverInvalidate(commitProbe) }
    if let commitEndProbe { CFRunLoopObserverInvalidate(commitEndProbe) }
    commitProbe = nil
    commitEndProbe = nil
  }

  var nanoseconds: UInt64 { DispatchTime.now().uptimeNanoseconds }

  nonisolated func makeWaker() -> @Sendable () -> Void {
    let box = RunLoopBox(runLoop: CFRunLoopGetMain())
    return { CFRunLoopWakeUp(box.runLoop) }
  }

  /// Idle unless the loop runs in one of the tracking modes. Without tracking modes the observer fires
  /// only in idle modes, so the current mode need not be looked up.
  private func currentPassKind() -> IdlePassKind {
    guard !trackingModes.isEmpty, let current = CFRunLoopCopyCurrentMode(runLoop) else { return .idle }
    if idleModes.contains(where: { Self.same($0, current) || Self.same($0, Self.commonModes) }) {
      return .idle
    }
    return .tracking
  }

  /// The CoreFoundation name of a run-loop mode (`CFRunLoopMode` is a struct on Apple platforms and a
  /// `CFString` in swift-corelibs-foundation).
  nonisolated static func cfMode(_ mode: RunLoop.Mode) -> CFRunLoopMode {
    if mode == .default { return defaultMode }
    if mode == .common { return commonModes }
    #if canImport(Darwin)
      return CFRunLoopMode(rawValue: mode.rawValue as CFString)
    #else
      return CFStringCreateWithCString(nil, mode.rawValue, CFStringBuiltInEncodings.UTF8.rawValue)
    #endif
  }

  /// `kCFRunLoopDefaultMode` (spelled `CFRunLoopMode.defaultMode` in Apple's Swift overlay).
  nonisolated static var defaultMode: CFRunLoopMode {
    #if canImport(Darwin)
      return CFRunLoopMode.defaultMode
    #else
      return kCFRunLoopDefaultMode
    #endif
  }

  /// `kCFRunLoopCommonModes` (spelled `CFRunLoopMode.commonModes` in Apple's Swift overlay).
  nonisolated static var commonModes: CFRunLoopMode {
    #if canImport(Darwin)
      return CFRunLoopMode.commonModes
    #else
      return kCFRunLoopCommonModes
    #endif
  }

  private nonisolated static func same(_ a: CFRunLoopMode, _ b: CFRunLoopMode) -> Bool {
    #if canImport(Darwin)
      return a == b
    #else
      return CFEqual(a, b)
    #endif
  }
}

/// The driver's run-loop modes, stored by its initializer on any thread. `@unchecked Sendable`: the arrays are
/// never changed, and mode names are immutable CFStrings (`CFRunLoopMode` is not `Sendable` in
/// swift-corelibs-foundation, where it is a `CFString`).
private struct ModeNames: @unchecked Sendable {
  let idle: [CFRunLoopMode]
  let tracking: [CFRunLoopMode]
}

/// The observers and timers a driver added to the run loop: freed with the driver, on whatever thread lets it go,
/// it invalidates them (`CFRunLoopObserverInvalidate` and `CFRunLoopTimerInvalidate` are thread-safe), so that a
/// driver freed without ``RunLoopPassDriver/stop()`` leaves nothing behind that calls it.
private final class AddedToRunLoop {
  // Optional elements: the create functions return optionals in swift-corelibs-foundation.
  var observers: [CFRunLoopObserver?] = []
  var timers: [CFRunLoopTimer?] = []

  deinit {
    for case let observer? in observers { CFRunLoopObserverInvalidate(observer) }
    for case let timer? in timers { CFRunLoopTimerInvalidate(timer) }
  }
}

/// `CFRunLoopWakeUp` is thread-safe; the box only carries the reference across threads.
private struct RunLoopBox: @unchecked Sendable {
  let runLoop: CFRunLoop
}
