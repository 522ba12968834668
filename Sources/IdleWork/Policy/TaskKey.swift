/// A task's key: any `Hashable` value, with its hash computed once.
///
/// Not `AnyHashable`: boxing a value into `AnyHashable` performs a dynamic cast on every addition (to find
/// bridged representations), which cost more than the rest of `addTask`. Keys are only compared when
/// cancelling by key, and then only where the hashes match.
struct TaskKey {
  let base: any Hashable
  let hash: Int

  init(_ base: some Hashable) {
    self.base = base
    self.hash = base.hashValue
  }

  /// Whether the two keys are equal: same hash, same type, equal values.
  func matches(_ other: TaskKey) -> Bool {
    guard hash == other.hash else { return false }
    func isEqual<Base: Hashable>(_ base: Base) -> Bool { (other.base as? Base) == base }
    return isEqual(base)
  }
}
