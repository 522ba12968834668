import Foundation
import IdleWork

/// Prepares results off the main thread for one queue's tasks, keeps them in a cache by their input, prefetches the
/// rows about to appear, and applies each result in the queue's passes while its cell still shows the row.
///
/// ```swift
/// let queue = IdleQueue(configuration: .scrollingFeed())
/// let preparer = Preparer(queue: queue)
///
/// preparer.addTask(for: cell, at: indexPath, prepare: thumbnail, from: photo.url) { cell, image in
///   cell.photoView.image = image
/// }
/// preparer.prefetch(thumbnail, from: indexPaths.map { photos[$0.row].url })
/// ```
///
/// A queue has one preparation half — its workers' share, its result cache, its prefetches — made by the first
/// `Preparer` for it: every `Preparer` made for the same queue (two screens on `IdleQueue.main`) shares it, and so
/// must be made with the same ``Configuration-swift.struct``. It lives as long as its queue, whether or not a
/// `Preparer` is kept. A prepared task is a task of the queue: it keeps its place, counts once in the queue's
/// statistics, and goes stale, evicted or cancelled as any task; what only preparation does is counted in
/// ``statistics``.
///
/// Use it on the main thread.
@MainActor
public final class Preparer {
  /// The queue whose passes apply the results.
  public nonisolated let queue: IdleQueue
  let half: QueuePreparation

  /// The preparation half of `queue`: made with `configuration`, or the one an earlier `Preparer` made for it.
  ///
  /// - Parameters:
  ///   - queue: the queue whose tasks apply the results.
  ///   - configuration: the workers and the result cache; a queue's preparers must agree on it (a different one
  ///     stops the program with a message).
  public init(queue: IdleQueue, configuration: Configuration = Configuration()) {
    self.queue = queue
    half = QueuePreparation.of(queue.core, configuration: configuration)
  }

  /// What preparation did for this queue: failures, cache hits, work wasted or done twice, and how prefetches ended.
  public var statistics: Statistics { half.statistics }

  /// Queues a task that prepares a result from `input` off the main thread with `preparation`, then applies it to
  /// `cell` in a pass, while the cell still shows this configuration of `item`.
  ///
  /// A result already kept for `input` (prefetched, or shown before) applies at once, inside this call — inside
  /// `cellForRowAt`, so the row shows it in its first frame; one being prepared (a prefetch under way) is joined.
  ///
  /// ```swift
  /// queue.bind(cell, to: indexPath)
  /// preparer.addTask(for: cell, at: indexPath, prepare: thumbnail, from: photo.url) { cell, image in
  ///   cell.photoView.image = image
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - cell: the cell `apply` fills.
  ///   - item: what the cell shows (see `IdleQueue.bind(_:to:)`).
  ///   - key: groups tasks for `IdleQueue.cancelTasks(forKey:)`; `nil` (default) uses `item`.
  ///   - preparation: how the result is made.
  ///   - input: what it is made from. Tasks and prefetches with equal input and the same `preparation` share
  ///     one preparation and one cached result.
  ///   - droppable: as in `IdleQueue.addTask(key:droppable:replacesPending:estimatedCost:_:)`.
  ///   - estimatedCost: seconds the apply takes, if you know better than the queue's prediction.
  ///   - apply: puts the result into the cell, on the main thread.
  @discardableResult
  public func addTask<Cell: AnyObject, Input, Value>(
    for cell: Cell, at item: some Hashable, key: AnyHashable? = nil,
    prepare preparation: Preparation<Input, Value>, from input: Input, droppable: Bool = false,
    estimatedCost: TimeInterval? = nil, apply: @escaping @MainActor (Cell, Value) -> Void
  ) -> IdleTaskHandle {
    addTask(
      for: cell, at: item, key: key, content: preparation.key(input), droppable: droppable,
      estimatedCost: estimatedCost, resultBytes: Self.sizing(preparation.resultBytes, hasContent: true),
      prepare: preparation.work(for: input), apply: { cell, value in apply(cell, value as! Value) })
  }

