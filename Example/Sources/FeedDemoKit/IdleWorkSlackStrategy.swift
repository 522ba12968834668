import Foundation
import IdleWork

/// IdleWork with its defaults plus the opt-in `scrollingSlack` (issue 5, item 2): during the tracking
/// mode a task that has waited `minimumWait` (default 50 ms) may run when the simulated display link says
/// more than `minimumFrameSlack` (default 4 ms) is left before the next frame. Like `idleWork`, it calls
/// `queue.cellDidEndDisplaying(cell)` from `didEndDisplaying`.
@MainActor
final class IdleWorkSlackStrategy: FeedStrategy {
  private let base = IdleWorkStrategy(variant: .defaults)

  func install(for workload: Workload, displayLink: DisplayLink?) {
    var configuration = base.configuration(for: workload)
    configuration.scrollingSlack = IdleQueue.ScrollingSlack(
      trackingModes: [RunLoopModes.tracking],
      timeUntilNextFrame: { [weak displayLink] in displayLink?.timeUntilNextFrame })
    base.install(configuration: configuration)
  }

  func schedule(_ request: DrawRequest) { base.schedule(request) }

  func cellDidEndDisplaying(_ cell: FeedCell, forRowAt indexPath: IndexPath) {
    base.cellDidEndDisplaying(cell, forRowAt: indexPath)
  }

  func scheduleTask(key: Int, _ task: @escaping @MainActor () -> Void) { base.scheduleTask(key: key, task) }

  func discardPending() { base.discardPending() }

  var pendingCount: Int { base.pendingCount }

  func uninstall() { base.uninstall() }
}
