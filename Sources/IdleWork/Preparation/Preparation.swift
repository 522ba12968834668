import Foundation

/// How a result is made from an input off the main thread, said once — used by a cell's task, a plain task and a
/// prefetch alike, so that equal inputs share one preparation and one cached result.
///
/// ```swift
/// let thumbnail = Preparation { (url: URL, isCancelled) in
///   try await Thumbnails.load(url, size: CGSize(width: 88, height: 88))   // off the main thread
/// }
/// queue.addTask(for: cell, at: indexPath, prepare: thumbnail, from: url) { cell, image in
///   cell.photoView.image = image                                         // on the main thread, in a pass
/// }
/// queue.prefetch(thumbnail, from: urls)
/// ```
///
/// `prepare` runs on the worker pool, never on the main actor: synchronous work on a worker, `async` work as a task
/// a worker waits for. Sharing needs the same `Preparation` value (or a copy): make it once, as a stored constant.
public struct Preparation<Input: Hashable & Sendable, Value: Sendable>: Sendable {
  /// The work: run on the worker as it is, or — `async` — as a task the worker waits for.
  enum Work: Sendable {
    case synchronous(@Sendable (Input, _ isCancelled: @Sendable () -> Bool) throws -> Value)
    case asynchronous(@Sendable (Input, _ isCancelled: @Sendable () -> Bool) async throws -> Value)
  }

  /// Which preparation this is, for the input's key: copies share it.
  let identity: UInt64
  let prepare: Work
  let resultBytes: (@Sendable (Value) -> Int)?

  /// Creates a preparation whose work runs synchronously on a worker thread (drawing, decoding, text layout).
  ///
  /// - Parameters:
  ///   - resultBytes: a result's size in bytes, for the cache's limit; `nil` counts it by its type (an image its
  ///     bitmap, `Data` its `count`). Called on a worker and on the main thread.
  ///   - prepare: makes the value. `isCancelled()` turns `true` once nothing waits for the result: poll it between
  ///     steps and throw to stop.
  public init(
    resultBytes: (@Sendable (Value) -> Int)? = nil,
    _ prepare: @escaping @Sendable (_ input: Input, _ isCancelled: @Sendable () -> Bool) throws -> Value
  ) {
    self.identity = PreparationIdentity.next()
    self.prepare = .synchronous(prepare)
    self.resultBytes = resultBytes
  }

  /// Creates a preparation whose work is `async` (a download, an async decoder): it runs as a detached task, never
  /// on the main actor, while a worker waits for it, so that ``IdleQueue/Configuration/workers`` still bounds it.
  ///
  /// - Parameters:
  ///   - resultBytes: a result's size in bytes, for the cache's limit; `nil` counts it by its type.
  ///   - prepare: makes the value. It is cancelled as a task once nothing waits for the result, and
  ///     `isCancelled()` turns `true` then too.
  public init(
    resultBytes: (@Sendable (Value) -> Int)? = nil,
    _ prepare: @escaping @Sendable (_ input: Input, _ isCancelled: @Sendable () -> Bool) async throws -> Value
  ) {
    self.identity = PreparationIdentity.next()
    self.prepare = .asynchronous(prepare)
    self.resultBytes = resultBytes
  }

  /// The key tasks and prefetches for `input` share a render and a cached result by.
  func key(_ input: Input) -> PreparedContent {
    PreparedContent(valueType: ObjectIdentifier(Value.self), content: AnyHashable(input), work: identity)
  }

  /// The work for one input, as a render runs it on a worker: `async` work runs as a detached task (never
  /// on the main actor) while the worker waits for it, so that the pool's bound counts it; a cancellation of the
  /// render (``PreparationCancellation``) cancels the task.
  ///
  func work(for input: Input) -> PreparationWork {
    switch prepare {
    case .synchronous(let prepare):
      return { context in try prepare(input, context.isCancelled) }
    case .asynchronous(let prepare):
      return { context in
        let isCancelled = context.isCancelled
        return try AsyncWork.run(context) { try await prepare(input, isCancelled) }
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
