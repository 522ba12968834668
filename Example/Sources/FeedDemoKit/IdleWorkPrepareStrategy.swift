import Foundation
import IdleWork
import IdleWorkPreparation

extension IdleWorkStrategy {
  /// The draw said once, as the app writes it: a `Preparation` that renders an image's content off the main
  /// thread, used by the cells' tasks and by the prefetches alike, so that the same content shares one
  /// preparation and one cached result. `Sendable` via ``DrawContent``, whose job it renders.
  static let draw = Preparation(resultBytes: { (image: RenderedImage) in image.byteCount }) {
    (content: DrawContent, isCancelled) in
    guard let image = content.job.render(isCancelled: isCancelled) else { throw Abandoned() }
    return image
  }

  struct Abandoned: Error {}

  func addPreparedDraw(_ request: DrawRequest, to preparer: Preparer) -> IdleTaskHandle {
    preparer.addTask(for: request.cell, at: request.indexPath, prepare: Self.draw, from: DrawContent(request.job)) {
      cell, image in request.apply(image, to: cell)
    }
  }
}