  /// Queues a task that prepares a result from `input` with `preparation` and applies it in a pass: the form
  /// without a cell, for a header, a background image or a model object.
  ///
  /// - Parameters:
  ///   - key: groups tasks for `IdleQueue.cancelTasks(forKey:)`.
  ///   - preparation: how the result is made.
  ///   - input: what it is made from; shared with every task and prefetch for equal input.
  ///   - droppable: as in `IdleQueue.addTask(key:droppable:replacesPending:estimatedCost:_:)`.
  ///   - estimatedCost: seconds the apply takes, if you know better than the queue's prediction.
  ///   - apply: puts the result in place, on the main thread.
  @discardableResult
  public func addTask<Input, Value>(
    key: some Hashable, prepare preparation: Preparation<Input, Value>, from input: Input, droppable: Bool = false,
    estimatedCost: TimeInterval? = nil, apply: @escaping @MainActor (Value) -> Void
  ) -> IdleTaskHandle {
    addTask(
      key: key, content: preparation.key(input), droppable: droppable, estimatedCost: estimatedCost,
      resultBytes: Self.sizing(preparation.resultBytes, hasContent: true), prepare: preparation.work(for: input),
      apply: { value in apply(value as! Value) })
  }

  /// Starts preparing results for rows about to appear, from `inputs`, the nearest first — what
  /// `tableView(_:prefetchRowsAt:)` and `collectionView(_:prefetchItemsAt:)` hand you, in their order — so that each
  /// row's `cellForRowAt` finds its result kept (or joins its preparation) and shows it in its first frame.
  ///
  /// ```swift
  /// func tableView(_ tableView: UITableView, prefetchRowsAt indexPaths: [IndexPath]) {
  ///   preparer.prefetch(thumbnail, from: indexPaths.map { photos[$0.row].url })
  /// }
  /// ```
  ///
  /// A prefetch is not a task: it never evicts, delays or starves a visible row's work. A worker preparation's
  /// prefetch runs after every queue's visible rows, beneath them (the `utility` QoS); a main-thread preparation's
  /// runs in the time a pass has left once no visible row wants it, and during a frame only if its measured cost fits
  /// before the frame's deadline. Results go to the result cache (``Configuration-swift.struct/resultCacheLimit``). The rows
  /// about to appear win: nearest first within a call, an older call's rows before a newer one's, the rows of calls
  /// passed (a newer call's row was shown first) and cancelled ones last — in which prefetch starts, which are kept
  /// past `maximumQueueLength`, and which results stay in the cache. A prefetch whose result has no room beside
  /// those waits, counted pending, until rows shown free room.
  ///
  /// Where a fling will stop is known before it gets there: prefetch those rows `first`.
  ///
  /// ```swift
  /// func scrollViewWillEndDragging(
  ///   _ scrollView: UIScrollView, withVelocity velocity: CGPoint,
  ///   targetContentOffset: UnsafeMutablePointer<CGPoint>
  /// ) {
  ///   let landing = CGRect(origin: targetContentOffset.pointee, size: scrollView.bounds.size)
  ///   let rows = tableView.indexPathsForRows(in: landing) ?? []
  ///   preparer.prefetch(thumbnail, from: rows.map { photos[$0.row].url }, first: true)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - preparation: how the results are made (the same value the rows' tasks use).
  ///   - inputs: what they are made from, the nearest row first.
  ///   - first: whether these go before every prefetch asked for so far (the landing rows of a fling); a later call
  ///     with `first` goes before this one. `false` (default): after them.
  public func prefetch<Input, Value>(
    _ preparation: Preparation<Input, Value>, from inputs: some Sequence<Input>, first: Bool = false
  ) {
    half.prefetch(
      inputs.map { (preparation.key($0), preparation.work(for: $0)) },
      sizing: Self.sizing(preparation.resultBytes, hasContent: true), first: first)
  }

