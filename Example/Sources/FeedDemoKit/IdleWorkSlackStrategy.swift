import Foundation
import IdleWork

/// IdleWork with its defaults plus the opt-in `scrollingSlack` (issue 5, item 2): during the tracking
/// mode a task that has waited `minimumWait` (default 0.05 s) may run when the simulated display link says
/// more than `minimumFrameSlack` (default 0.004 s) is left before the next frame. Like `idleWork`, it binds
/// each cell in `cellForRow` and calls `queue.cellDidEndDisplaying(cell, at:)` from `didEndDisplaying`.
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

  func cellWillConfigure(_ cell: FeedCell, at indexPath: IndexPath) { base.cellWillConfigure(cell, at: indexPath) }

  func schedule(_ request: DrawRequest) { base.schedule(request) }

  func cellDidEndDisplaying(_ cell: FeedCell, forRowAt indexPath: IndexPath) {
    base.cellDidEndDisplaying(cell, forRowAt: indexPath)
  }

  func scheduleTask(key: Int, _ task: @escaping @MainActor () -> Void) { base.scheduleTask(key: key, task) }

  func discardPending() { base.discardPending() }

  var pendingCount: Int { base.pendingCount }

  func uninstall() { base.uninstall() }
}
