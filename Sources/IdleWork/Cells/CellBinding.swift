import Foundation

/// A cell task's link to its cell: the cell's record and the configuration the task was queued for.
struct CellBinding {
  let record: CellRegistry.Record
  let configuration: UInt64

  /// A binding to `record`'s current configuration.
  @MainActor init(current record: CellRegistry.Record) {
    self.configuration = record.configuration
    self.record = record
  }

  /// Runnable while the cell is alive, still in this configuration and on screen.
  @MainActor var state: EntryState {
    guard record.isAlive, record.configuration == configuration else { return .stale }
    return record.isDisplayed ? .runnable : .parked
  }
}
