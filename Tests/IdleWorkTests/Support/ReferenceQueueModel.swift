import TestHelpers

@testable import IdleWork
@testable import IdleWorkTesting

/// One slice that ran: the task's id and the slice's index (0 for a one-shot task).
struct ModelEvent: Hashable, CustomStringConvertible {
  let id: Int
  let slice: Int
  var description: String { slice == 0 ? "#\(id)" : "#\(id).\(slice)" }
}

/// What an operation returned, compared between the real queue and the model.
enum ModelResult: Equatable {
  case none
  case count(Int)
  case flag(Bool)
}

/// A small, obviously-correct model of ``IdleQueue``'s documented policy: plain arrays, linear scans, integer
/// nanoseconds. Written from the doc comments in `Sources/IdleWork`, not from the implementation:
///
/// - FIFO. Every addition that takes the queue past `maximumQueueLength` first drops every stale task,
///   then parked tasks, oldest first, then discardable tasks, oldest first, then the oldest, until it fits
///   (possibly the new task itself). Lowering the capacity trims the same way.
/// - A cell task is parked while its cell is off screen (`cellDidEndDisplaying` for the cell's item, until
///   `cellWillDisplay` or a new configuration): passes pass over it, keeping its place. A pass that finds
///   nothing runnable among the tasks added before it leaves the queue asking for no pass (only parked
///   tasks left) until a task is added or a cell shown again; a pass meanwhile runs nothing, counts no
///   pass, and drops the stale tasks.
/// - A cell task belongs to its cell's configuration: adding for a cell joins its configuration when it is
///   for the same index path and starts a new one otherwise; binding the cell (to any index path, or to
///   none) starts a new one. A cell task is stale when its cell is gone or its configuration is not the
///   cell's current one; its key is its index path.
/// - A pass first takes in tasks added from other threads (each an addition, trimmed as such); then, while
///   the budget allows another task, it drops stale tasks (free) up to the oldest runnable task and runs
///   that one.
///   `.tasks(n)` allows n tasks (a slice counts as one); `.seconds(x)` allows the first task and then
///   another while less than x s have passed since the pass began and the task's predicted cost ends
///   within x s. The prediction is a moving average of measured durations (weight 1/4 for the newest),
///   kept apart for one-shot tasks, one-shot cell tasks and slices, 0 before the first measurement. A pass
///   runs only tasks added before it began.
/// - A one-shot task leaves the queue, counted executed, just before it runs; a resumable slice runs in
///   place and the task leaves as executed when the slice returns `true` (done) (if it is still queued then),
///   keeping its place at the head otherwise.
/// - A tracking pass runs nothing (the queue pauses while scrolling, the default; work fitted to frames is
///   checked by `FrameDeadlineTests` and `DeadlineFuzzTests`).
/// - Cancelling by key, removing all and discarding take in background tasks first; `invalidate` counts
///   waiting background tasks as added and cancelled, cancels the rest, stops passes and ignores additions.
/// - `passes` counts passes in which the queue ran or skipped a task; `longestPassDuration` is the longest
///   such pass, from its start to its end on the manual clock.
struct ReferenceQueueModel {
  struct Entry {
    let spec: TaskSpec
    /// The generation of the cell slot when the task was added (a new cell in the slot is a new cell).
    let generation: Int
    /// The cell's configuration when the task was added.
    let configuration: Int
    var slicesDone = 0
    /// The order of addition: a pass runs only entries added before it began.
    var order = 0
  }

  struct Cell {
    var generation = 0
    var isAlive = true
    var row: Int?
    var configuration = 0
    /// On screen; a new configuration is.
    var isDisplayed = true
  }

