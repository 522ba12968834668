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
    /// The cell, while it is alive. A weak reference, on every platform: the one liveness path, which iOS
    /// runs and the tests here run too. (On Apple platforms a UIKit cell is an Objective-C object, whose
    /// retains a weak reference leaves fast; a native Swift object gets a side table, which slows its retains a
    /// little — AddTaskCost measures the cell form with it.) A new object at a freed cell's address is told
    /// apart because this reference is `nil` for the freed one (see ``isRecord(of:)``).
    weak var cell: AnyObject?
    /// The item the cell was last configured for; a cell task's key unless the caller gives one.
    private(set) var item: TaskKey
    private(set) var configuration: UInt64
    var isDisplayed = true
    /// The later tasks of the current configuration (see ``LaterWork``) not yet run; `nil` until the cell gets
    /// one. They are told when the cell goes off screen or comes back, and a new configuration makes them leave
    /// at once, so that work for the old one that has not started is dropped.
    private(set) var laterTasks: [any LaterWork]?

    /// A later task of this configuration starts waiting.
    func addLaterTask(_ task: any LaterWork) {
      if laterTasks == nil { laterTasks = [] }
      laterTasks!.append(task)
    }

    /// A later task left (ran, or left the queue otherwise): it is no longer told of the cell.
    func removeLaterTask(_ task: any LaterWork) {
      guard var tasks = laterTasks else { return }
      tasks.removeAll { $0 === task }
      laterTasks = tasks.isEmpty ? nil : tasks
    }

    /// Takes the later tasks out, for a new configuration to tell them.
    func takeLaterTasks() -> [any LaterWork] {
      defer { laterTasks = nil }
      return laterTasks ?? []
    }

    init(cell: AnyObject, item: TaskKey, configuration: UInt64) {
      self.cell = cell
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

  private var records: [ObjectIdentifier: Record] = [:]
  private var nextConfiguration: UInt64 = 1
  /// Records are pruned of released cells when the table reaches this size (then twice the live count).
  private var pruneAt = 64

  /// Starts a new configuration of `cell` for `item`; earlier tasks for the cell become stale. Returns the new
  /// configuration, read before the earlier later tasks are told: what they call (an app's `onAbandon`) may configure
  /// the cell again, and a task being added for `item` must then go stale too.
  @discardableResult
  func bind<Item: Hashable>(_ cell: AnyObject, to item: Item) -> CellBinding {
    if let record = live(cell) {
      // A boxed identifier that is the same item again (a reload) keeps its box rather than boxing it again;
      // other items are stored as themselves, and storing the new one costs less than comparing first.
      record.reconfigure(
        for: record.item.isBoxed && record.item.matches(item) ? nil : TaskKey(item), configuration: nextConfiguration)
      nextConfiguration += 1
      let binding = CellBinding(current: record)
      for task in record.takeLaterTasks() { task.cellConfiguredAgain() }
      return binding
    }
    return CellBinding(current: insert(cell, item: TaskKey(item)))
  }

  /// The cell's current configuration if it is for `item`; otherwise a new one.
  func configuration<Item: Hashable>(of cell: AnyObject, for item: Item) -> CellBinding {
    if let record = live(cell), record.item.matches(item) { return CellBinding(current: record) }
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
    }
    return record
  }

  /// The cell's record, if the cell was bound and is the same object (not a new one at a reused address).
  func live(_ cell: AnyObject) -> Record? {
    guard let record = records[ObjectIdentifier(cell)], record.isRecord(of: cell) else { return nil }
    return record
  }
}
