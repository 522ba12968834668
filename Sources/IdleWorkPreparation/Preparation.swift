import Foundation
import IdleWork

/// How a result is made from an input, said once — used by a cell's task, a plain task and a prefetch alike, so that
/// equal inputs share one preparation and one cached result.
///
/// ```swift
/// let thumbnail = Preparation { (url: URL, isCancelled) in
///   try await Thumbnails.load(url, size: CGSize(width: 88, height: 88))   // off the main thread
/// }
/// preparer.addTask(for: cell, at: indexPath, prepare: thumbnail, from: url) { cell, image in
///   cell.photoView.image = image                                         // on the main thread, in a pass
/// }
/// preparer.prefetch(thumbnail, from: urls)
/// ```
///
/// The initializers make a preparation whose `prepare` runs on the worker pool, never on the main actor;
/// ``mainThread(resultBytes:_:)`` and ``mainThread(resultBytes:slices:)``
/// make one for code that must stay on the main thread, run in the queue's passes.
///
/// Copies of one preparation share in-flight work and cached results for equal inputs; a preparation made anew is a
/// new one, which shares nothing, so two sizes made by one factory never show each other's result. Store it (a
/// `let` property) and use the same value for tasks and prefetches. One made anew where it is used — inline in
/// `cellForRowAt`, a computed property — shares only if it carries an identifier:
/// ``identified(by:)``. Each result such a preparation makes again for an input another preparation had made or
/// was making counts in ``Preparer/Statistics-swift.struct/duplicatePreparations``.
public struct Preparation<Input: Hashable & Sendable, Value: Sendable>: Sendable {
  /// The work: run on a worker as it is, or — `async` — as a task the worker waits for; or on the main thread.
  enum Work: Sendable {
    case synchronous(@Sendable (Input, _ isCancelled: @Sendable () -> Bool) throws -> Value)
    case asynchronous(@Sendable (Input, _ isCancelled: @Sendable () -> Bool) async throws -> Value)
    /// Makes the slices of one input's work, run on the main thread until one returns the value.
    case mainThread(@MainActor @Sendable (Input) -> MainThreadSlices<Value>)
  }

