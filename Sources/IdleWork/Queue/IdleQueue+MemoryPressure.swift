import Foundation

/// Dropping optional work when memory is short.
extension IdleQueue {
  /// Drops discardable tasks (added with `discardable: true`) whenever `name` is posted to `center`,
  /// until ``invalidate()``. Where UIKit exists, `discardDiscardableTasksOnMemoryWarning()` does this
  /// for `UIApplication.didReceiveMemoryWarningNotification`.
  ///
  /// A notification posted on the main thread is handled at once; one posted elsewhere is handled on the
  /// main thread soon after.
  public func discardDiscardableTasks(on name: Notification.Name, center: NotificationCenter = .default) {
    guard !isInvalidated else { return }
    let token = center.addObserver(forName: name, object: nil, queue: nil) { [weak self] _ in
      guard Thread.isMainThread else {
        Task { @MainActor [weak self] in self?.discardDiscardableTasks() }
        return
      }
      MainActor.assumeIsolated { _ = self?.discardDiscardableTasks() }
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
