import Foundation

/// The naive way: every image is drawn inside `cellForRow`, so a frame that brings new rows pays for
/// all their images before its commit.
@MainActor
final class SyncStrategy: FeedStrategy {
  func install(for workload: Workload, displayLink: DisplayLink?) {}

  func schedule(_ request: DrawRequest) { request.run() }

  /// Nothing is ever pending, so there is nothing to drop.
  func cellDidEndDisplaying(_ cell: FeedCell, forRowAt indexPath: IndexPath) {}

  func scheduleTask(key: Int, _ task: @escaping @MainActor () -> Void) { task() }

  func discardPending() {}

  var pendingCount: Int { 0 }

  func uninstall() {}
}