  /// Which preparation this is, for the input's key: the value made by an initializer (its copies share it), or the
  /// identifier it was given.
  let identity: PreparationIdentity
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
    self.init(.synchronous(prepare), resultBytes)
  }

  /// Creates a preparation whose work is `async` (a download, an async decoder): it runs as a detached task, never
  /// on the main actor, while a worker waits for it, so that ``Preparer/Configuration-swift.struct/workers`` still bounds it.
  ///
  /// - Parameters:
  ///   - resultBytes: a result's size in bytes, for the cache's limit; `nil` counts it by its type.
  ///   - prepare: makes the value. It is cancelled as a task once nothing waits for the result, and
  ///     `isCancelled()` turns `true` then too.
  public init(
    resultBytes: (@Sendable (Value) -> Int)? = nil,
    _ prepare: @escaping @Sendable (_ input: Input, _ isCancelled: @Sendable () -> Bool) async throws -> Value
  ) {
    self.init(.asynchronous(prepare), resultBytes)
  }

  /// Creates a preparation whose work runs on the main thread, for code that is not thread-safe (old drawing code,
  /// UIKit): in the queue's passes, within its budget and between frames, like any task — the visible row that
  /// appeared last first. Prefetches run only in time no visible row's work wants, nearest first, and during a
  /// frame only if this preparation's measured cost fits the time left.
  ///
  /// ```swift
  /// let tile = Preparation.mainThread { (photo: Photo) in LegacyRenderer.draw(photo) }
  /// ```
  ///
  /// - Parameters:
  ///   - resultBytes: a result's size in bytes, for the cache's limit; `nil` counts it by its type.
  ///   - prepare: makes the value, on the main thread; throw if it cannot.
  public static func mainThread(
    resultBytes: (@Sendable (Value) -> Int)? = nil,
    _ prepare: @escaping @MainActor @Sendable (_ input: Input) throws -> Value
  ) -> Preparation {
    Preparation(.mainThread { input in MainThreadSlices { _ in try prepare(input) } }, resultBytes)
  }

  /// Creates a preparation whose main-thread work comes in slices, one per step of a pass, like a resumable task:
  /// for work too long for one frame (a long text layout, several drawings).
  ///
  /// ```swift
  /// let card = Preparation.mainThread(slices: { (post: Post) in
  ///   var layout = CardLayout(post)
  ///   return { timeRemaining in layout.step() ? layout.image : nil }   // nil: not done, call me again
  /// })
  /// ```
  ///
  /// - Parameters:
  ///   - resultBytes: a result's size in bytes, for the cache's limit; `nil` counts it by its type.
  ///   - slices: called on the main thread when the work starts; returns the slice function, which the queue calls
  ///     once per step, with the seconds it may spend, until it returns the value (or throws).
  public static func mainThread(
    resultBytes: (@Sendable (Value) -> Int)? = nil,
    slices:
      @escaping @MainActor @Sendable (_ input: Input) ->
      @MainActor (_ timeRemaining: () -> TimeInterval) throws
      -> Value?
  ) -> Preparation {
    Preparation(.mainThread { MainThreadSlices(slices($0)) }, resultBytes)
  }

  /// This preparation with `identifier` as its identity: preparations with equal identifiers of the same type (and
  /// the same input and value types) share in-flight work and cached results, wherever they were made. For one made
  /// anew where it is used — inline in `cellForRowAt`, a computed property — so that it shares with its prefetch; and
  /// for a factory, whose variants must differ:
  ///
  /// ```swift
  /// func thumbnail(maxPixels: Int) -> Preparation<URL, CGImage> {
  ///   Preparation { (url: URL, _) in try Thumbnails.decode(url, maxPixels: maxPixels) }
  ///     .identified(by: "thumbnail \(maxPixels)")  // 100 and 400 never share; two 400s do
  /// }
  /// ```
  ///
  /// Everything the work depends on besides the input must be in the identifier: two preparations with equal
  /// identifiers are taken to make the same result.
  public func identified(by identifier: some Hashable & Sendable) -> Preparation {
    Preparation(identity: .named(SendableHashable(identifier)), prepare: prepare, resultBytes: resultBytes)
  }

  private init(_ prepare: Work, _ resultBytes: (@Sendable (Value) -> Int)?) {
    self.init(identity: .instance(PreparationIdentity.next()), prepare: prepare, resultBytes: resultBytes)
  }

  private init(identity: PreparationIdentity, prepare: Work, resultBytes: (@Sendable (Value) -> Int)?) {
    self.identity = identity
    self.prepare = prepare
    self.resultBytes = resultBytes
  }

  /// The key tasks and prefetches for `input` share a preparation and a cached result by.
  func key(_ input: Input) -> PreparedContent {
    PreparedContent(
      inputType: ObjectIdentifier(Input.self), valueType: ObjectIdentifier(Value.self), content: AnyHashable(input),
      work: identity)
  }

  /// The work for one input: on a worker, `async` work runs as a detached task (never on the main actor) while the
  /// worker waits for it, so that the pool's bound counts it, and a cancellation of the preparation
  /// (``PreparationCancellation``) cancels the task; main-thread work runs in the queue's passes.
  func work(for input: Input) -> PreparationPlace {
    switch prepare {
    case .synchronous(let prepare):
      return .worker { context in try prepare(input, context.isCancelled) }
    case .asynchronous(let prepare):
      return .worker { context in
        let isCancelled = context.isCancelled
        return try AsyncWork.run(context) { try await prepare(input, isCancelled) }
      }
    case .mainThread(let start):
      return .mainThread { start(input).erased() }
    }
  }
}

/// The slices of one input's main-thread work: each call runs one, given the seconds it may spend, and returns the
/// value when the work is done (`nil` before).
struct MainThreadSlices<Value> {
  let next: @MainActor (_ timeRemaining: () -> TimeInterval) throws -> Value?

  init(_ next: @escaping @MainActor (_ timeRemaining: () -> TimeInterval) throws -> Value?) { self.next = next }
}

extension MainThreadSlices where Value: Sendable {
  /// The slices with the value erased, as a preparation keeps them.
  func erased() -> MainThreadSlices<any Sendable> {
    let next = next
    return MainThreadSlices<any Sendable> { timeRemaining in try next(timeRemaining) }
  }
}

/// Where a preparation's work runs: on a worker, or on the main thread in the queue's passes.
enum PreparationPlace {
  case worker(PreparationWork)
  /// Makes the preparation's slices when it starts.
  case mainThread(@MainActor () -> MainThreadSlices<any Sendable>)
}

/// Which ``Preparation`` made a key: one made by an initializer (its copies share it), or one given an identifier.
enum PreparationIdentity: Hashable, Sendable {
  case instance(UInt64)
  case named(SendableHashable)

  /// Whether the app named it (``Preparation/identified(by:)``).
  var isNamed: Bool {
    if case .named = self { return true }
    return false
  }

  static func next() -> UInt64 { counter.next() }

  private static let counter = Counter()
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

/// A hashable value that may cross threads; values of different types are never equal (`AnyHashable(2)` and
/// `AnyHashable(2.0)` are).
///
/// `@unchecked Sendable`: `AnyHashable` is not `Sendable`, but this one is made only from a `Hashable & Sendable`
/// value (``init(_:)``), and is never changed.
struct SendableHashable: Hashable, @unchecked Sendable {
  let type: ObjectIdentifier
  let value: AnyHashable

  init<Value: Hashable & Sendable>(_ value: Value) {
    type = ObjectIdentifier(Value.self)
    self.value = AnyHashable(value)
  }
}
