import Dispatch
import Foundation

/// Canary of the background kind: each draw on a thread of its own (`Thread` per draw: the thread
/// explosion of AsyncDisplayKit #1080), applied with `DispatchQueue.main.async` to the cell it was requested
/// for with no check at all — no sentinel, no index-path check, no cancellation. A reused cell gets the image
/// of the row it showed before, and the threads pile up: the wrong-cell and thread metrics must fire.
@MainActor
final class BackgroundNoGuardStrategy: FeedStrategy {
  private var ledger: RenderLedger?
  private var installed = false

  func install(for workload: Workload, displayLink: DisplayLink?) { installed = true }

  func schedule(_ request: DrawRequest) {
    ledger = request.ledger
    let job = request.job
    let ledger = request.ledger
    ledger.jobStarted()
    let thread = Thread { [weak self] in
      guard let image = job.render() else {
        ledger.jobEnded()
        return
      }
      DispatchQueue.main.async {
        MainActor.assumeIsolated {
          defer { ledger.jobEnded() }
          guard let self, self.installed else { return }
          request.apply(image)
        }
      }
    }
    thread.start()
  }

  func cellDidEndDisplaying(_ cell: FeedCell, forRowAt indexPath: IndexPath) {}

  func scheduleTask(key: Int, _ task: @escaping @MainActor () -> Void) {
    DispatchQueue.main.async { MainActor.assumeIsolated { task() } }
  }

  func discardPending() {}

  var pendingCount: Int { ledger?.outstandingJobs ?? 0 }

  func uninstall() { installed = false }
}