  /// Stops prefetching results from `inputs` — what `tableView(_:cancelPrefetchingForRowsAt:)` and
  /// `collectionView(_:cancelPrefetchingForItemsAt:)` hand you: a preparation not started is dropped, one running is
  /// told it is cancelled — unless a row's task now waits for it. Results that finished stay kept, as the first to go.
  ///
  /// - Parameters:
  ///   - preparation: the preparation they were prefetched with.
  ///   - inputs: what the rows no longer about to appear are made from.
  public func cancelPrefetching<Input, Value>(
    _ preparation: Preparation<Input, Value>, from inputs: some Sequence<Input>
  ) {
    half.cancelPrefetching(inputs.map { preparation.key($0) })
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

  /// What the cell form of `addTask` does once the preparation is erased: `content` (`nil`: shared with nothing,
  /// kept nowhere) and `prepare` say what is made, `resultBytes` how it is sized.
  func addTask<Cell: AnyObject>(
    for cell: Cell, at item: some Hashable, key: AnyHashable?, content: PreparedContent?, droppable: Bool,
    estimatedCost: TimeInterval?, resultBytes: (@Sendable (any Sendable) -> Int)?, prepare: PreparationPlace,
    apply: @escaping @MainActor (Cell, any Sendable) -> Void
  ) -> IdleTaskHandle {
    Self.check(estimatedCost)
    if let value = half.cachedResult(for: content) {
      queue.core.cell(cell, shows: item)  // its tasks for another item are stale
      apply(cell, value)
      return IdleTaskHandle(queue: nil, seq: 0)
    }
    let request = half.makeRequest(
      content: content, cell: cell, discardable: droppable, prepare: prepare,
      apply: { cell, value in
        if let cell = cell as? Cell { apply(cell, value) }
      })
    let task = queue.addLaterTask(
      for: cell, at: item, key: key, droppable: droppable, estimatedCost: estimatedCost,
      onDisplayChange: { [weak request] isDisplayed in request?.setWanted(isDisplayed) },
      onAbandon: { [weak request] in
        if let request { request.client.abandoned(request) }
      })
    request.handOver = { request in task.fulfill { cell in request.client.ran(request, cell: cell) } }
    request.cancelTask = { task.handle.cancel() }
    half.start(request, resultBytes: resultBytes)
    return task.handle
  }

  /// What the form of `addTask` without a cell does once the preparation is erased.
  func addTask(
    key: some Hashable, content: PreparedContent?, droppable: Bool, estimatedCost: TimeInterval?,
    resultBytes: (@Sendable (any Sendable) -> Int)?, prepare: PreparationPlace,
    apply: @escaping @MainActor (any Sendable) -> Void
  ) -> IdleTaskHandle {
    Self.check(estimatedCost)
    if let value = half.cachedResult(for: content) {
      apply(value)
      return IdleTaskHandle(queue: nil, seq: 0)
    }
    let request = half.makeRequest(
      content: content, cell: nil, discardable: droppable, prepare: prepare, apply: { _, value in apply(value) })
    let task = queue.addLaterTask(
      key: key, droppable: droppable, estimatedCost: estimatedCost,
      onAbandon: { [weak request] in
        if let request { request.client.abandoned(request) }
      })
    request.handOver = { request in task.fulfill { _ in request.client.ran(request, cell: nil) } }
    request.cancelTask = { task.handle.cancel() }
    half.start(request, resultBytes: resultBytes)
    return task.handle
  }

  /// Stops the program on a bad `estimatedCost`, as the queue would, also when a cache hit never queues the task.
  nonisolated static func check(_ estimatedCost: TimeInterval?) {
    guard let cost = estimatedCost, !(cost.isFinite && cost >= 0) else { return }
    fatalError("IdleWork: estimatedCost \(cost) is invalid: it must be finite and >= 0 (seconds), or nil")
  }
}