  private(set) var entries: [Entry] = []
  private var nextOrder = 0
  private(set) var inbox: [TaskSpec] = []
  /// Background tasks dropped before the main thread took them in (the hand-over keeps the newest
  /// `capacity`), counted as added and evicted when the rest is taken in.
  private var droppedFromInbox = 0
  private(set) var cells = Array(repeating: Cell(), count: ModelSequence.cellSlots)
  /// The task id behind each handle, in the order handles were issued.
  private(set) var handles: [Int] = []
  private(set) var capacity: Int
  private(set) var budget: IdleQueue.Budget
  private(set) var now: UInt64 = 0
  private(set) var isInvalidated = false
  private(set) var log: [ModelEvent] = []
  /// The predicted cost of one-shot tasks and of slices, in nanoseconds (`nil`: nothing measured yet).
  private var averageTask: Double?
  private var averageSlice: Double?
  private var averageCellTask: Double?
  /// Whether every pending task has been announced with a pass request: false after a tracking pass
  /// (which never asks for another pass) until the next addition or idle pass.
  private(set) var expectsPassRequest = true
  /// Set by a pass that found only parked tasks: passes run nothing until a task is added or a cell shown.
  private var onlyParkedLeft = false

  private var added = 0
  private var executed = 0
  private var slicesRun = 0
  private var skippedAsStale = 0
  private var evicted = 0
  private var cancelled = 0
  private var passes = 0
  private var longestPassNanoseconds: UInt64 = 0

  init(budget: IdleQueue.Budget, capacity: Int) {
    self.budget = budget
    self.capacity = capacity
  }

  var pendingCount: Int { entries.count + inbox.count }
  var pendingIDs: Set<Int> { Set(entries.map(\.spec.id)).union(inbox.map(\.id)) }
  /// Tasks whose closures must still be alive: the pending ones and those dropped from the hand-over but not
  /// yet released on the main thread.
  /// Dropped hand-overs are released at once (the model check adds them on the main thread).
  var aliveIDs: Set<Int> { pendingIDs }

  func isQueued(handle index: Int) -> Bool {
    let id = handles[index]
    return entries.contains { $0.spec.id == id }
  }

  var statistics: IdleQueue.Statistics {
    var statistics = IdleQueue.Statistics()
    statistics.added = added
    statistics.executed = executed
    statistics.slicesRun = slicesRun
    statistics.skippedAsStale = skippedAsStale
    statistics.evicted = evicted
    statistics.cancelled = cancelled
    statistics.pending = entries.count
    statistics.passes = passes
    statistics.longestPassDuration = Double(longestPassNanoseconds) / 1e9
    return statistics
  }

  // MARK: Operations

  mutating func apply(_ operation: ModelOperation) -> ModelResult {
    switch operation {
    case .add(let spec):
      add(spec)
    case .addFromAnyThread(let spec):
      return .flag(addFromAnyThread(spec))
    case .rebindCell(let slot, let row):
      rebind(slot: slot, row: row)
    case .freeCell(let slot):
      cells[slot].isAlive = false
    case .hideCell(let slot):
      if cells[slot].isAlive, cells[slot].row != nil { cells[slot].isDisplayed = false }
    case .showCell(let slot):
      if cells[slot].isAlive, cells[slot].row != nil, !cells[slot].isDisplayed {
        cells[slot].isDisplayed = true
        onlyParkedLeft = false
        if !entries.isEmpty { expectsPassRequest = true }
      }
    case .cancelKey(let key):
      return .count(cancel { $0.spec.cell == nil && $0.spec.key == key })
    case .cancelRow(let row):
      return .count(cancel { $0.spec.cell != nil && $0.spec.row == row })
    case .cancelHandle(let index):
      return .flag(cancelHandle(index))
    case .removeAll:
      _ = cancel { _ in true }
    case .discardDiscardable:
      return .count(cancel { $0.spec.discardable })
    case .setCapacity(let capacity):
      self.capacity = capacity
      trimInbox()
      trimIfOver()
    case .setBudget(let budget):
      self.budget = budget
    case .advanceClock(let ms):
      advance(ms: ms)
    case .runPass:
      return .flag(runPass(tracking: false))
    case .runTrackingPass:
      return .flag(runPass(tracking: true))
    case .invalidate:
      invalidate()
    }
    return .none
  }

