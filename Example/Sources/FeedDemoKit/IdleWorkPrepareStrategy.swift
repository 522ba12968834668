import Foundation
import IdleWork

/// IdleWork's background path as its *Preparing off the main thread* documentation recommends it for a feed
/// (``IdleWorkStrategy/Variant/prepare(workers:)``): `IdleQueue(configuration: .scrollingFeed(timeUntilNextFrame:))`
/// (the display link's time to the next vsync as the frame clock, 32 MB of prepared results cached by
/// content), `bind(_:to:)` at the top of `cellForRow`, one
/// `addTask(for:at:content:resultBytes:prepare:apply:)` per image — the draw off the main thread on the
/// queue's workers, the row's content version as the `content` key (a row shown again, or reloaded with the
/// same content, applies from the cache inside `cellForRow`), the image's bytes as `resultBytes` — and
/// `cellDidEndDisplaying(_:at:)` from `didEndDisplaying` (the simulated table has no prefetching, so no
/// `willDisplay` without `cellForRow`). `apply` sets the image on the cell in an idle pass, whose frame
/// deadline covers what the apply adds to the next commit.
extension IdleWorkStrategy {
  /// What the image depends on: the row, which of its images, and its content version.
  struct ImageContent: Hashable, Sendable {
    let row: Int
    let image: Int
    let version: Int
  }

  /// A draw abandoned part-way because `isCancelled()` turned true (no task waits for it).
  struct Abandoned: Error {}

  /// Queues `request`'s image as a prepared task.
  func addPreparedDraw(_ request: DrawRequest, to queue: IdleQueue) -> IdleTaskHandle {
    let job = request.job
    return queue.addTask(
      for: request.cell, at: request.indexPath,
      content: ImageContent(row: request.row, image: request.imageIndex, version: request.version),
      resultBytes: { (image: RenderedImage) in image.byteCount },
      prepare: { isCancelled in
        guard let image = job.render(isCancelled: isCancelled) else { throw Abandoned() }
        return image
      },
      apply: { cell, image in request.apply(image, to: cell) })
  }
}
