/// Makes sure no idle pass runs inside another, across every scheduler on the main thread.
///
/// CoreFoundation never re-enters the observer whose callout is running, but a task that spins a nested
/// run loop would let *other* schedulers' observers fire inside it. Their passes are refused and remembered,
/// and asked for again when the outer pass ends, so the refused work is delayed, never stranded.
@MainActor
enum PassGate {
  private static var isActive = false
  private static var refused: [() -> Void] = []

  /// Runs `body` as a pass unless one is already running; returns whether it ran.
  static func run(_ body: () -> Void, onRefused retry: @escaping @MainActor () -> Void) -> Bool {
    guard !isActive else {
      refused.append(retry)
      return false
    }
    isActive = true
    body()
    isActive = false
    let retries = refused
    refused = []
    for retry in retries { retry() }
    return true
  }
}
