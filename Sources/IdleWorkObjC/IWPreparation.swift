#if canImport(ObjectiveC)
  import Foundation
  import IdleWork
  import IdleWorkPreparation

  /// How a result is made from an input (`Preparation`), said once and shared by cell tasks, keyed tasks and
  /// prefetches, so that equal inputs share one preparation and one cached result. Make each one once (a property).
  ///
  /// Inputs are copied (`-copy`) and compared with `isEqual:`: `NSURL`, `NSString`, `NSNumber` and other immutable
  /// values. The initializers' prepare block runs on worker threads, never the main thread, so it must be
  /// thread-safe; `+mainThreadPreparationWithResultBytes:prepare:` makes one for code that is not.
  @objc(IWPreparation)
  public final class IWPreparation: NSObject, Sendable {
    typealias Value = UncheckedSendable<AnyObject>

    let preparation: Preparation<ObjectInput, Value>

    /// Creates a preparation whose results count as one reference each against `resultCacheLimit`: use
    /// `-initWithResultBytes:prepare:` for images and other large results.
    ///
    /// - Parameter prepare: makes the result from `input` on a worker thread, or returns `nil` when it cannot
    ///   (counted as failed; no apply). `isCancelled()` turns `YES` once nothing waits for the result: call it
    ///   between steps, only during the block, and return `nil` to stop.
    @objc public convenience init(
      prepare: @escaping (_ input: AnyObject, _ isCancelled: @escaping () -> Bool) -> AnyObject?
    ) {
      self.init(resultBytes: nil, prepare: prepare)
    }

    /// Creates a preparation whose results count `resultBytes(result)` bytes against the queue's
    /// `resultCacheLimit` (for an image: its bitmap's bytes). `resultBytes` is called on any thread.
    @objc public init(
      resultBytes: ((_ result: AnyObject) -> Int)?,
      prepare: @escaping (_ input: AnyObject, _ isCancelled: @escaping () -> Bool) -> AnyObject?
    ) {
      let prepare = UncheckedSendable(prepare)
      preparation = Preparation(resultBytes: Self.sizing(resultBytes)) { input, isCancelled in
        let result = withoutActuallyEscaping(isCancelled) { prepare.value(input.object, $0) }
        guard let result else { throw NoResult() }
        return UncheckedSendable(result)
      }
      super.init()
    }

    /// Makes a preparation whose prepare block runs on the main thread, in the queue's passes, for drawing code
    /// that is not thread-safe: a row's result is made like any task, between frames; a prefetch's only in time no
    /// visible row's task wants, nearest first. Results are cached and shared as a worker preparation's.
    ///
    /// - Parameters:
    ///   - resultBytes: a result's size in bytes, for `resultCacheLimit`; `nil` counts one reference.
    ///   - prepare: makes the result from `input` on the main thread, or returns `nil` when it cannot (counted
    ///     as failed; no apply).
    @objc(mainThreadPreparationWithResultBytes:prepare:)
    public static func mainThread(
      resultBytes: ((_ result: AnyObject) -> Int)?, prepare: @escaping (_ input: AnyObject) -> AnyObject?
    ) -> IWPreparation {
      let prepare = UncheckedSendable(prepare)
      let made = Preparation<ObjectInput, Value>.mainThread(resultBytes: sizing(resultBytes)) { input in
        guard let result = prepare.value(input.object) else { throw NoResult() }
        return UncheckedSendable(result)
      }
      return IWPreparation(made)
    }

    private init(_ preparation: Preparation<ObjectInput, Value>) {
      self.preparation = preparation
      super.init()
    }

    /// The caller's size block, as the Swift API takes it.
    private static func sizing(_ resultBytes: ((_ result: AnyObject) -> Int)?) -> (@Sendable (Value) -> Int)? {
      resultBytes.map { resultBytes in
        let resultBytes = UncheckedSendable(resultBytes)
        return { @Sendable (value: Value) in resultBytes.value(value.value) }
      }
    }

    /// The error a preparation that returned `nil` throws, so that the queue counts it failed.
    struct NoResult: Error {}
  }

  /// A preparation's input: a copy of the caller's object. `@unchecked Sendable`: a copy of an `NSCopying` value is
  /// immutable (the caller promises its class makes it so, as `NSString` and `NSURL` do), read on the workers only.
  struct ObjectInput: Hashable, @unchecked Sendable {
    let object: NSObject

    init(_ input: NSObject & NSCopying) {
      object = input.copy() as! NSObject
    }
  }

  /// A queue's preparer (`Preparer`): prepares results on workers, keeps them in a cache by their input, prefetches
  /// rows about to appear, and applies each result in the queue's passes. Every preparer of one queue shares its
  /// workers and cache. Use it on the main thread.
  @objc(IWPreparer)
  @MainActor
  public final class IWPreparer: NSObject {
    /// The preparer this one forwards to.
    let preparer: Preparer

    /// The preparer of `queue`, with the default workers and a 32 MB result cache.
    @objc public convenience init(queue: IWIdleQueue) {
      self.init(queue: queue, workers: Preparer.Configuration().workers, resultCacheLimit: 32 << 20)
    }

    /// The preparer of `queue`, with `workers` preparations at once (`1...NSIntegerMax`) and `resultCacheLimit`
    /// bytes of results kept (`0...NSIntegerMax`). A queue's preparers must agree on both.
    @objc public init(queue: IWIdleQueue, workers: Int, resultCacheLimit: Int) {
      preparer = Preparer(
        queue: queue.queue, configuration: Preparer.Configuration(workers: workers, resultCacheLimit: resultCacheLimit))
      super.init()
    }

    /// What preparation did so far, beside the queue's statistics.
    @objc public var statistics: IWPreparerStatistics { IWPreparerStatistics(preparer.statistics) }

    /// Queues a task that prepares a result from `input` on a worker with `preparation`, then calls `apply` with
    /// the cell and the result on the main thread while the cell still shows `indexPath` (its key). A result
    /// already kept for `input` applies at once, inside this call.
    @objc(addTaskForCell:atIndexPath:preparation:input:apply:)
    @discardableResult
    public func addTask(
      for cell: AnyObject, at indexPath: IndexPath, preparation: IWPreparation, input: NSObject & NSCopying,
      apply: @escaping (_ cell: AnyObject, _ result: AnyObject) -> Void
    ) -> IWTaskHandle {
      IWTaskHandle(
        preparer.addTask(for: cell, at: indexPath, prepare: preparation.preparation, from: ObjectInput(input)) {
          cell, result in apply(cell, result.value)
        })
    }

    /// Queues a task that prepares a result from `input` on a worker with `preparation`, then calls `apply` with
    /// it on the main thread; `key` groups tasks for `-cancelTasksForKey:`.
    @objc(addTaskWithKey:preparation:input:apply:)
    @discardableResult
    public func addTask(
      key: NSObject, preparation: IWPreparation, input: NSObject & NSCopying,
      apply: @escaping (_ result: AnyObject) -> Void
    ) -> IWTaskHandle {
      IWTaskHandle(
        preparer.addTask(key: objCKey(key), prepare: preparation.preparation, from: ObjectInput(input)) { result in
          apply(result.value)
        })
    }

    /// Starts preparing results for rows about to appear, the nearest first (from
    /// `-tableView:prefetchRowsAtIndexPaths:`), into the result cache.
    @objc(prefetch:fromInputs:)
    public func prefetch(_ preparation: IWPreparation, from inputs: [NSObject & NSCopying]) {
      preparer.prefetch(preparation.preparation, from: inputs.map(ObjectInput.init))
    }

    /// Prefetches the rows where a fling will stop (from `-scrollViewWillEndDragging:withVelocity:
    /// targetContentOffset:`) before every prefetch asked for so far, the nearest first.
    @objc(prefetchFirst:fromInputs:)
    public func prefetchFirst(_ preparation: IWPreparation, from inputs: [NSObject & NSCopying]) {
      preparer.prefetch(preparation.preparation, from: inputs.map(ObjectInput.init), first: true)
    }

    /// Stops prefetching results from `inputs` (from `-tableView:cancelPrefetchingForRowsAtIndexPaths:`).
    @objc(cancelPrefetching:fromInputs:)
    public func cancelPrefetching(_ preparation: IWPreparation, from inputs: [NSObject & NSCopying]) {
      preparer.cancelPrefetching(preparation.preparation, from: inputs.map(ObjectInput.init))
    }
  }

  /// What a preparer did so far (`Preparer.Statistics`), beside its queue's statistics.
  @objc(IWPreparerStatistics)
  public final class IWPreparerStatistics: NSObject {
    /// Prepared tasks whose preparation failed (returned `nil`): cancelled in the queue's statistics.
    @objc public let failed: Int
    /// Prepared tasks applied at once from the result cache, never queued.
    @objc public let cacheHits: Int
    /// Preparations that finished but whose result nothing applied.
    @objc public let wastedPreparations: Int
    /// Prefetches still pending.
    @objc public let prefetchesPending: Int

    init(_ statistics: Preparer.Statistics) {
      failed = statistics.failed
      cacheHits = statistics.cacheHits
      wastedPreparations = statistics.wastedPreparations
      prefetchesPending = statistics.prefetchesPending
      super.init()
    }
  }
#endif
