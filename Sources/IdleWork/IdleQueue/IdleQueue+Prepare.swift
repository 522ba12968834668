import Foundation

/// Preparing off the main thread: a task whose heavy part runs on a worker and whose result is applied in an
/// idle pass.
extension IdleQueue {
  /// Queues a task in two parts: `prepare` runs off the main thread on one of the queue's workers
  /// (``Configuration/workers``) and returns a value; `apply` puts it in place on the main thread in a later
  /// pass, under the same rules as every task (budget, frame deadline, order, capacity, accounting).
  ///
  /// Use it for work that is safe off the main thread — Core Graphics bitmap contexts,
  /// `UIGraphicsImageRenderer`, ImageIO decoding, Core Text layout — whose result a view shows; keep the
  /// view itself in `apply`. Work that must touch UIKit stays in a main-thread task
  /// (``addTask(key:discardable:replacesPending:estimatedCost:_:)``). See <doc:PreparingOffTheMainThread>.
  ///
  /// ```swift
  /// queue.addTask(key: url, content: url) { isCancelled in
  ///   try decodeThumbnail(at: url)          // off the main thread
  /// } apply: { image in
  ///   headerView.image = image              // on the main thread, in an idle pass
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - key: groups tasks for ``cancelTasks(forKey:)``.
  ///   - content: what the result depends on (a URL and a size, a model's identifier and version). Tasks for
  ///     the same content (and the same `Value` type) while one is being prepared share that preparation;
  ///     with a ``Configuration/resultCacheLimit`` the result is kept, and a later task for the same content
  ///     applies at once, inside this call. Leave the argument out to share nothing and cache nothing
  ///     (`content: nil` does not compile: its type cannot be inferred).
  ///   - discardable: whether it may be dropped when memory is short; its preparation starts after those of
  ///     tasks that are not discardable and after prefetches, and when the queue is full it is evicted
  ///     before the tasks that are not discardable (after stale tasks and those of cells off screen; see
  ///     ``IdleQueue/maximumQueueLength``): a prefetch never evicts a visible row's task, which would leave
  ///     the row blank. Added to a queue full of tasks that are not discardable, it evicts itself.
  ///   - estimatedCost: seconds you expect `apply` to take on the main thread; `nil` predicts it from the
  ///     applies measured so far. Finite and `>= 0`.
  ///   - resultBytes: the size of a result in bytes, for the cache's limit. `nil` counts by the type of
  ///     `Value`: a `CGImage`'s `bytesPerRow × height`; a `UIImage`'s `CGImage` the same way (an animated one's
  ///     frames, summed; one without a `CGImage`, its size × `scale`² × 4 bytes); an `NSImage`'s
  ///     representations, 4 bytes a pixel (one without pixels, its size in points × 4); a `Data`'s `count`; a
  ///     `String`'s UTF-8 bytes; any other type, its inline size, `MemoryLayout<Value>.size` (at least 1) — for
  ///     a class or a struct holding an image, its references only. Give it for such a type of your own (and
  ///     for `UIImage?`), or its results count a few bytes and the cache holds far more than its limit. Tasks
  ///     that share a preparation (the same `content`) share its result, which counts the largest size any of
  ///     them reports (a task without `resultBytes` reporting the default), whichever came first: a prefetch
  ///     without it does not make a cell task's large result count a few bytes. Called on the main thread when
  ///     the result is cached, and on the worker that made it, to count the results waiting for a pass (with a
  ///     result cache only: ``IdleQueue/Configuration/resultCacheLimit`` above 0).
  ///   - prepare: the work, on a worker thread. `isCancelled()` turns `true` once no task waits for the
  ///     result any more (cancelled, evicted, its cell configured again or released, the queue ended); poll it
  ///     between steps and throw
  ///     (`CancellationError()`) to stop early. An error thrown while a task waits counts it as failed;
  ///     `apply` is not called.
  ///   - apply: puts the value in place, on the main thread.
  /// - Returns: a handle to cancel this task; not pending when the result was applied from the cache.
  @discardableResult
  public func addTask<Value: Sendable>(
    key: some Hashable, content: (some Hashable & Sendable)? = Int?.none, discardable: Bool = false,
    estimatedCost: TimeInterval? = nil, resultBytes: (@Sendable (Value) -> Int)? = nil,
    prepare: @escaping @Sendable (_ isCancelled: @Sendable () -> Bool) throws -> Value,
    apply: @escaping @MainActor (Value) -> Void
  ) -> IdleTaskHandle {
    core.addPreparedTask(
      key: TaskKey(key), record: nil, content: content.map { Self.contentKey($0, of: Value.self) },
      discardable: discardable,
      estimatedCost: estimatedCost, resultBytes: Self.sizing(resultBytes, hasContent: content != nil),
      prepare: Self.erased(prepare),
      apply: { _, value in apply(value as! Value) })
  }

