/// Makes sure no idle pass runs inside another, across every scheduler on the main thread.
///
/// CoreFoundation never re-enters the observer whose callout is running, but a task that spins a nested
/// run loop would let *other* schedulers' observers fire inside it. Their passes are refused and remembered,
/// and asked for again when the outer pass ends, so the refused work is delayed, never stranded.
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
