import Foundation

/// What a queue knows about the cells it has tasks for: the item each was last configured for, which
/// configuration that was, and whether the cell is on screen.
///
/// Kept by the queue, not on the cell: IdleWork adds no member to `UITableViewCell` or
/// `UICollectionViewCell`, so an app cell that already declares `currentIndexPath` (as apps coming from
/// DWURunLoopWorkDistribution do) compiles unchanged, and works with any class.
///
/// **Items.** A cell is bound to an item: any `Hashable`, an index path or the data source's item
/// identifier, stored as a `TaskKey` and compared with its `matches(_:)`. An index path names
/// a position, which an insert, delete or move above the cell changes without reconfiguring it; an item
/// identifier names the content and stays.
///
/// **Configurations.** ``IdleQueue/bind(_:to:)`` starts a new configuration of a cell (the top of
/// `cellForRowAt`): tasks queued for an earlier one are stale, even for the same item (`reloadData`,
/// `reconfigureRows`, a diffable snapshot show new content there).
/// ``IdleQueue/addTask(for:at:key:discardable:estimatedCost:_:)`` joins the cell's current configuration when
/// it is for the same item and starts one otherwise.
///
/// **Display.** A cell that ended displaying keeps its tasks, parked: they do not run while it is off
/// screen, but run if it is shown again through `willDisplay` without a new `cellForRowAt` (collection view
/// prefetching does that), and they are the first evicted after stale tasks.
@MainActor
final class CellRegistry {
  /// One cell's state. Tasks hold the record and the configuration they belong to.
  final class Record {
    /// The cell's address, compared with a cell handed in without loading the cell (a weak load and the
    /// release after it took the slow reference-counting path, a third of an addition).
    let id: ObjectIdentifier
    /// The cell, while it is alive. A weak reference, on every platform: the one liveness path, which iOS
    /// runs and the tests here run too. (On Apple platforms a UIKit cell is an Objective-C object, whose
    /// retains a weak reference leaves fast; a native Swift object gets a side table, which slows its retains a
    /// little — AddTaskCost measures the cell form with it.) A new object at a freed cell's address is told
    /// apart because this reference is `nil` for the freed one (see ``isRecord(of:)``).
    weak var cell: AnyObject?
    /// The item the cell was last configured for; a cell task's key unless the caller gives one.
    @exclusivity(unchecked) private(set) var item: TaskKey
    @exclusivity(unchecked) private(set) var configuration: UInt64
    @exclusivity(unchecked) var isDisplayed = true
    /// The prepared tasks of the current configuration whose result is awaited or not yet applied; `nil`
    /// until the cell gets one. A new configuration hands them to ``CellRegistry/preparedDetached``, so that
    /// work for the old one that has not started is dropped at once.
    @exclusivity(unchecked) var prepared: [PreparedRequest]?

    init(cell: AnyObject, item: TaskKey, configuration: UInt64) {
      self.cell = cell
      self.id = ObjectIdentifier(cell)
      self.item = item
      self.configuration = configuration
    }

    /// Whether the cell is alive.
    var isAlive: Bool { cell != nil }

    /// Whether `cell` is this record's cell: the same object, not a new one at a freed cell's address (whose
    /// weak reference reads `nil`).
    func isRecord(of cell: AnyObject) -> Bool { self.cell === cell }

    /// Starts configuration `configuration` for `item` (`nil`: the same item as now).
    func reconfigure(for item: TaskKey?, configuration: UInt64) {
      if let item { self.item = item }
      self.configuration = configuration
      isDisplayed = true
    }
  }

  /// Callable from any thread: a queue may be created on any thread (see `QueueCore.init`).
  nonisolated init() {}

  /// Told the prepared tasks of a configuration that a new one replaced (set by the queue once it has
  /// prepared tasks).
  @exclusivity(unchecked) var preparedDetached: ((_ requests: [PreparedRequest]) -> Void)?

  // Exclusivity is not checked at run time (the checks were a tenth of an addition): every access is on the
  // main actor, in a method that calls out to nothing.
  @exclusivity(unchecked) private var records: [ObjectIdentifier: Record] = [:]
  @exclusivity(unchecked) private var nextConfiguration: UInt64 = 1
  /// Records are pruned of released cells when the table reaches this size (then twice the live count).
  @exclusivity(unchecked) private var pruneAt = 64