  /// Queues a task in two parts for `cell` at `item`: `prepare` runs off the main thread, `apply` puts its
  /// value into the cell in a later pass — only while the cell still shows this configuration of `item`,
  /// as ``addTask(for:at:key:discardable:estimatedCost:_:)``. A result for a cell configured again or
  /// released is never applied.
  ///
  /// ```swift
  /// queue.bind(cell, to: item)
  /// queue.addTask(for: cell, at: item, content: photo.id) { isCancelled in
  ///   renderThumbnail(of: photo)            // off the main thread
  /// } apply: { cell, image in
  ///   cell.photoView.image = image          // on the main thread, in an idle pass
  /// }
  /// ```
  ///
  /// Staleness is checked at every step: a new configuration of the cell, or the cell leaving the screen,
  /// removes a preparation not started (one whose cell is off screen waits, and starts if the cell comes back);
  /// `isCancelled()` tells a running one that no task waits for it; the result is checked when it arrives
  /// and again before `apply`. Preparations of cells on screen start before prefetches (`discardable`).
  ///
  /// - Parameters:
  ///   - cell: the cell `apply` fills.
  ///   - item: what the cell shows (see ``bind(_:to:)``).
  ///   - key: groups tasks for ``cancelTasks(forKey:)``; `nil` (default) uses `item`.
  ///   - content: as in ``addTask(key:content:discardable:estimatedCost:resultBytes:prepare:apply:)``. With a
  ///     cache, a result kept for `content` applies at once, inside this call (inside `cellForRowAt`: no blank
  ///     frame).
  ///   - discardable: as in ``addTask(key:content:discardable:estimatedCost:resultBytes:prepare:apply:)``.
  ///   - estimatedCost: as in ``addTask(key:content:discardable:estimatedCost:resultBytes:prepare:apply:)``.
  ///   - resultBytes: as in ``addTask(key:content:discardable:estimatedCost:resultBytes:prepare:apply:)``.
  ///   - prepare: as in ``addTask(key:content:discardable:estimatedCost:resultBytes:prepare:apply:)``.
  ///   - apply: puts the value into the cell, on the main thread.
  @discardableResult
  public func addTask<Cell: AnyObject, Value: Sendable>(
    for cell: Cell, at item: some Hashable, key: (some Hashable)? = Int?.none,
    content: (some Hashable & Sendable)? = Int?.none, discardable: Bool = false, estimatedCost: TimeInterval? = nil,
    resultBytes: (@Sendable (Value) -> Int)? = nil,
    prepare: @escaping @Sendable (_ isCancelled: @Sendable () -> Bool) throws -> Value,
    apply: @escaping @MainActor (Cell, Value) -> Void
  ) -> IdleTaskHandle {
    let record = core.cells.configuration(of: cell, for: item)
    return core.addPreparedTask(
      key: key.map { TaskKey($0) } ?? record.item, record: record,
      content: content.map { Self.contentKey($0, of: Value.self) },
      discardable: discardable, estimatedCost: estimatedCost,
      resultBytes: Self.sizing(resultBytes, hasContent: content != nil), prepare: Self.erased(prepare),
      apply: { cell, value in
        // The pass hands over the task's own cell, alive and still in this configuration.
        if let cell = cell as? Cell { apply(cell, value as! Value) }
      })
  }

  /// What tasks share a render and a cached result by: their content and the type of their value, so that
  /// equal content prepared as different types (an image and its colours for one photo) is never handed to
  /// an `apply` that expects the other.
  private nonisolated static func contentKey<Value>(_ content: some Hashable, of _: Value.Type) -> PreparedContent {
    PreparedContent(valueType: ObjectIdentifier(Value.self), content: AnyHashable(content))
  }

  private nonisolated static func erased<Value: Sendable>(
    _ prepare: @escaping @Sendable (_ isCancelled: @Sendable () -> Bool) throws -> Value
  ) -> RenderWork {
    { context in try prepare(context.isCancelled) }
  }

  /// How the cache sizes this task's result: `resultBytes`, or the default for `Value` (`ResultSize`), chosen
  /// here where `Value` is known — erased to `any Sendable`, a value's own size is lost. Nothing for a task
  /// without content: its result is never kept.
  nonisolated static func sizing<Value: Sendable>(
    _ resultBytes: (@Sendable (Value) -> Int)?, hasContent: Bool
  ) -> (@Sendable (any Sendable) -> Int)? {
    guard hasContent else { return nil }
    guard let resultBytes else { return ResultSize.counting(Value.self) }
    let erased: @Sendable (any Sendable) -> Int = { value in resultBytes(value as! Value) }
    return erased
  }
}
