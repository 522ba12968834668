/// Makes sure no idle pass runs inside another, across every scheduler on the main thread.
///
/// A task that spins a nested run loop lets *other* schedulers' observers fire inside it: their passes are
/// refused, and asked for again when the outer pass ends, so the work is delayed, never stranded.
@MainActor
enum PassGate {
  private static var isActive = false
  private static var refused: [IdleScheduler] = []

  /// Enters a pass; returns `false`, remembering `scheduler`, if a pass is already running.
  static func enter(_ scheduler: IdleScheduler) -> Bool {
    guard !isActive else {
      refused.append(scheduler)
      return false
    }
    isActive = true
    return true
  }

  /// Leaves the pass and returns the schedulers refused meanwhile, which must ask for a pass again.
  static func leave() -> [IdleScheduler] {
    isActive = false
    guard !refused.isEmpty else { return [] }
    defer { refused = [] }
    return refused
  }
}
