import Dispatch
import Foundation

/// Canary of the background kind: each draw on a thread of its own (`Thread` per draw: the thread
/// explosion of AsyncDisplayKit #1080), the draws serialised by one lock (one shared drawing context, as
/// code that guards `UIGraphicsBeginImageContext` with a lock has), applied with `DispatchQueue.main.async`
/// to the cell it was requested for with no check at all — no sentinel, no index-path check, no
/// cancellation. During a fling the draws fall behind the rows (one core's worth of drawing for rows that
/// enter faster), the waiting threads pile up on the lock, and a draw of a row flung past lands in its cell
/// after the cell was reused for another row: the wrong-cell and thread metrics must fire.
@MainActor
final class BackgroundNoGuardStrategy: FeedStrategy {
  private var ledger: RenderLedger?
  private var installed = false
  /// The drawing context's lock: the threads wait on it (blocked, not polling).
  private let drawLock = NSLock()

  func install(for workload: Workload, displayLink: DisplayLink?) { installed = true }

  func schedule(_ request: DrawRequest) {
    ledger = request.ledger
    let job = request.job
    let ledger = request.ledger
    ledger.jobStarted()
    let drawLock = self.drawLock
    let thread = Thread { [weak self] in
      ThreadPriority.standard.applyToCurrentThread()  // a plain thread's QoS, not the main thread's it was started from
      drawLock.lock()
      let image = job.render()
      drawLock.unlock()
      guard let image else {
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
