import IdleWork

/// When prefetches leave a worker free: the worker pool's pacing rule, a value of the moments it depends on
/// (nanoseconds on one clock), so tests step it exactly. The pool keeps one under its lock.
///
/// Prefetches are paced while, within the last ``linger``, a scroll was tracked, a visible row's preparation
/// found no worker free, and the frames were tight (``FrameClock/framesAreTight(now:)``). Paced, they use all
/// workers but one, so the next visible row finds one and the main thread a core; otherwise every worker, since
/// keeping ahead of the scroll is what keeps rows from appearing blank.
struct PrefetchPacing {
  /// How long each of the three lasts after the moment that set it: a few frames (a tracking pass comes every
  /// frame while a scroll lasts).
  static let linger: UInt64 = 100_000_000

  /// When a tracking pass last ran (`nil`: never).
  private var tracked: UInt64?
  /// When a visible row's preparation last found no worker free (`nil`: never).
  private var visibleRowWaited: UInt64?
  /// When a tracking pass last found the frames tight (`nil`: never).
  private var framesWereTight: UInt64?

  /// A tracking pass ran at `now`, and found the frames tight or not.
  mutating func noteTracking(at now: UInt64, framesAreTight: Bool) {
    tracked = now
    if framesAreTight { framesWereTight = now }
  }

  /// A visible row's preparation found no worker free at `now`.
  mutating func noteVisibleRowWaited(at now: UInt64) {
    visibleRowWaited = now
  }

  /// Whether prefetches are paced at `now`.
  func isPacing(at now: UInt64) -> Bool {
    guard let endsAt else { return false }
    return now < endsAt
  }

  /// When the pacing ends if nothing renews it (`nil`: one of the three never happened).
  var endsAt: UInt64? {
    guard let tracked, let visibleRowWaited, let framesWereTight else { return nil }
    return min(tracked, visibleRowWaited, framesWereTight) &+ Self.linger
  }

  /// Whether a tracking pass found the frames tight within ``linger`` before `now`.
  func framesWereTightLately(at now: UInt64) -> Bool {
    guard let framesWereTight else { return false }
    return now &- framesWereTight < Self.linger
  }
}
