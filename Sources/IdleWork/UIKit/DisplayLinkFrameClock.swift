import Foundation

#if canImport(UIKit) && !os(watchOS)
  import QuartzCore
  import UIKit

  /// The frame clock of ``IdleQueue/Scrolling/fitToFrames(timeUntilNextFrame:)`` without a closure (and so of
  /// ``IdleQueue/Configuration/scrollingFeed(timeUntilNextFrame:)``) on iOS and tvOS: a
  /// `CADisplayLink` whose `targetTimestamp` is when the next frame must be ready.
  ///
  /// The display link wakes the main thread at every frame while it runs, so the queue runs it only while
  /// tasks are pending (``FrameClockSource/start()`` / ``FrameClockSource/stop()`` pause it). Until its first
  /// tick after a start no frame is known (`nil`).
  @MainActor
  final class DisplayLinkFrameClock: FrameClockSource {
    /// What the configuration stores: a new display-link clock for each queue.
    nonisolated static let factory: @MainActor @Sendable () -> any FrameClockSource = { DisplayLinkFrameClock() }

    /// The display link, once started.
    private var link: CADisplayLink? { linkOwner?.link }
    private var linkOwner: LinkOwner?
    private var hasTicked = false

    /// Owns the display link: freed with the clock, on whatever thread lets it go, it removes the link from the
    /// run loop (which retains it) on the main thread — at once there, otherwise in a main-actor task.
    private final class LinkOwner {
      let link: CADisplayLink
      init(_ link: CADisplayLink) { self.link = link }

      deinit {
        let link = link
        if Thread.isMainThread {
          MainActor.assumeIsolated { link.invalidate() }
        } else {
          Task { @MainActor in link.invalidate() }
        }
      }
    }

    /// Holds the clock weakly: a display link retains its target.
    private final class Target: NSObject {
      weak var clock: DisplayLinkFrameClock?
      @objc func tick(_ link: CADisplayLink) {
        MainActor.assumeIsolated { clock?.hasTicked = true }
      }
    }

    func start() {
      if let link {
        link.isPaused = false
        return
      }
      let target = Target()
      target.clock = self
      let link = CADisplayLink(target: target, selector: #selector(Target.tick(_:)))
      link.add(to: .main, forMode: .common)
      linkOwner = LinkOwner(link)
    }

    func stop() {
      link?.isPaused = true
      hasTicked = false
    }

    /// A display link ticks once started: no frame is known until its first callback.
    var startsTicking: Bool { true }

    func timeUntilDeadline() -> TimeInterval? {
      guard let link, !link.isPaused, hasTicked else { return nil }
      return link.targetTimestamp - CACurrentMediaTime()
    }

    var frameDuration: TimeInterval? {
      guard let link, hasTicked else { return nil }
      let duration = link.targetTimestamp - link.timestamp
      return duration > 0 ? duration : nil
    }
  }
#else
  /// Where UIKit is missing there is no display link: ``IdleQueue/Scrolling/fitToFrames(timeUntilNextFrame:)``
  /// without a `timeUntilNextFrame` has no frame clock.
  enum DisplayLinkFrameClock {
    static let factory: (@MainActor @Sendable () -> any FrameClockSource)? = nil
  }
#endif
