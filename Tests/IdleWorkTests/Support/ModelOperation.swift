import TestHelpers

@testable import IdleWork
@testable import IdleWorkTesting

/// The vocabulary of the model test: what a generated task is and does, and the operations a sequence
/// applies — identically — to the real ``IdleQueue`` and to ``ReferenceQueueModel``.
///
/// Everything random is drawn when an operation is generated (nested tasks included), never while it runs,
/// so the real queue and the model receive exactly the same inputs.
struct TaskSpec: Sendable, CustomStringConvertible {
  /// Unique in its sequence; what the task records when it runs.
  let id: Int
  /// The key of a plain task (`Int`); ignored for a cell task, whose key is its index path.
  let key: Int
  /// The cell slot a cell task draws into, or `nil` for a plain task.
  let cell: Int?
  /// The row of a cell task's index path `[0, row]`.
  let row: Int
  /// Milliseconds each slice advances the manual clock by, to simulate its cost.
  let costMs: Double
  /// `nil` for a one-shot task; otherwise a resumable task that returns `true` (done) after this many slices.
  let slices: Int?
  /// Added with `discardable: true`.
  let discardable: Bool
  /// What the task does to the queue during its first slice.
  let action: NestedAction?

  var description: String {
    var text = "#\(id) "
    if let cell { text += "cell \(cell) row \(row)" } else { text += "key \(key)" }
    if let slices { text += " resumable \(slices)" }
    if discardable { text += " discardable" }
    text += " cost \(costMs) ms"
    if let action { text += " then \(action)" }
    return text
  }
}

/// Something a running task does to its own queue (the re-entrancy DWURunLoopWorkDistribution broke on).
indirect enum NestedAction: Sendable, CustomStringConvertible {
  case add(TaskSpec)
  case addFromAnyThread(TaskSpec)
  case cancelKey(Int)
  case cancelRow(Int)
  /// Cancels through the handle at this index (modulo the handles issued so far), possibly its own.
  case cancelHandle(Int)
  case removeAll
  case setCapacity(Int)
  case rebindCell(slot: Int, row: Int?)
  case invalidate

  var description: String {
    switch self {
    case .add(let spec): return "add(\(spec))"
    case .addFromAnyThread(let spec): return "addFromAnyThread(\(spec))"
    case .cancelKey(let key): return "cancelKey(\(key))"
    case .cancelRow(let row): return "cancelRow(\(row))"
    case .cancelHandle(let index): return "cancelHandle(\(index))"
    case .removeAll: return "removeAll"
    case .setCapacity(let capacity): return "setCapacity(\(capacity))"
    case .rebindCell(let slot, let row): return "rebindCell(\(slot), \(row.map(String.init) ?? "nil"))"
    case .invalidate: return "invalidate"
    }
  }
}

/// One step of a sequence.
enum ModelOperation: Sendable, CustomStringConvertible {
  case add(TaskSpec)
  case addFromAnyThread(TaskSpec)
  /// Sets the cell's `currentIndexPath` to `[0, row]`, or to `nil`; nothing if the slot is empty.
  case rebindCell(slot: Int, row: Int?)
  /// Drops the test's only strong reference to the cell (the queue holds cells weakly).
  case freeCell(slot: Int)
  /// `cellDidEndDisplaying` for the cell's current row: its tasks are parked (nothing if it has no row).
  case hideCell(slot: Int)
  /// `cellWillDisplay` for the cell's current row: its parked tasks may run again.
  case showCell(slot: Int)
  case cancelKey(Int)
  case cancelRow(Int)
  case cancelHandle(Int)
  case removeAll
  case discardDiscardable
  case setCapacity(Int)
  case setBudget(IdleQueue.Budget)
  case advanceClock(ms: Double)
  case runPass
  case runTrackingPass
  case invalidate

  var description: String {
    switch self {
    case .add(let spec): return "add(\(spec))"
    case .addFromAnyThread(let spec): return "addFromAnyThread(\(spec))"
    case .rebindCell(let slot, let row): return "rebindCell(\(slot), \(row.map(String.init) ?? "nil"))"
    case .freeCell(let slot): return "freeCell(\(slot))"
    case .hideCell(let slot): return "hideCell(\(slot))"
    case .showCell(let slot): return "showCell(\(slot))"
    case .cancelKey(let key): return "cancelKey(\(key))"
    case .cancelRow(let row): return "cancelRow(\(row))"
    case .cancelHandle(let index): return "cancelHandle(\(index))"
    case .removeAll: return "removeAll"
    case .discardDiscardable: return "discardDiscardable"
    case .setCapacity(let capacity):
      return "setCapacity(\(capacity == Int.max ? "unlimited" : "\(capacity)"))"
    case .setBudget(let budget): return "setBudget(\(budget))"
    case .advanceClock(let ms): return "advanceClock(\(ms) ms)"
    case .runPass: return "runPass"
    case .runTrackingPass: return "runTrackingPass"
    case .invalidate: return "invalidate"
    }
  }
}

