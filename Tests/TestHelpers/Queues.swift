import Foundation
@_spi(IdleWorkTesting) import IdleWork
import IdleWorkTesting

/// The size of a long run (soak, fuzz, model check, stress): `full` when `IDLEWORK_FULL_TESTS=1` (CI sets it),
/// else `quick`, so that a plain `swift test` takes well under a minute; `variable`, when set, overrides both.
package func testScale(_ variable: String, full: Int, quick: Int) -> Int {
  let environment = ProcessInfo.processInfo.environment
  if let text = environment[variable], let value = Int(text) { return value }
  return environment["IDLEWORK_FULL_TESTS"] == "1" ? full : quick
}

/// A cell as a table view would reuse it. IdleWork needs nothing from it: any class will do.
package final class FakeCell {
  package init() {}
}

/// `IndexPath(row:section:)` is a UIKit addition; on Linux build it from its indexes.
package func row(_ row: Int, section: Int = 0) -> IndexPath {
  IndexPath(indexes: [section, row])
}

/// Detects when an object is freed.
package final class Probe {
  package init() {}
}

/// A queue on a manual driver, with the driver, for stepping passes exactly.
@MainActor
package func manualQueue(
  budget: IdleQueue.Budget = .tasks(1), maximumQueueLength: Int = 30
) -> (IdleQueue, ManualPassDriver) {
  let driver = ManualPassDriver()
  return (
    IdleQueue(driver: driver, configuration: .init(budget: budget, maximumQueueLength: maximumQueueLength)), driver
  )
}

/// A non-Sendable value carried into a `prepare` that never touches it off the main thread (tests only).
package final class UncheckedBox<Value>: @unchecked Sendable {
  package let value: Value
  package init(_ value: Value) { self.value = value }
}
