/// When prefetches leave a worker free: the worker pool's pacing rule, a value of the moments it depends on
/// (nanoseconds on one clock), so that tests step it exactly. The pool keeps one under its lock.
///
/// Prefetches are paced while three things hold:
/// - a scroll is tracked (a tracking pass within the last ``linger``);
/// - a visible row's preparation lately found no worker free (within ``linger``);
/// - the main thread's frames were lately tight (within ``linger``): a tracking pass found less than 8.3 ms left
///   after the main thread's work, or the deadline passed (``FrameClock/framesAreTight(now:)``).
///
/// Paced, prefetches use all workers but one (at least one) — of the pool, and of each queue's own bound — so that
/// the next visible row finds one, and the main thread, which has frames to make, a core. Texture runs one render
/// thread fewer while a scroll is tracked for the same reason. Otherwise they use every worker: keeping ahead of
/// the scroll is what keeps rows from appearing blank, and a frame with time to spare loses nothing to a worker
/// that takes a core for a few milliseconds. (In FeedDemo at 60 Hz, pacing only with tight frames left less blank
/// time than pacing whenever a visible row waited: see the *Preparing off the main thread* article. At 120 Hz every
/// frame is tight, and the pacing is as before.)
struct PrefetchPacing {
  /// How long each of the three lasts after the moment that set it: 0.1 s, six 60 Hz frames (a tracking pass
  /// comes every frame while a scroll lasts).
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

  /// When the pacing ends if nothing renews it: the earliest of the three moments' ends (`nil`: one of them
  /// never happened).
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
