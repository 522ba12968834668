import Foundation

/// What a prepared result is, said once: how to make a `Value` from a `Content` off the main thread — used by a
/// cell's task, by a prefetch and by a plain task alike, so that the same content always shares one preparation
/// and one cached result.
///
/// ```swift
/// let thumbnail = Preparation { (photo: Photo, isCancelled) in
///   try await photo.thumbnail(size: CGSize(width: 88, height: 88))   // off the main thread
/// }
///
/// // tableView(_:cellForRowAt:)
/// queue.bind(cell, to: indexPath)
/// queue.addTask(for: cell, at: indexPath, preparing: photos[indexPath.row], with: thumbnail) { cell, image in
///   cell.photoView.image = image                                    // on the main thread, in an idle pass
/// }
///
/// // tableView(_:prefetchRowsAt:) and tableView(_:cancelPrefetchingForRowsAt:)
/// queue.prefetch(indexPaths.map { photos[$0.row] }, with: thumbnail)
/// queue.cancelPrefetching(indexPaths.map { photos[$0.row] }, with: thumbnail)
/// ```
///
/// `prepare` runs on the process's worker pool, never on the main actor; it may be synchronous (drawing,
/// decoding: it runs on the worker) or `async` (a download, an async decoder, an actor-backed disk cache: it runs
/// as a task the worker waits for). Tasks and prefetches for equal content with the same
/// `Preparation` — the same value, or a copy of it — share one run of `prepare` while it runs and, with a
/// ``IdleQueue/Configuration/resultCacheLimit``, its cached result afterwards. Two `Preparation`s made
/// separately never share, even with the same closure.
///
/// `@unchecked Sendable` is not needed: every stored property is `Sendable`.
public struct Preparation<Content: Hashable & Sendable, Value: Sendable>: Sendable {
  /// The work: run on the worker as it is, or — `async` — as a task the worker waits for.
  enum Work: Sendable {
    case synchronous(@Sendable (Content, _ isCancelled: @Sendable () -> Bool) throws -> Value)
    case asynchronous(@Sendable (Content, _ isCancelled: @Sendable () -> Bool) async throws -> Value)
  }

  /// Which preparation this is, for the content key: copies share it.
  let identity: UInt64
  let prepare: Work
  let resultBytes: (@Sendable (Value) -> Int)?

  /// Creates the preparation of a `Value` from a `Content`, made synchronously on a worker thread (drawing with
  /// `UIGraphicsImageRenderer`, decoding with ImageIO, laying text out with Core Text).
  ///
  /// - Parameters:
  ///   - resultBytes: the size of a result in bytes, for the cache's limit; `nil` counts it by its type, as the
  ///     prepared `addTask` does (an image its bitmap, `Data` its `count`). Called on the worker that made the
  ///     result and on the main thread (with a result cache only).
  ///   - prepare: makes the value, on one of the process's worker threads. `isCancelled()` turns `true` once
  ///     nothing waits for the result (every task and prefetch for it cancelled, stale or evicted, the queue
  ///     ended): poll it between steps and throw to stop.
  public init(
    resultBytes: (@Sendable (Value) -> Int)? = nil,
    _ prepare: @escaping @Sendable (_ content: Content, _ isCancelled: @Sendable () -> Bool) throws -> Value
  ) {
    self.identity = PreparationIdentity.next()
    self.prepare = .synchronous(prepare)
    self.resultBytes = resultBytes
  }

  /// Creates the preparation of a `Value` from a `Content`, made by `async` work.
  ///
  /// - Parameters:
  ///   - resultBytes: the size of a result in bytes, for the cache's limit (an image's `bytesPerRow × height`);
  ///     `nil` counts it by its type, as the prepared `addTask` does (an image its bitmap, `Data` its `count`).
  ///     Called on the worker that made the result and on the main thread (with a result cache only).
  ///   - prepare: makes the value, as a detached task on Swift's cooperative pool — never on the main actor —
  ///     while one of the process's workers waits for it, so that ``IdleQueue/Configuration/workers`` still bounds
  ///     the preparations in flight. It is cancelled as a task once nothing waits for the result
  ///     (`Task.isCancelled`, `try Task.checkCancellation()`, a cancelled `URLSession` call throws), and
  ///     `isCancelled()` turns `true` then too. Throw to stop.
  public init(
    resultBytes: (@Sendable (Value) -> Int)? = nil,
    _ prepare: @escaping @Sendable (_ content: Content, _ isCancelled: @Sendable () -> Bool) async throws -> Value
  ) {
    self.identity = PreparationIdentity.next()
    self.prepare = .asynchronous(prepare)
    self.resultBytes = resultBytes
  }

  /// The key tasks and prefetches for `content` share a render and a cached result by.
  func key(_ content: Content) -> PreparedContent {
    PreparedContent(valueType: ObjectIdentifier(Value.self), content: AnyHashable(content), work: identity)
  }

  /// The work for one content, as a render runs it on a worker: `async` work runs as a detached task (never
  /// on the main actor) while the worker waits for it, so that the pool's bound counts it; a cancellation of the
  /// render (``RenderCancellation``) cancels the task.
  ///
  func work(for content: Content) -> RenderWork {
    switch prepare {
    case .synchronous(let prepare):
      return { context in try prepare(content, context.isCancelled) }
    case .asynchronous(let prepare):
      return { context in
        let isCancelled = context.isCancelled
        return try AsyncWork.run(context) { try await prepare(content, isCancelled) }
      }
    }
  }
}

/// Numbers ``Preparation``s (from any thread).
enum PreparationIdentity {
  private static let counter = Counter()

  static func next() -> UInt64 { counter.next() }

  /// `@unchecked Sendable`: `last` is read and written only while `lock` is held.
  private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var last: UInt64 = 0

    func next() -> UInt64 {
      lock.lock()
      defer { lock.unlock() }
      last += 1
      return last
    }
  }
}
