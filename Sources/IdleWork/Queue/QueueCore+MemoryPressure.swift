import Foundation

/// Dropping discardable work when memory is short.
extension QueueCore {
  /// Registers ``dropDiscardableTasks()`` for UIKit's memory warning where UIKit exists, and for the driver's own
  /// (a test's), until ``invalidate()``.
  func observeMemoryWarnings() {
    if let name = MemoryWarning.notification { dropDiscardableTasks(on: name) }
    scheduler.driver.adoptMemoryWarnings { [weak self] in
      guard let self, !isInvalidated else { return }
      _ = dropDiscardableTasks()
    }
  }

  /// Drops discardable tasks whenever `name` is posted to `center`, until ``invalidate()``: at once on the main
  /// thread, else on the main thread soon after.
  func dropDiscardableTasks(on name: Notification.Name, center: NotificationCenter = .default) {
    guard !isInvalidated else { return }
    let token = center.addObserver(forName: name, object: nil, queue: nil) { [weak self] _ in
      guard Thread.isMainThread else {
        Task { @MainActor [weak self] in self?.dropDiscardableTasks() }
        return
      }
      MainActor.assumeIsolated { _ = self?.dropDiscardableTasks() }
    }
    notificationObservers.add(token, center: center)
  }
}

/// Notification observers that remove themselves when the queue is invalidated or deallocated.
final class NotificationObservers {
  private var observers: [(token: any NSObjectProtocol, center: NotificationCenter)] = []

  func add(_ token: any NSObjectProtocol, center: NotificationCenter) {
    observers.append((token, center))
  }

  func removeAll() {
    for observer in observers { observer.center.removeObserver(observer.token) }
    observers = []
  }

  deinit { removeAll() }
}
