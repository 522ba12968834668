import Foundation

/// What a queue knows about the cells it has tasks for: the index path each was last configured for, which
/// configuration that was, and whether the cell is on screen.
///
/// Kept by the queue, not on the cell: IdleWork adds no member to `UITableViewCell` or
/// `UICollectionViewCell`, so an app cell that already declares `currentIndexPath` (as apps coming from
/// DWURunLoopWorkDistribution do) compiles unchanged, and works with any class.
///
/// **Configurations.** ``IdleQueue/bind(_:to:)`` starts a new configuration of a cell (the top of
/// `cellForRowAt`): tasks queued for an earlier one are stale, even for the same index path (`reloadData`,
/// `reconfigureRows`, a diffable snapshot show new content there). ``IdleQueue/addTask(for:at:discardable:estimatedCost:_:)``
/// joins the cell's current configuration when it is for the same index path and starts one otherwise.
///
/// **Display.** A cell that ended displaying keeps its tasks, parked: they do not run while it is off
/// screen, but run if it is shown again through `willDisplay` without a new `cellForRowAt` (collection view
/// prefetching does that), and they are the first evicted after stale tasks.
@MainActor
final class CellRegistry {
  /// One cell's state. Tasks hold the record and the configuration they belong to.
  final class Record {
    weak var cell: AnyObject?
    private(set) var indexPath: IndexPath
    private(set) var configuration: UInt64
    var isDisplayed = true

    init(cell: AnyObject, indexPath: IndexPath, configuration: UInt64) {
      self.cell = cell
      self.indexPath = indexPath
      self.configuration = configuration
    }

    func reconfigure(for indexPath: IndexPath, configuration: UInt64) {
      self.indexPath = indexPath
      self.configuration = configuration
      isDisplayed = true
    }
  }

  private var records: [ObjectIdentifier: Record] = [:]

  /// Callable from any thread: a queue may be created on any thread (see `QueueCore.init`).
  nonisolated init() {}
  private var nextConfiguration: UInt64 = 1
  /// Records are pruned of released cells when the table reaches this size (then twice the live count).
  private var pruneAt = 64

  /// Starts a new configuration of `cell` for `indexPath`; earlier tasks for the cell become stale.
  @discardableResult
  func bind(_ cell: AnyObject, to indexPath: IndexPath) -> Record {
    defer { nextConfiguration += 1 }
    if let record = live(cell) {
      record.reconfigure(for: indexPath, configuration: nextConfiguration)
      return record
    }
    let record = Record(cell: cell, indexPath: indexPath, configuration: nextConfiguration)
    records[ObjectIdentifier(cell)] = record
    lastFound = record
    if records.count >= pruneAt {
      records = records.filter { $0.value.cell != nil }
      pruneAt = max(64, records.count * 2)
    }
    return record
  }

  /// The cell's current configuration if it is for `indexPath`; otherwise a new one.
  func configuration(of cell: AnyObject, for indexPath: IndexPath) -> Record {
    if let record = live(cell), record.indexPath == indexPath { return record }
    return bind(cell, to: indexPath)
  }

  /// The cell's record, if the cell was bound and is the same object (not a new one at a reused address).
  ///
  /// The last record found is remembered: `cellForRowAt` binds a cell and adds its tasks one after
  /// another, so the dictionary (hashing the cell's address) is consulted once per cell, not per task.
  func live(_ cell: AnyObject) -> Record? {
    if let last = lastFound, last.cell === cell { return last }
    guard let record = records[ObjectIdentifier(cell)], record.cell === cell else { return nil }
    lastFound = record
    return record
  }

  /// The record ``live(_:)`` found last (it holds its cell weakly, so this keeps no cell alive).
  private var lastFound: Record?
}

/// A cell task's link to its cell: the cell's record and the configuration the task was queued for.
struct CellBinding {
  let record: CellRegistry.Record
  let configuration: UInt64

  /// Runnable while the cell is alive, still in this configuration and on screen.
  @MainActor var state: EntryState {
    guard record.cell != nil, record.configuration == configuration else { return .stale }
    return record.isDisplayed ? .runnable : .parked
  }
}
