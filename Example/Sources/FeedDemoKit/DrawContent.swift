import Foundation

/// What one image shows — its row, which of the row's images, and the row's content version — with the job that
/// draws it. Equal and hashed by what it shows only: the key a cache or a shared preparation goes by, as an app's
/// would be (a photo's identifier and version), while the job travels along to the worker.
struct DrawContent: Hashable, Sendable {
  let job: RenderJob

  init(_ job: RenderJob) { self.job = job }

  static func == (a: DrawContent, b: DrawContent) -> Bool {
    a.job.row == b.job.row && a.job.imageIndex == b.job.imageIndex && a.job.version == b.job.version
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(job.row)
    hasher.combine(job.imageIndex)
    hasher.combine(job.version)
  }
}
