import Foundation
import IdleWork

/// The main-thread side of one prepared task: the preparation it waits for, its `apply`, and what it adds to the
/// preparation's request counts. Its queue holds it as a later task (``LaterTask``): passed over until the result is
/// handed over, stale with its cell, and telling the request when its cell goes off screen and when it leaves.
@MainActor
final class PreparedRequest {
  /// The preparation half that made it, which its queue owns.
  unowned let client: QueuePreparation
  /// Several tasks share one preparation for the same content: a new one until the task joins
  /// (``QueuePreparation/start(_:resultBytes:)`` may hand it one in flight instead).
  private(set) var run: PreparationRun
  /// Applies the result: given the cell (`nil` for a plain task) and the value `prepare` returned.
  let apply: @MainActor (AnyObject?, any Sendable) -> Void
  /// The task's cell, if it has one: a released cell's request stops counting at once (``QueuePreparation``).
  private(set) weak var cell: AnyObject?
  let hasCell: Bool
  let isDiscardable: Bool
  /// Hands the result over to the queue's task, once (set once the task is queued).
  var handOver: (@MainActor (PreparedRequest) -> Void)?
  /// Cancels the queue's task (its preparation threw).
  var cancelTask: (@MainActor () -> Bool)?
  private(set) var value: (any Sendable)?
  /// Whether the request counts in its preparation yet: set once its task was queued and did not leave at once.
  private(set) var hasJoined = false
  /// Whether the task still counts in the preparation's `live` count (it has not left the queue).
  private(set) var isLive = true
  /// Whether the task counts in the preparation's `wanted` count (its cell is on screen, or it has none).
  private(set) var isWanted = true

  init(
    client: QueuePreparation, run: PreparationRun, cell: AnyObject?, isDiscardable: Bool,
    apply: @escaping @MainActor (AnyObject?, any Sendable) -> Void
  ) {
    self.client = client
    self.run = run
    self.cell = cell
    self.hasCell = cell != nil
    self.isDiscardable = isDiscardable
    self.apply = apply
  }

  var hasArrived: Bool { value != nil }

  /// Whether its cell was released.
  var cellIsGone: Bool { hasCell && cell == nil }

  /// The counts this task adds to its preparation while live.
  var counts: PreparationLife.Requests {
    guard isLive else { return .init() }
    return .init(
      live: 1, wanted: isWanted ? 1 : 0, urgent: isWanted && !isDiscardable ? 1 : 0, cells: hasCell ? 1 : 0)
  }

  /// The task is queued and will wait for `shared`, a preparation in flight for the same content, not its own.
  func share(_ shared: PreparationRun) {
    precondition(!hasJoined, "IdleWork internal: a request changed its preparation after it joined one")
    run = shared
  }

  /// The task is queued: its counts join the preparation's (the caller submits a new preparation with them instead).
  func joined(adjusting: Bool) {
    hasJoined = true
    guard adjusting else { return }
    let counts = counts
    run.line.adjust(run, live: counts.live, wanted: counts.wanted, urgent: counts.urgent, cells: counts.cells)
  }

  /// The cell went off screen (`false`) or came back (`true`): the preparation is wanted accordingly.
  func setWanted(_ wanted: Bool) {
    guard isLive, wanted != isWanted else { return }
    isWanted = wanted
    guard hasJoined else { return }
    let step = wanted ? 1 : -1
    run.line.adjust(run, wanted: step, urgent: isDiscardable ? 0 : step)
  }

  /// The task left the queue, or stopped waiting: its counts leave the preparation.
  @discardableResult
  func leave() -> Bool {
    guard isLive else { return false }
    let counts = counts
    isLive = false
    guard hasJoined else { return true }
    run.line.adjust(run, live: -counts.live, wanted: -counts.wanted, urgent: -counts.urgent, cells: -counts.cells)
    return true
  }

  func deliver(_ value: any Sendable) {
    self.value = value
    handOver?(self)
    handOver = nil
  }
}
