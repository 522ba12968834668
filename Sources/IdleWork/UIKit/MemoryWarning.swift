import Foundation

#if canImport(UIKit) && !os(watchOS)
  import UIKit
#endif

/// The UIKit glue: the one UIKit symbol IdleWork uses (cells need none).
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
