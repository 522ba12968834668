import Foundation
import IdleWork
import IdleWorkTesting

/// A cell as a table view would reuse it: it shows one index path at a time.
final class FakeCell: IndexPathReusable {
  var currentIndexPath: IndexPath?
}

/// `IndexPath(row:section:)` is a UIKit addition; on Linux build it from its indexes.
func row(_ row: Int, section: Int = 0) -> IndexPath {
  IndexPath(indexes: [section, row])
}

/// Detects when an object is freed.
final class Probe {}

/// A queue on a manual driver, with the driver, for stepping passes exactly.
@MainActor
func manualQueue(budget: IdleQueue.Budget = .default, maximumQueueLength: Int = 30) -> (IdleQueue, ManualPassDriver) {
  let driver = ManualPassDriver()
  return (IdleQueue(driver: driver, budget: budget, maximumQueueLength: maximumQueueLength), driver)
}