/// A whole generated sequence: the queue's initial settings and the operations.
struct ModelSequence: Sendable {
  let seed: UInt64
  let initialBudget: IdleQueue.Budget
  let initialCapacity: Int
  let operations: [ModelOperation]

  /// Cell slots the sequence uses.
  static let cellSlots = 3
  /// Rows (and plain keys) are drawn from `0..<keySpace`, small so that keys and index paths collide often.
  static let keySpace = 4

  /// Generates the sequence for `seed`; the same seed always gives the same sequence.
  static func generate(seed: UInt64) -> ModelSequence {
    var rng = SeededGenerator(seed: seed)
    var builder = Builder()
    let budget = builder.budget(&rng)
    let capacity = builder.capacity(&rng)
    let length = rng.int(5...40)
    var operations: [ModelOperation] = []
    operations.reserveCapacity(length)
    for _ in 0..<length { operations.append(builder.operation(&rng)) }
    return ModelSequence(seed: seed, initialBudget: budget, initialCapacity: capacity, operations: operations)
  }

  private struct Builder {
    var nextID = 0

    func budget(_ rng: inout SeededGenerator) -> IdleQueue.Budget {
      rng.chance(50) ? .tasks(rng.int(1...3)) : .seconds(rng.pick([0.0005, 0.001, 0.0025, 0.004]))
    }

    func capacity(_ rng: inout SeededGenerator) -> Int {
      rng.pick([0, 1, 2, 3, 4, 5, 6, 8, 12, Int.max])
    }

    mutating func operation(_ rng: inout SeededGenerator) -> ModelOperation {
      let roll = rng.int(0...999)
      switch roll {
      case 0..<300: return .add(task(&rng, nested: false))
      case 300..<340: return .addFromAnyThread(plainTask(&rng))
      case 340..<400: return .rebindCell(slot: rng.int(0...(ModelSequence.cellSlots - 1)), row: row(&rng))
      case 400..<430: return .freeCell(slot: rng.int(0...(ModelSequence.cellSlots - 1)))
      case 430..<470: return .cancelKey(rng.int(0...(ModelSequence.keySpace - 1)))
      case 470..<490: return .cancelRow(rng.int(0...(ModelSequence.keySpace - 1)))
      case 490..<520: return .cancelHandle(rng.int(0...63))
      case 520..<530: return .removeAll
      case 530..<540: return .discardDiscardable
      case 540..<575: return .setCapacity(capacity(&rng))
      case 575..<600: return .setBudget(budget(&rng))
      case 600..<660: return .advanceClock(ms: rng.pick([0.5, 1, 2, 5]))
      case 660..<875: return .runPass
      // A cell that stays off screen pins its tasks while later ones come and go (the task list's stragglers).
      case 875..<935: return .hideCell(slot: rng.int(0...(ModelSequence.cellSlots - 1)))
      case 935..<960: return .showCell(slot: rng.int(0...(ModelSequence.cellSlots - 1)))
      case 960..<992: return .runTrackingPass
      default: return .invalidate
      }
    }

    mutating func row(_ rng: inout SeededGenerator) -> Int? {
      rng.chance(10) ? nil : rng.int(0...(ModelSequence.keySpace - 1))
    }

    mutating func plainTask(_ rng: inout SeededGenerator) -> TaskSpec {
      nextID += 1
      return TaskSpec(
        id: nextID, key: rng.int(0...(ModelSequence.keySpace - 1)), cell: nil, row: 0,
        costMs: rng.pick([0, 0.25, 0.5, 1, 1.5, 3]), slices: nil, discardable: false, action: nil)
    }

    mutating func task(_ rng: inout SeededGenerator, nested: Bool) -> TaskSpec {
      nextID += 1
      let id = nextID
      let isCell = rng.chance(45)
      let cell = isCell ? rng.int(0...(ModelSequence.cellSlots - 1)) : nil
      let slices = rng.chance(20) ? rng.int(1...4) : nil
      let action: NestedAction? = nested || !rng.chance(20) ? nil : nestedAction(&rng)
      return TaskSpec(
        id: id, key: rng.int(0...(ModelSequence.keySpace - 1)), cell: cell,
        row: rng.int(0...(ModelSequence.keySpace - 1)), costMs: rng.pick([0, 0.25, 0.5, 1, 1.5, 3]),
        slices: slices, discardable: rng.chance(25), action: action)
    }

    mutating func nestedAction(_ rng: inout SeededGenerator) -> NestedAction {
      switch rng.int(0...99) {
      case 0..<30: return .add(plainTask(&rng))
      case 30..<40: return .addFromAnyThread(plainTask(&rng))
      case 40..<55: return .cancelKey(rng.int(0...(ModelSequence.keySpace - 1)))
      case 55..<62: return .cancelRow(rng.int(0...(ModelSequence.keySpace - 1)))
      case 62..<75: return .cancelHandle(rng.int(0...63))
      case 75..<79: return .removeAll
      case 79..<87: return .setCapacity(capacity(&rng))
      case 87..<97: return .rebindCell(slot: rng.int(0...(ModelSequence.cellSlots - 1)), row: row(&rng))
      default: return .invalidate
      }
    }
  }
}
