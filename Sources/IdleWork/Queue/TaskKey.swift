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

    /// Whether the boxed key is `item`: same type, equal value. Compares the types rather than casting
    /// (`as? Item` asks the runtime for `Optional<Item>`'s metadata, a look-up on every call).
    @inline(never)
    func matches<Item: Hashable>(_ item: Item) -> Bool {
      func isEqual<Base: Hashable>(_ base: Base) -> Bool {
        Base.self == Item.self && base == unsafeBitCast(item, to: Base.self)
      }
      return isEqual(base)
    }
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

  /// Whether this key equals `item`, without building a key for it (no box for a key of another type):
  /// how a cell's stored item is compared with the item of each call.
  @inline(__always) func matches<Item: Hashable>(_ item: Item) -> Bool {
    switch self {
    case .int(let value): return Item.self == Int.self && value == unsafeBitCast(item, to: Int.self)
    case .indexPath(let value):
      return Item.self == IndexPath.self && value == unsafeBitCast(item, to: IndexPath.self)
    case .string(let value): return Item.self == String.self && value == unsafeBitCast(item, to: String.self)
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
