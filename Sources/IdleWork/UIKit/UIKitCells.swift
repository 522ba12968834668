#if canImport(UIKit) && !os(watchOS)
  import ObjectiveC
  import UIKit

  /// The associated-object key for `currentIndexPath` (its address is the key; the byte is never read).
  private nonisolated(unsafe) let currentIndexPathKey = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)

  @MainActor
  private func associatedIndexPath(of object: AnyObject) -> IndexPath? {
    objc_getAssociatedObject(object, currentIndexPathKey) as? IndexPath
  }

  @MainActor
  private func setAssociatedIndexPath(_ indexPath: IndexPath?, of object: AnyObject) {
    objc_setAssociatedObject(object, currentIndexPathKey, indexPath, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
  }

  extension UITableViewCell: IndexPathReusable {
    /// The index path this cell shows now, kept in an associated object (as DWURunLoopWorkDistribution
    /// injected it). Set it in `tableView(_:cellForRowAt:)`; ``IdleQueue/addTask(for:at:discardable:_:)``
    /// sets it too.
    public var currentIndexPath: IndexPath? {
      get { associatedIndexPath(of: self) }
      set { setAssociatedIndexPath(newValue, of: self) }
    }
  }

  extension UICollectionViewCell: IndexPathReusable {
    /// The index path this cell shows now, kept in an associated object. Set it in
    /// `collectionView(_:cellForItemAt:)`; ``IdleQueue/addTask(for:at:discardable:_:)`` sets it too.
    public var currentIndexPath: IndexPath? {
      get { associatedIndexPath(of: self) }
      set { setAssociatedIndexPath(newValue, of: self) }
    }
  }

  extension IdleQueue {
    /// Opt-in: drop this queue's discardable tasks (see ``discardDiscardableTasks()``) whenever the app
    /// receives a memory warning. Stays in effect until ``invalidate()``.
    public func discardDiscardableTasksOnMemoryWarning() {
      discardDiscardableTasks(on: UIApplication.didReceiveMemoryWarningNotification)
    }
  }
#endif