  /// Starts a new configuration of `cell` for `item`; earlier tasks for the cell become stale.
  @discardableResult @inline(__always)
  func bind<Item: Hashable>(_ cell: AnyObject, to item: Item) -> Record {
    if let record = live(cell) {
      // A boxed identifier that is the same item again (a reload) keeps its box rather than boxing it again;
      // other items are stored as themselves, and storing the new one costs less than comparing first.
      record.reconfigure(
        for: record.item.isBoxed && record.item.matches(item) ? nil : TaskKey(item), configuration: nextConfiguration)
      nextConfiguration += 1
      if let prepared = record.prepared {
        record.prepared = nil
        preparedDetached?(prepared)
      }
      return record
    }
    return insert(cell, item: TaskKey(item))
  }

  /// The cell's current configuration if it is for `item`; otherwise a new one.
  @inline(__always) func configuration<Item: Hashable>(of cell: AnyObject, for item: Item) -> Record {
    if let record = live(cell), record.item.matches(item) { return record }
    return bind(cell, to: item)
  }

  /// A record for a cell the registry does not know (or whose record belonged to a freed cell at its address).
  private func insert(_ cell: AnyObject, item: TaskKey) -> Record {
    let record = Record(cell: cell, item: item, configuration: nextConfiguration)
    nextConfiguration += 1
    records[ObjectIdentifier(cell)] = record
    if records.count >= pruneAt {
      records = records.filter { $0.value.isAlive }
      pruneAt = max(64, records.count * 2)
      recent = Array(repeating: Recent(), count: Self.recentCount)  // it may name pruned records
    }
    remember(record)
    #if IDLEWORK_INTERNAL_CHECKS
      precondition(records[record.id] === lastFound, "IdleWork internal: the last record found is not kept")
    #endif
    return record
  }

  /// The cell's record, if the cell was bound and is the same object (not a new one at a reused address).
  ///
  /// The last record found is remembered: `cellForRowAt` binds a cell and adds its tasks one after
  /// another, so the dictionary (hashing the cell's address) is consulted once per cell, not per task.
  @inline(__always) func live(_ cell: AnyObject) -> Record? {
    // The address first: reading `lastFound` for another cell would retain and release it for nothing.
    let id = ObjectIdentifier(cell)
    if lastID == id, let last = lastFound, last.isRecord(of: cell) { return last }
    // Then the slot of its address in `recent`, then the dictionary (hashing the address cost as much as the
    // rest of `bind`).
    let slot = Self.slot(of: id)
    if recent[slot].id == id, let record = recent[slot].record, record.isRecord(of: cell) {
      lastFound = record
      lastID = id
      return record
    }
    guard let record = records[id], record.isRecord(of: cell) else { return nil }
    remember(record)
    return record
  }

  /// Makes `record` the one ``live(_:)`` looks at first, and puts it in its slot of `recent`.
  private func remember(_ record: Record) {
    lastFound = record
    lastID = record.id
    recent[Self.slot(of: record.id)] = Recent(id: record.id, record: record)
  }

  /// A record found recently, by its cell's address: unowned, as `lastFound` (it is one of `records`; the
  /// table is cleared when records are pruned).
  private struct Recent {
    var id: ObjectIdentifier?
    unowned(unsafe) var record: Record?
  }

  private nonisolated static let recentCount = 64

  /// The slot of an address in `recent`: bits above an allocation's alignment.
  private static func slot(of id: ObjectIdentifier) -> Int {
    Int(truncatingIfNeeded: UInt(bitPattern: id) >> 4) & (recentCount - 1)
  }

  /// Records found recently, one slot per address class: the cells of a table's screen, looked up without
  /// hashing.
  @exclusivity(unchecked) private var recent = Array(repeating: Recent(), count: CellRegistry.recentCount)

  /// The record ``live(_:)`` found last (a record keeps no cell alive).
  ///
  /// Unowned: it is always one of `records` (set only to a record found there or just inserted, and pruning
  /// keeps records of live cells, such as the one just inserted), which keep it alive; a strong reference
  /// cost a retain and a release each time `cellForRowAt` moved on to another cell.
  @exclusivity(unchecked) private unowned(unsafe) var lastFound: Record? = nil
  /// The address of `lastFound`'s cell.
  @exclusivity(unchecked) private var lastID: ObjectIdentifier?
}
