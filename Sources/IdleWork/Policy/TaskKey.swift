/// A task's key: any `Hashable` value, hashed only when a cancellation by key needs it.
///
/// Not `AnyHashable`: boxing a value into `AnyHashable` performs a dynamic cast on every addition (to find
/// bridged representations), which cost more than the rest of `addTask`. Nor is the hash computed on
/// addition: hashing (SipHash) cost about a third of `addTask`, and most keys are never looked up. The
/// list hashes pending keys lazily, the first time a cancellation by key scans them, and keeps the hashes.
struct TaskKey {
  let base: any Hashable

  init(_ base: some Hashable) {
    self.base = base
  }

  /// The key's hash value.
  var hash: Int { base.hashValue }

  /// Whether the two keys are equal: same type, equal values. Callers compare hashes first.
  func matches(_ other: TaskKey) -> Bool {
    func isEqual<Base: Hashable>(_ base: Base) -> Bool { (other.base as? Base) == base }
    return isEqual(base)
  }
}
