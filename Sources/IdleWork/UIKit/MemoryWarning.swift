import Foundation

#if canImport(UIKit) && !os(watchOS)
  import UIKit
#endif

/// The UIKit glue: the one UIKit symbol IdleWork uses. Cells need none (IdleWork keeps its own record of
/// them and adds nothing to `UITableViewCell` or `UICollectionViewCell`).
enum MemoryWarning {
  /// `UIApplication.didReceiveMemoryWarningNotification` where UIKit exists; `nil` elsewhere.
  @MainActor static var notification: Notification.Name? {
    #if canImport(UIKit) && !os(watchOS)
      return UIApplication.didReceiveMemoryWarningNotification
    #else
      return nil
    #endif
  }
}
