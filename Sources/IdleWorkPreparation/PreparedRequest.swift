import Foundation
import IdleWork

/// The main-thread side of one prepared task: the preparation it waits for, its `apply`, and what it adds to the
/// preparation's request counts. A later task of the queue (``LaterWork``), passed over until the result arrives.
@MainActor
final class PreparedRequest: LaterWork {
  /// The preparation half that made it, which its queue owns.
  unowned let client: QueuePreparation
  /// Several tasks share one preparation for the same content.
  let run: PreparationRun
  /// Applies the result: given the cell (`nil` for a plain task) and the value `prepare` returned.
  let apply: @MainActor (AnyObject?, any Sendable) -> Void
  /// The cell configuration the task belongs to; `nil` for a plain task.
  let binding: CellBinding?
  let isDiscardable: Bool
  var seq: UInt64 = 0
  private(set) var value: (any Sendable)?
  /// Whether the task still counts in the preparation's `live` count (it has not left the list).
  private(set) var isLive = true
  /// Whether the task counts in the preparation's `wanted` count (its cell is on screen, or it has none).
  private(set) var isWanted: Bool

  init(
    client: QueuePreparation, run: PreparationRun, binding: CellBinding?, isDiscardable: Bool,
    apply: @escaping @MainActor (AnyObject?, any Sendable) -> Void
  ) {
    self.client = client
    self.run = run
    self.binding = binding
    self.isDiscardable = isDiscardable
    self.apply = apply
    self.isWanted = binding?.record.isDisplayed ?? true
  }

  var hasArrived: Bool { value != nil }

  var isReady: Bool { hasArrived }

  func run(cell: AnyObject?) { client.applyPrepared(self, cell: cell) }

  func left(_ fate: TaskFate) { client.preparedTaskLeft(self, fate: fate) }

  func cellDisplayChanged(isDisplayed: Bool) { setWanted(isDisplayed) }

  func cellConfiguredAgain() { client.detached(self) }

  /// The counts this task adds to its preparation while live.
  var counts: PreparationLife.Requests {
    guard isLive else { return .init() }
    return .init(
      live: 1, wanted: isWanted ? 1 : 0, urgent: isWanted && !isDiscardable ? 1 : 0, cells: binding == nil ? 0 : 1)
  }

  func join() {
    let counts = counts
    run.line.adjust(run, live: counts.live, wanted: counts.wanted, urgent: counts.urgent, cells: counts.cells)
  }

  /// The cell went off screen (`false`) or came back (`true`): the preparation is wanted accordingly.
  func setWanted(_ wanted: Bool) {
    guard isLive, wanted != isWanted else { return }
    isWanted = wanted
    let step = wanted ? 1 : -1
    run.line.adjust(run, wanted: step, urgent: isDiscardable ? 0 : step)
  }

  /// The task left the list (or its configuration was replaced): its counts leave the preparation.
  @discardableResult
  func leave() -> Bool {
    guard isLive else { return false }
    let counts = counts
    isLive = false
    run.line.adjust(run, live: -counts.live, wanted: -counts.wanted, urgent: -counts.urgent, cells: -counts.cells)
    return true
  }

  func deliver(_ value: any Sendable) {
    self.value = value
  }
}