  private mutating func perform(_ action: NestedAction) {
    switch action {
    case .add(let spec): add(spec)
    case .addFromAnyThread(let spec): _ = addFromAnyThread(spec)
    case .cancelKey(let key): _ = cancel { $0.spec.cell == nil && $0.spec.key == key }
    case .cancelRow(let row): _ = cancel { $0.spec.cell != nil && $0.spec.row == row }
    case .cancelHandle(let index): _ = cancelHandle(index)
    case .removeAll: _ = cancel { _ in true }
    case .setCapacity(let capacity):
      self.capacity = capacity
      trimInbox()
      trimIfOver()
    case .rebindCell(let slot, let row): rebind(slot: slot, row: row)
    case .invalidate: invalidate()
    }
  }

  private mutating func add(_ spec: TaskSpec) {
    handles.append(spec.id)
    var generation = 0
    var configuration = 0
    if let slot = spec.cell {
      // Adding for a cell binds it, even on an invalidated queue; an empty slot gets a new cell.
      if !cells[slot].isAlive { cells[slot] = Cell(generation: cells[slot].generation + 1, isAlive: true, row: nil) }
      if cells[slot].row != spec.row {
        cells[slot].row = spec.row
        cells[slot].configuration += 1
        cells[slot].isDisplayed = true
      }
      generation = cells[slot].generation
      configuration = cells[slot].configuration
    }
    guard !isInvalidated else { return }
    append(Entry(spec: spec, generation: generation, configuration: configuration))
    expectsPassRequest = true
  }

  private mutating func addFromAnyThread(_ spec: TaskSpec) -> Bool {
    guard !isInvalidated else { return false }
    inbox.append(spec)
    trimInbox()
    expectsPassRequest = true
    return true
  }

  private mutating func rebind(slot: Int, row: Int?) {
    guard cells[slot].isAlive else { return }
    cells[slot].row = row
    cells[slot].configuration += 1
    cells[slot].isDisplayed = true
  }

  private mutating func append(_ entry: Entry) {
    var entry = entry
    entry.order = nextOrder
    nextOrder += 1
    entries.append(entry)
    added += 1
    onlyParkedLeft = false
    trimIfOver()
  }

  private func isStale(_ entry: Entry) -> Bool {
    guard let slot = entry.spec.cell else { return false }
    let cell = cells[slot]
    return !cell.isAlive || cell.generation != entry.generation || cell.configuration != entry.configuration
  }

  /// A live cell task whose cell is off screen.
  private func isParked(_ entry: Entry) -> Bool {
    guard let slot = entry.spec.cell, !isStale(entry) else { return false }
    return !cells[slot].isDisplayed
  }

  /// Drops every stale task.
  private mutating func purgeStale() {
    let before = entries.count
    entries = entries.filter { !isStale($0) }
    skippedAsStale += before - entries.count
  }

  private mutating func trimIfOver() {
    guard entries.count > capacity else { return }
    purgeStale()
    while entries.count > capacity {
      let victim =
        entries.firstIndex(where: isParked) ?? entries.firstIndex(where: { $0.spec.discardable }) ?? 0
      entries.remove(at: victim)
      evicted += 1
    }
  }

  private mutating func trimInbox() {
    while inbox.count > capacity {
      inbox.removeFirst()
      droppedFromInbox += 1
    }
  }

  private mutating func takeIn() {
    added += droppedFromInbox
    evicted += droppedFromInbox
    droppedFromInbox = 0
    let waiting = inbox
    inbox = []
    for spec in waiting { append(Entry(spec: spec, generation: 0, configuration: 0)) }
  }

  private mutating func cancel(where matches: (Entry) -> Bool) -> Int {
    takeIn()
    let before = entries.count
    entries = entries.filter { !matches($0) }
    cancelled += before - entries.count
    return before - entries.count
  }

  private mutating func cancelHandle(_ index: Int) -> Bool {
    guard !handles.isEmpty else { return false }
    let id = handles[index % handles.count]
    guard let position = entries.firstIndex(where: { $0.spec.id == id }) else { return false }
    entries.remove(at: position)
    cancelled += 1
    return true
  }

