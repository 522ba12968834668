import Foundation

/// A task's key: any `Hashable` value, stored without allocation for the common kinds and hashed only
/// when a cancellation by key needs it.
///
/// Not `AnyHashable`: boxing a value into `AnyHashable` performs a dynamic cast on every addition (to find
/// bridged representations), which cost more than the rest of `addTask`. Nor `any Hashable` for every key:
/// its 40-byte existential and value-witness copies were a fifth of `addTask`. `Int`, `IndexPath` (cell
/// tasks) and `String` keys are stored as themselves (recognised by comparing type metadata, one pointer
/// comparison); any other key is boxed once. Nor is the hash computed on addition: the list hashes pending
/// keys lazily, the first time a cancellation by key scans them.
enum TaskKey {
  case int(Int)
  case indexPath(IndexPath)
  case string(String)
  case other(Box)

  /// A key of another type, boxed so that the enum stays small.
  final class Box {
    let base: any Hashable
    init(_ base: any Hashable) { self.base = base }
  }

  init<Key: Hashable>(_ key: Key) {
    if Key.self == Int.self {
      self = .int(unsafeBitCast(key, to: Int.self))
    } else if Key.self == IndexPath.self {
      self = .indexPath(unsafeBitCast(key, to: IndexPath.self))
    } else if Key.self == String.self {
      self = .string(unsafeBitCast(key, to: String.self))
    } else {
      self = .other(Box(key))
    }
  }

  init(_ indexPath: IndexPath) {
    self = .indexPath(indexPath)
  }

  /// The key's hash value.
  var hash: Int {
    switch self {
    case .int(let value): return value.hashValue
    case .indexPath(let value): return value.hashValue
    case .string(let value): return value.hashValue
    case .other(let box): return box.base.hashValue
    }
  }

  /// Whether the two keys are equal: same type, equal values. Callers compare hashes first.
  func matches(_ other: TaskKey) -> Bool {
    switch (self, other) {
    case (.int(let a), .int(let b)): return a == b
    case (.indexPath(let a), .indexPath(let b)): return a == b
    case (.string(let a), .string(let b)): return a == b
    case (.other(let a), .other(let b)):
      func isEqual<Base: Hashable>(_ base: Base) -> Bool { (b.base as? Base) == base }
      return isEqual(a.base)
    default: return false
    }
  }
}
