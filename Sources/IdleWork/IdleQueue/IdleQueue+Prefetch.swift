import Foundation

/// A ``Preparation`` used by a cell's task, by a plain task and by prefetches: the work said once.
extension IdleQueue {
  /// Queues a task that shows `content`, prepared by `preparation`, in `cell` at `item`: as
  /// ``addTask(for:at:key:content:discardable:estimatedCost:resultBytes:prepare:apply:)``, with the work said
  /// once. Content already prepared (a prefetch finished, the row shown before) applies at once, inside this
  /// call — inside `cellForRowAt`, so the row shows it in its first frame; content being prepared (a prefetch
  /// under way) is joined, and its preparation becomes this visible row's work.
  ///
  /// ```swift
  /// queue.bind(cell, to: indexPath)
  /// queue.addTask(for: cell, at: indexPath, preparing: photo, with: thumbnail) { cell, image in
  ///   cell.photoView.image = image
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - cell: the cell `apply` fills.
  ///   - item: what the cell shows (see ``bind(_:to:)``).
  ///   - key: groups tasks for ``cancelTasks(forKey:)``; `nil` (default) uses `item`.
  ///   - content: what the result is made from (a photo, its URL and size); tasks and prefetches for equal
  ///     content with the same `preparation` share one preparation and one cached result.
  ///   - preparation: how the result is made, off the main thread.
  ///   - discardable: as in ``addTask(key:content:discardable:estimatedCost:resultBytes:prepare:apply:)``.
  ///   - estimatedCost: as in ``addTask(key:content:discardable:estimatedCost:resultBytes:prepare:apply:)``.
  ///   - apply: puts the value into the cell, on the main thread.
  @discardableResult
  public func addTask<Cell: AnyObject, Content, Value>(
    for cell: Cell, at item: some Hashable, key: (some Hashable)? = Int?.none, preparing content: Content,
    with preparation: Preparation<Content, Value>, discardable: Bool = false, estimatedCost: TimeInterval? = nil,
    apply: @escaping @MainActor (Cell, Value) -> Void
  ) -> IdleTaskHandle {
    let record = core.cells.configuration(of: cell, for: item)
    return core.addPreparedTask(
      key: key.map { TaskKey($0) } ?? record.item, record: record, content: preparation.key(content),
      discardable: discardable, estimatedCost: estimatedCost,
      resultBytes: Self.sizing(preparation.resultBytes, hasContent: true), prepare: preparation.work(for: content),
      apply: { cell, value in
        if let cell = cell as? Cell { apply(cell, value as! Value) }
      })
  }

  /// Queues a task that puts `content`, prepared by `preparation`, in place — as
  /// ``addTask(key:content:discardable:estimatedCost:resultBytes:prepare:apply:)``, with the work said once.
  ///
  /// - Parameters:
  ///   - key: groups tasks for ``cancelTasks(forKey:)``.
  ///   - content: what the result is made from; shared with every task and prefetch for equal content.
  ///   - preparation: how the result is made, off the main thread.
  ///   - discardable: as in ``addTask(key:content:discardable:estimatedCost:resultBytes:prepare:apply:)``.
  ///   - estimatedCost: as in ``addTask(key:content:discardable:estimatedCost:resultBytes:prepare:apply:)``.
  ///   - apply: puts the value in place, on the main thread.
  @discardableResult
  public func addTask<Content, Value>(
    key: some Hashable, preparing content: Content, with preparation: Preparation<Content, Value>,
    discardable: Bool = false, estimatedCost: TimeInterval? = nil, apply: @escaping @MainActor (Value) -> Void
  ) -> IdleTaskHandle {
    core.addPreparedTask(
      key: TaskKey(key), record: nil, content: preparation.key(content), discardable: discardable,
      estimatedCost: estimatedCost, resultBytes: Self.sizing(preparation.resultBytes, hasContent: true),
      prepare: preparation.work(for: content), apply: { _, value in apply(value as! Value) })
  }

  /// Starts preparing `contents` for rows about to appear, the nearest first — what
  /// `tableView(_:prefetchRowsAt:)` and `collectionView(_:prefetchItemsAt:)` hand you, in their order — so that
  /// each row's `cellForRowAt` finds its result in the cache (or joins its preparation) and shows it in its
  /// first frame.
  ///
  /// ```swift
  /// func tableView(_ tableView: UITableView, prefetchRowsAt indexPaths: [IndexPath]) {
  ///   queue.prefetch(indexPaths.map { photos[$0.row] }, with: thumbnail)
  /// }
  /// ```
  ///
  /// A prefetch is not a task: it never evicts, delays or starves a visible row's work. The workers prepare
  /// visible rows first, of every queue; then prefetches, nearest first: in the order they were asked for, over
  /// every call and every queue (within each queue's share of the workers), as UIKit hands the nearest rows first
  /// and the farther ones in later calls; then discardable tasks. A prefetch cancelled and asked for again takes
  /// its turn anew. They use every worker, except that during a scroll in which a visible row found no worker
  /// free they leave one free, so that the next visible row starts at once and the main thread keeps a core. A
  /// worker runs a prefetch (and a discardable task's preparation) at the `utility` QoS, beneath the main thread and
  /// visible rows' preparations, until a visible row's task joins it and it next polls `isCancelled()`.
  /// Content already kept in the cache, or prefetched already, is not prepared again (a prefetch asked again
  /// while pending keeps its place); a result kept already becomes the most recently used, the nearest row's
  /// last, so the cache keeps the rows about to appear over the rows scrolled past. The results go to the cache
  /// (``Configuration/resultCacheLimit`` must be above 0: a queue without a cache stops the program with a message
  /// saying so). More prefetches pending than ``maximumQueueLength``: the oldest go.
  ///
  /// - Parameters:
  ///   - contents: what the rows about to appear show, the nearest first.
  ///   - preparation: how their results are made (the same value their cells' tasks use).
  public func prefetch<Content, Value>(
    _ contents: some Sequence<Content>, with preparation: Preparation<Content, Value>
  ) {
    core.prefetch(
      contents.map { (preparation.key($0), preparation.work(for: $0)) },
      sizing: Self.sizing(preparation.resultBytes, hasContent: true))
  }

  /// Stops prefetching `contents` — what `tableView(_:cancelPrefetchingForRowsAt:)` and
  /// `collectionView(_:cancelPrefetchingForItemsAt:)` hand you: a preparation not started is dropped, one running
  /// is told it is cancelled (`isCancelled()`, and task cancellation for `async` work) — unless a cell's task
  /// now waits for it, and then it goes on as that task's. Results that finished stay in the cache.
  ///
  /// - Parameters:
  ///   - contents: what the rows no longer about to appear show.
  ///   - preparation: the preparation they were prefetched with.
  public func cancelPrefetching<Content, Value>(
    _ contents: some Sequence<Content>, with preparation: Preparation<Content, Value>
  ) {
    core.cancelPrefetching(contents.map { preparation.key($0) })
  }
}