  private mutating func invalidate() {
    guard !isInvalidated else { return }
    isInvalidated = true
    added += inbox.count + droppedFromInbox
    evicted += droppedFromInbox
    droppedFromInbox = 0
    cancelled += inbox.count + entries.count
    inbox = []
    entries = []
  }

  private mutating func advance(ms: Double) {
    now += UInt64((ms * 1_000_000).rounded())
  }

  private func budgetAllows(tasksRun: Int, since start: UInt64) -> Bool {
    switch budget {
    case .tasks(let limit): return tasksRun < limit
    case .seconds(let seconds): return tasksRun == 0 || now - start < UInt64(seconds * 1e9)
    }
  }

  /// One pass; returns whether the driver ran it (it does not once the queue is invalidated).
  private mutating func runPass(tracking: Bool) -> Bool {
    guard !isInvalidated else { return false }
    guard (!entries.isEmpty && !onlyParkedLeft) || !inbox.isEmpty || droppedFromInbox > 0 else {
      // Nothing to run: only the stale tasks among the parked ones leave.
      if onlyParkedLeft { purgeStale() }
      return true
    }
    expectsPassRequest = !tracking
    takeIn()
    guard !entries.isEmpty, !tracking else { return true }
    let start = now
    let horizon = nextOrder  // tasks added during the pass wait for a later one
    var tasksRun = 0
    var didWork = false
    while !isInvalidated, budgetAllows(tasksRun: tasksRun, since: start) {
      // The oldest runnable task added before the pass, dropping stale ones and passing over parked ones.
      var index = 0
      var reachedHorizon = false
      var found: Int?
      while index < entries.count {
        let entry = entries[index]
        if entry.order >= horizon {
          reachedHorizon = true
          break
        }
        if isStale(entry) {
          entries.remove(at: index)
          skippedAsStale += 1
          didWork = true
        } else if isParked(entry) {
          index += 1
        } else {
          found = index
          break
        }
      }
      guard let found else {
        if !reachedHorizon { onlyParkedLeft = !entries.isEmpty }
        break
      }
      let head = entries[found]
      let isSlice = head.spec.slices != nil
      let isCellTask = !isSlice && head.spec.cell != nil
      let average = isSlice ? averageSlice : isCellTask ? averageCellTask : averageTask
      let predicted = average.map { Double(UInt64($0.rounded())) } ?? 0
      if tasksRun > 0, case .seconds(let seconds) = budget, Double(now - start) + predicted > seconds * 1e9 { break }
      didWork = true
      let before = now
      run(at: found)
      let measured = Double(now - before)
      if isSlice {
        averageSlice = averageSlice.map { $0 + 0.25 * (measured - $0) } ?? measured
      } else if isCellTask {
        averageCellTask = averageCellTask.map { $0 + 0.25 * (measured - $0) } ?? measured
      } else {
        averageTask = averageTask.map { $0 + 0.25 * (measured - $0) } ?? measured
      }
      tasksRun += 1
    }
    if didWork {
      passes += 1
      longestPassNanoseconds = max(longestPassNanoseconds, now - start)
    }
    if onlyParkedLeft {
      purgeStale()
      if inbox.isEmpty { expectsPassRequest = false }
    }
    return true
  }

  /// Runs the task at `index` (a one-shot task leaves first; a slice runs in place).
  private mutating func run(at index: Int) {
    let head = entries[index]
    let spec = head.spec
    guard let slices = spec.slices else {
      entries.remove(at: index)
      executed += 1
      slicesRun += 1
      log.append(ModelEvent(id: spec.id, slice: 0))
      advance(ms: spec.costMs)
      if let action = spec.action { perform(action) }
      return
    }
    let slice = head.slicesDone
    log.append(ModelEvent(id: spec.id, slice: slice))
    advance(ms: spec.costMs)
    if slice == 0, let action = spec.action { perform(action) }
    slicesRun += 1
    guard let position = entries.firstIndex(where: { $0.spec.id == spec.id }) else { return }
    if slice + 1 >= slices {
      entries.remove(at: position)
      executed += 1
    } else {
      entries[position].slicesDone += 1
    }
  }
}
