import Dispatch
import Foundation

/// The common pattern, written as apps write it: the cell's `prepareForReuse` clears the image view
/// (`imageView.image = nil`; ``FeedCell/prepareForReuse()``, which the table calls for every dequeued cell);
/// `cellForRow` puts a `DispatchWorkItem` that draws the image on the global concurrent queue
/// (`DispatchQueue.global(qos: .userInitiated)`: no limit of its own) and keeps it per index path;
/// `didEndDisplaying` cancels the row's items (`cancel()` stops an item that has not started, not one that is
/// running); the result is applied with `DispatchQueue.main.async` behind the caller's check that the cell
/// still shows the index path (`tableView.indexPath(for: cell) == indexPath`: here `cell.currentIndexPath`).
/// No cache, no sentinel: an index-path check cannot see a row reconfigured in place with new content.
///
/// Two users write it (``Variant``):
/// - ``Variant/careful`` (`workItem`): the image is cleared once, in `prepareForReuse`. A row reconfigured in
///   place (`reconfigureRows`, which returns the same cell without `prepareForReuse`) keeps showing its image
///   while the new one is drawn; with unchanged content (`reloadSame`) the same image is drawn again and set
///   over itself — work, no flicker.
/// - ``Variant/careless`` (`workItemCareless`): also `cell.imageView.image = nil` at the top of `cellForRow`,
///   the defensive reset a careless user adds though `prepareForReuse` already did it. On a reused cell it
///   changes nothing; on a reconfigured one it blanks the image until the new draw lands, so a reload of
///   unchanged content flickers. It is a canary of the flicker metric (``StrategyKind/isCanary``).
@MainActor
final class WorkItemStrategy: FeedStrategy {
  /// Where the user's code clears the image view.
  enum Variant {
    /// Once, in `prepareForReuse`.
    case careful
    /// In `prepareForReuse` and again at the top of `cellForRow`.
    case careless
  }

  /// The user's code this instance models.
  let variant: Variant

  /// Creates the strategy as `variant`'s user writes it.
  init(variant: Variant = .careful) { self.variant = variant }

  private var items: [Int: [(item: WorkItemState, work: DispatchWorkItem)]] = [:]
  private var ledger: RenderLedger?
  private var installed = false

  func install(for workload: Workload, displayLink: DisplayLink?) { installed = true }

  func schedule(_ request: DrawRequest) {
    ledger = request.ledger
    // `cell.imageView.image = nil` (the careless user's second reset; `prepareForReuse` did it for a reused cell).
    if variant == .careless { request.clearImage() }
    let job = request.job
    let ledger = request.ledger
    let indexPath = request.indexPath
    let cell = request.cell
    let item = WorkItemState()
    // `@Sendable`: the block runs on a worker; without it the closure would inherit the main actor.
    let work = DispatchWorkItem { @Sendable [weak self] in
      // `cancel()` before the start keeps the item from running (modelled by the state, so that its job is
      // ended exactly once).
      guard item.start() else { return }
      guard let image = job.render() else {
        ledger.jobEnded()
        return
      }
      DispatchQueue.main.async {
        MainActor.assumeIsolated {
          defer { ledger.jobEnded() }
          guard let self, self.installed, cell.currentIndexPath == indexPath else { return }
          request.apply(image)
        }
      }
    }
    items[request.row, default: []].removeAll { !$0.item.isQueued }
    items[request.row, default: []].append((item, work))
    ledger.jobStarted()
    DispatchQueue.global(qos: .userInitiated).async(execute: work)
  }

  /// `workItems[indexPath]?.cancel()`.
  func cellDidEndDisplaying(_ cell: FeedCell, forRowAt indexPath: IndexPath) {
    for entry in items.removeValue(forKey: indexPath[1]) ?? [] {
      cancel(entry)
    }
  }

  private func cancel(_ entry: (item: WorkItemState, work: DispatchWorkItem)) {
    let ended = entry.item.cancel()
    entry.work.cancel()
    if ended { ledger?.jobEnded() }
  }

  func scheduleTask(key: Int, _ task: @escaping @MainActor () -> Void) {
    DispatchQueue.main.async { MainActor.assumeIsolated { task() } }
  }

  func discardPending() {
    for entries in items.values { entries.forEach(cancel) }
    items.removeAll()
  }

  var pendingCount: Int { ledger?.outstandingJobs ?? 0 }

  func uninstall() {
    discardPending()
    installed = false
  }
}

/// A work item's state, as the `DispatchWorkItem` strategies model `cancel()`: an item cancelled before it started
/// never runs (and its job ends at the cancel, exactly once); one that started runs on.
final class WorkItemState: Sendable {
  enum State { case queued, running, cancelled }
  private let state = Locked(State.queued)

  /// The item starts: whether it may (it was not cancelled first).
  func start() -> Bool {
    state.withValue { state in
      guard state == .queued else { return false }
      state = .running
      return true
    }
  }

  /// `cancel()`: whether it stopped an item that had not started.
  func cancel() -> Bool {
    state.withValue { state in
      guard state == .queued else { return false }
      state = .cancelled
      return true
    }
  }

  /// Whether it is still waiting to start.
  var isQueued: Bool { state.value == .queued }
}
