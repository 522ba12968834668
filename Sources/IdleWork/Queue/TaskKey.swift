import Foundation

/// A task's key: any `Hashable` value, stored without allocation for the common kinds and hashed only
/// when a cancellation by key needs it.
///
/// `Int`, `IndexPath` (cell tasks) and `String` keys are stored as themselves; any other key is boxed once.
/// The hash is not computed on addition: the list hashes pending keys lazily, the first time a cancellation
/// by key scans them.
enum TaskKey {
  case int(Int)
  case indexPath(IndexPath)
  case string(String)
  case other(Box)

  /// A key of another type, boxed so that the enum stays small.
  final class Box {
    let base: any Hashable
    init(_ base: any Hashable) { self.base = base }

    /// Whether the boxed key is `item`: same type, equal value.
    func matches<Item: Hashable>(_ item: Item) -> Bool {
      func isEqual<Base: Hashable>(_ base: Base) -> Bool { Base.self == Item.self && (item as? Base) == base }
      return isEqual(base)
    }
  }

  init<Key: Hashable>(_ key: Key) {
    // An `AnyHashable` key (the cell forms' optional `key:`) is the value it wraps.
    if Key.self == AnyHashable.self, let wrapped = AnyHashable(key).base as? any Hashable {
      self = TaskKey(wrapped)
    } else if Key.self == Int.self, let key = key as? Int {
      self = .int(key)
    } else if Key.self == IndexPath.self, let key = key as? IndexPath {
      self = .indexPath(key)
    } else if Key.self == String.self, let key = key as? String {
      self = .string(key)
    } else {
      self = .other(Box(key))
    }
  }

  init(_ indexPath: IndexPath) {
    self = .indexPath(indexPath)
  }

  /// Whether this key equals `item`, without building a key for it (no box for a key of another type):
  /// how a cell's stored item is compared with the item of each call.
  func matches<Item: Hashable>(_ item: Item) -> Bool {
    switch self {
    case .int(let value): return Item.self == Int.self && (item as? Int) == value
    case .indexPath(let value): return Item.self == IndexPath.self && (item as? IndexPath) == value
    case .string(let value): return Item.self == String.self && (item as? String) == value
    case .other(let box): return box.matches(item)
    }
  }

  /// Whether the key is of another type than `Int`, `IndexPath` and `String`, stored in a box.
  var isBoxed: Bool {
    if case .other = self { return true }
    return false
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
    case (.other(let a), .other(let b)) where a === b: return true
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
