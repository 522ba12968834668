import Foundation
import TestHelpers

@testable import IdleWork
@testable import IdleWorkTesting

/// Applies ``ModelOperation``s to a real ``IdleQueue`` on a `ManualPassDriver`: passes and the clock move
/// only when an operation says so, and tasks advance the clock by their simulated cost.
///
/// Tasks record a ``ModelEvent`` when a slice runs and carry out their ``NestedAction`` on the queue they
/// run in. Every closure captures a ``LifetimeToken`` and never the cell it draws into (cells reach tasks
/// as the closure's argument), so the registry shows exactly which closures the queue still holds.
@MainActor
final class RealQueueUnderTest {
  let driver = ManualPassDriver()
  let queue: IdleQueue
  let lifetimes = LifetimeRegistry()
  private(set) var handles: [IdleTaskHandle] = []
  private(set) var log: [ModelEvent] = []
  /// Problems seen while applying operations (a freed cell that stayed alive).
  private(set) var problems: [String] = []
  private var cells: [HardeningCell?] = (0..<ModelSequence.cellSlots).map { _ in HardeningCell() }
  /// The row each cell was last configured for; `nil` when it has none a task uses (or no cell).
  private var rows: [Int?] = Array(repeating: nil, count: ModelSequence.cellSlots)

  /// - Parameter compaction: when the task list moves stragglers out of a sparse ring; low thresholds make the
  ///   short sequences exercise the stragglers.
  init(budget: IdleQueue.Budget, capacity: Int, compaction: TaskList<QueuedTask>.Compaction = .standard) {
    queue = IdleQueue(driver: driver, configuration: .init(budget: budget, maximumQueueLength: capacity))
    queue.core.list.compaction = compaction
  }

  func apply(_ operation: ModelOperation) -> ModelResult {
    switch operation {
    case .add(let spec):
      add(spec)
    case .addFromAnyThread(let spec):
      return .flag(addFromAnyThread(spec))
    case .rebindCell(let slot, let row):
      rebind(slot: slot, row: row)
    case .freeCell(let slot):
      weak let probe = cells[slot]
      cells[slot] = nil
      rows[slot] = nil
      if probe != nil { problems.append("cell \(slot) outlived the test's last reference: the queue retains it") }
    case .hideCell(let slot):
      if let cell = cells[slot], let row = rows[slot] { queue.cellDidEndDisplaying(cell, at: Self.indexPath(row)) }
    case .showCell(let slot):
      if let cell = cells[slot], let row = rows[slot] { queue.cellWillDisplay(cell, at: Self.indexPath(row)) }
    case .cancelKey(let key):
      return .count(queue.cancelTasks(forKey: key))
    case .cancelRow(let row):
      return .count(queue.cancelTasks(forKey: Self.indexPath(row)))
    case .cancelHandle(let index):
      return .flag(cancelHandle(index))
    case .removeAll:
      queue.cancelAllTasks()
    case .discardDiscardable:
      return .count(queue.dropDiscardableTasks())
    case .setCapacity(let capacity):
      queue.maximumQueueLength = capacity
    case .setBudget(let budget):
      queue.budget = budget
    case .advanceClock(let ms):
      driver.advance(by: (ms) / 1000)
    case .runPass:
      return .flag(driver.runPass())
    case .runTrackingPass:
      return .flag(driver.runTrackingPass())
    case .invalidate:
      queue.invalidate()
    }
    return .none
  }

  private func perform(_ action: NestedAction) {
    switch action {
    case .add(let spec): add(spec)
    case .addFromAnyThread(let spec): _ = addFromAnyThread(spec)
    case .cancelKey(let key): queue.cancelTasks(forKey: key)
    case .cancelRow(let row): queue.cancelTasks(forKey: Self.indexPath(row))
    case .cancelHandle(let index): _ = cancelHandle(index)
    case .removeAll: queue.cancelAllTasks()
    case .setCapacity(let capacity): queue.maximumQueueLength = capacity
    case .rebindCell(let slot, let row): rebind(slot: slot, row: row)
    case .invalidate: queue.invalidate()
    }
  }

  /// Whether the handle at `index` reports its task as pending.
  func isPending(handle index: Int) -> Bool { handles[index].isPending }

  static func indexPath(_ row: Int) -> IndexPath { IndexPath(indexes: [0, row]) }

  /// Binds the cell to `row`, or, for `nil`, to an index path no task uses (a row that queues nothing).
  private func rebind(slot: Int, row: Int?) {
    guard let cell = cells[slot] else { return }
    rows[slot] = row
    queue.bind(cell, to: row.map(Self.indexPath) ?? IndexPath(indexes: [1, 0]))
  }

  private func cancelHandle(_ index: Int) -> Bool {
    guard !handles.isEmpty else { return false }
    return handles[index % handles.count].cancel()
  }

  private func addFromAnyThread(_ spec: TaskSpec) -> Bool {
    let token = lifetimes.token(spec.id)
    return queue.addTaskFromAnyThread(key: spec.key) { [weak self] in
      withExtendedLifetime(token) { _ = self?.runSlice(spec, counter: nil) }
    }
  }

  private func add(_ spec: TaskSpec) {
    let token = lifetimes.token(spec.id)
    let counter = spec.slices == nil ? nil : SliceCounter()
    let handle: IdleTaskHandle
    if let slot = spec.cell {
      let cell = cells[slot] ?? HardeningCell()
      cells[slot] = cell
      rows[slot] = spec.row
      let indexPath = Self.indexPath(spec.row)
      if spec.slices != nil {
        handle = queue.addResumableTask(for: cell, at: indexPath, droppable: spec.discardable) { [weak self] _, _ in
          withExtendedLifetime(token) { self?.runSlice(spec, counter: counter) ?? true }
        }
      } else {
        handle = queue.addTask(for: cell, at: indexPath, droppable: spec.discardable) { [weak self] _ in
          withExtendedLifetime(token) { _ = self?.runSlice(spec, counter: nil) }
        }
      }
    } else if spec.slices != nil {
      handle = queue.addResumableTask(key: spec.key, droppable: spec.discardable) { [weak self] _ in
        withExtendedLifetime(token) { self?.runSlice(spec, counter: counter) ?? true }
      }
    } else {
      handle = queue.addTask(key: spec.key, droppable: spec.discardable) { [weak self] in
        withExtendedLifetime(token) { _ = self?.runSlice(spec, counter: nil) }
      }
    }
    handles.append(handle)
  }

  /// One slice of a generated task: record it, spend its cost on the clock, do its action on the first slice.
  private func runSlice(_ spec: TaskSpec, counter: SliceCounter?) -> Bool {
    let slice = counter?.done ?? 0
    log.append(ModelEvent(id: spec.id, slice: slice))
    driver.advance(by: (spec.costMs) / 1000)
    if slice == 0, let action = spec.action { perform(action) }
    guard let counter, let slices = spec.slices else { return true }
    counter.done += 1
    return counter.done >= slices
  }
}

/// How many slices a resumable task has run.
private final class SliceCounter {
  var done = 0
}
