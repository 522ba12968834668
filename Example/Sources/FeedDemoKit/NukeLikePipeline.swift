import Dispatch
import Foundation

/// Nuke's `ImagePipeline` with its `ImagePrefetcher` (kean/Nuke `Sources/Nuke/Pipeline/ImagePipeline.swift`,
/// `Tasks/AsyncTask.swift`, `Tasks/TaskLoadImage.swift`, `Caching/Cache.swift`, `Prefetching/ImagePrefetcher.swift`,
/// `Internal/TaskQueue.swift`), written fresh for this benchmark, for images that are drawn rather than downloaded:
///
/// - a memory cache (``NukeMemoryCache``) read first: a request whose image is cached completes at once;
/// - coalescing: requests for the same image share one task (`TaskPool`); the task runs at the highest of its
///   subscribers' priorities, and is cancelled when its last subscriber leaves (`AsyncTask.unsubscribe`);
/// - the draw is the pipeline's processing stage (a processor such as `ImageProcessors.RoundedCorners` is what it
///   does), on a ``NukeTaskQueue`` of ``Configuration/processingConcurrency`` slots; a draw starts at its task's
///   priority's QoS (``NukePriority/qos``), and a cancelled one stops at its next pass;
/// - a finished draw is stored in the memory cache, then its display subscribers' completions run together in
///   one `DispatchQueue.main.async` block (Nuke calls each `ImageTask`'s completion on the main queue);
/// - the prefetcher: its own ``NukeTaskQueue`` of ``Configuration/prefetchConcurrency`` slots, each prefetch a
///   request at ``Configuration/prefetchPriority`` that holds its slot until the pipeline's task for it
///   completes; a request whose image is cached, or which is already prefetching, is skipped; stopping a prefetch
///   unsubscribes it from its task (cancelling the task if no display request shares it) and frees its slot.
///
/// Nuke serialises all this on its `ImagePipelineActor`, off the main thread; here one lock does, so that a worker
/// that finishes a draw starts the next queued one itself, without waiting for the main thread. The ledger counts
/// one job per task: started when the task is created, ended when its draw is cancelled before it started, when
/// a cancelled draw stops, or when the task's result was handed over (on the main queue after its display
/// completions; on the worker when only prefetches wanted it).
final class NukeLikePipeline: @unchecked Sendable {
  // @unchecked Sendable: every `var` is read and written only while holding `lock` (Nuke's `ImagePipelineActor`);
  // the `let`s are Sendable values or closures.

  /// The pipeline's and the prefetcher's settings (Nuke's `ImagePipeline.Configuration` and `ImagePrefetcher`'s).
  struct Configuration: Sendable {
    /// `ImageCache.costLimit` in bytes. Nuke's default is 15% of physical memory, capped at 768 MB; here it is
    /// 32 MB, what every strategy that keeps results keeps (IdleWork's `.scrollingFeed()`, `workItemPrefetch`).
    var costLimit = 32 << 20
    /// `ImageCache.entryCostLimit`: an image costing more than this share of ``costLimit`` is not cached.
    var entryCostLimit = 0.1
    /// `imageProcessingQueue`'s `maxConcurrentOperationCount` (Nuke: 2; decompression is 2 as well). One draw
    /// here is one image's processing, so at most 2 draw at once.
    var processingConcurrency = 2
    /// `ImagePrefetcher(maxConcurrentRequestCount:)`'s default: 2 prefetches at once.
    var prefetchConcurrency = 2
    /// `ImagePrefetcher.priority`'s default.
    var prefetchPriority = NukePriority.low
  }

  /// Runs a draw's block at a QoS class: the global queue of that class by default. A seam: tests record the QoS
  /// and run the blocks by hand.
  typealias Submit = @Sendable (DispatchQoS.QoSClass, @escaping @Sendable () -> Void) -> Void
  /// Draws a job, polling `isCancelled` between its passes (``RenderJob/render(isCancelled:)`` by default).
  typealias Render = @Sendable (RenderJob, () -> Bool) -> RenderedImage?
  /// A display request's completion, run on the main queue with the image.
  typealias Completion = @MainActor @Sendable (RenderedImage) -> Void

  /// `DispatchQueue.global(qos:).async`.
  static let globalQueues: Submit = { qos, block in DispatchQueue.global(qos: qos).async(execute: block) }
  /// ``RenderJob/render(isCancelled:)``.
  static let render: Render = { job, isCancelled in job.render(isCancelled: isCancelled) }

  /// A request's hold on its task (an `ImageTask`'s subscription): ``cancel(_:)`` ends it.
  struct Subscription: Hashable, Sendable {
    let content: DrawContent
    let key: Int
  }

  private enum Subscriber {
    case display(Completion)
    case prefetch
  }

  /// `TaskLoadImage`: one image being made, its subscribers, and its processing operation.
  private struct ImageTask {
    var subscribers: [Int: (priority: NukePriority, subscriber: Subscriber)] = [:]
    let operation: NukeTaskQueue.Operation
    var priority: NukePriority
  }

  /// One of the prefetcher's requests: its operation in the prefetcher's queue and, once that runs, its
  /// subscription to the pipeline's task.
  private struct Prefetch {
    let operation: NukeTaskQueue.Operation
    var subscription: Subscription?
  }

  /// A draw to hand to a worker.
  private struct Start {
    let operation: NukeTaskQueue.Operation
    let content: DrawContent
    let qos: DispatchQoS.QoSClass
  }

  let configuration: Configuration
  private let submit: Submit
  private let render: Render
  private let lock = NSLock()
  private var cache: NukeMemoryCache
  private var tasks: [DrawContent: ImageTask] = [:]
  private var processing: NukeTaskQueue
  private var processingContent: [NukeTaskQueue.Operation: DrawContent] = [:]
  private var prefetchQueue: NukeTaskQueue
  private var prefetchContent: [NukeTaskQueue.Operation: DrawContent] = [:]
  private var prefetches: [DrawContent: Prefetch] = [:]
  private var nextKey = 0

  /// A pipeline with `configuration`; `submit` and `render` are the tests' seams.
  init(
    configuration: Configuration = Configuration(), submit: @escaping Submit = NukeLikePipeline.globalQueues,
    render: @escaping Render = NukeLikePipeline.render
  ) {
    self.configuration = configuration
    self.submit = submit
    self.render = render
    cache = NukeMemoryCache(costLimit: configuration.costLimit, entryCostLimit: configuration.entryCostLimit)
    processing = NukeTaskQueue(maxConcurrentOperationCount: configuration.processingConcurrency)
    prefetchQueue = NukeTaskQueue(maxConcurrentOperationCount: configuration.prefetchConcurrency)
  }

  // MARK: Requests

  /// `pipeline.cache[request]`: the memory cache's image, as a view's synchronous lookup reads it.
  func cachedImage(for content: DrawContent) -> RenderedImage? {
    locked { cache.value(for: content) }
  }

  /// `loadImage(with:completion:)` at `priority`: joins the task making `content`, or creates one. `completion`
  /// runs on the main queue with the image — unless the subscription was cancelled first, or the image was cached
  /// (then it runs on the main queue and no subscription is returned).
  func loadImage(
    _ content: DrawContent, priority: NukePriority = .normal, completion: @escaping Completion
  ) -> Subscription? {
    lock.lock()
    if let image = cache.value(for: content) {
      lock.unlock()
      DispatchQueue.main.async { MainActor.assumeIsolated { completion(image) } }
      return nil
    }
    let subscription = subscribeLocked(content, priority: priority, .display(completion))
    let starts = pumpLocked()
    lock.unlock()
    run(starts)
    return subscription
  }

  /// `ImageTask.cancel()`: `subscription` leaves its task; the task is cancelled if it was the last.
  func cancel(_ subscription: Subscription) {
    let ended = locked { unsubscribeLocked(subscription) }
    if ended { subscription.content.job.ledger.jobEnded() }
  }

  /// Empties the memory cache (`ImageCache.removeAll()`).
  func removeAllCachedImages() {
    locked { cache.removeAll() }
  }

  /// Bytes the memory cache holds.
  var cachedBytes: Int { locked { cache.totalCost } }

  // MARK: Prefetching

  /// `ImagePrefetcher.startPrefetching(with:)`: queues a prefetch for each image in order, skipping those cached
  /// or already prefetching.
  func startPrefetching(_ contents: [DrawContent]) {
    lock.lock()
    for content in contents where prefetches[content] == nil {
      guard cache.value(for: content) == nil else { continue }
      let operation = prefetchQueue.add(priority: configuration.prefetchPriority)
      prefetchContent[operation] = content
      prefetches[content] = Prefetch(operation: operation, subscription: nil)
    }
    let starts = pumpLocked()
    lock.unlock()
    run(starts)
  }

  /// `ImagePrefetcher.stopPrefetching(with:)` (every prefetch when `contents` is `nil`, `stopPrefetching()`): a
  /// prefetch still queued is dropped; a running one leaves its task and frees its slot.
  func stopPrefetching(_ contents: [DrawContent]? = nil) {
    lock.lock()
    var ended: [RenderLedger] = []
    for content in contents ?? Array(prefetches.keys) {
      guard let prefetch = prefetches.removeValue(forKey: content) else { continue }
      prefetchContent[prefetch.operation] = nil
      if prefetchQueue.cancel(prefetch.operation) { continue }
      if let subscription = prefetch.subscription, unsubscribeLocked(subscription) {
        ended.append(content.job.ledger)
      }
      prefetchQueue.finish(prefetch.operation)
    }
    let starts = pumpLocked()
    lock.unlock()
    for ledger in ended { ledger.jobEnded() }
    run(starts)
  }

  /// Prefetches queued or running.
  var prefetchCount: Int { locked { prefetches.count } }

  // MARK: Tasks

  /// Adds a subscriber to the task for `content`, creating the task (and its queued draw) if there is none.
  private func subscribeLocked(
    _ content: DrawContent, priority: NukePriority, _ subscriber: Subscriber
  ) -> Subscription {
    nextKey += 1
    let subscription = Subscription(content: content, key: nextKey)
    if var task = tasks[content] {
      task.subscribers[nextKey] = (priority, subscriber)
      if priority > task.priority {
        task.priority = priority
        processing.setPriority(task.operation, priority)
      }
      tasks[content] = task
    } else {
      let operation = processing.add(priority: priority)
      processingContent[operation] = content
      tasks[content] = ImageTask(
        subscribers: [nextKey: (priority, subscriber)], operation: operation, priority: priority)
      content.job.ledger.jobStarted()
    }
    return subscription
  }

  /// Removes a subscriber; the last one out cancels the task. Returns whether the task's job ended here (its draw
  /// had not started); a running draw's worker ends it.
  private func unsubscribeLocked(_ subscription: Subscription) -> Bool {
    let content = subscription.content
    guard var task = tasks[content], task.subscribers.removeValue(forKey: subscription.key) != nil else {
      return false
    }
    guard let priority = task.subscribers.values.map(\.priority).max() else {
      tasks[content] = nil
      guard processing.cancel(task.operation) else { return false }
      processingContent[task.operation] = nil
      return true
    }
    task.priority = priority
    processing.setPriority(task.operation, priority)
    tasks[content] = task
    return false
  }

  /// Starts what the queues allow: the prefetcher's next requests (each joins or creates its task, or completes
  /// at once from the cache), then the next draws. Returns the draws for ``run(_:)``.
  private func pumpLocked() -> [Start] {
    while let operation = prefetchQueue.next() {
      guard let content = prefetchContent[operation] else {
        prefetchQueue.finish(operation)
        continue
      }
      // The prefetch's body: `pipeline.makeStartedImageTask(with:)`, whose task reads the cache first.
      if cache.value(for: content) != nil {
        finishPrefetchLocked(operation, content: content)
      } else {
        prefetches[content]?.subscription = subscribeLocked(
          content, priority: configuration.prefetchPriority, .prefetch)
      }
    }
    var starts: [Start] = []
    while let operation = processing.next() {
      guard let content = processingContent[operation], let task = tasks[content], task.operation == operation else {
        processing.finish(operation)
        continue
      }
      starts.append(Start(operation: operation, content: content, qos: task.priority.qos))
    }
    return starts
  }

  private func finishPrefetchLocked(_ operation: NukeTaskQueue.Operation, content: DrawContent) {
    prefetchQueue.finish(operation)
    prefetchContent[operation] = nil
    if prefetches[content]?.operation == operation { prefetches[content] = nil }
  }

  /// Hands each draw to a worker at its QoS.
  private func run(_ starts: [Start]) {
    for start in starts {
      submit(start.qos) { [self] in draw(start) }
    }
  }

  /// On a worker: draws `start`'s image, stopping at a pass once its task is no longer the current one (cancelled).
  private func draw(_ start: Start) {
    let image = render(start.content.job) { [self] in
      locked { tasks[start.content]?.operation != start.operation }
    }
    complete(start, image: image)
  }

  /// On a worker: the draw ended. A result of the current task goes to the cache and to its subscribers; the slot
  /// goes to the next draw.
  private func complete(_ start: Start, image: RenderedImage?) {
    let content = start.content
    lock.lock()
    processing.finish(start.operation)
    processingContent[start.operation] = nil
    var completions: [Completion] = []
    if let image, let task = tasks[content], task.operation == start.operation {
      tasks[content] = nil
      cache.insert(image, for: content)
      for key in task.subscribers.keys.sorted() {
        guard let entry = task.subscribers[key] else { continue }
        switch entry.subscriber {
        case .display(let completion): completions.append(completion)
        case .prefetch:
          if let prefetch = prefetches[content], prefetch.subscription?.key == key {
            finishPrefetchLocked(prefetch.operation, content: content)
          }
        }
      }
    }
    let starts = pumpLocked()
    lock.unlock()
    run(starts)
    let ledger = content.job.ledger
    guard let image, !completions.isEmpty else {
      ledger.jobEnded()
      return
    }
    DispatchQueue.main.async {
      MainActor.assumeIsolated {
        defer { ledger.jobEnded() }
        for completion in completions { completion(image) }
      }
    }
  }

  private func locked<T>(_ body: () -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    return body()
  }
}

/// Nuke's memory cache (`Sources/Nuke/Caching/Cache.swift`, behind `ImageCache`): images by key, each costing its
/// bitmap's bytes, trimmed to ``costLimit`` after every insertion by Nuke's CLOCK sweep — an approximation of LRU in
/// which a read marks an entry referenced; the sweep gives a referenced entry a second chance (clears the mark and
/// moves it to the back) and evicts the first unreferenced one. An image costing ``entryCostLimit`` of the limit or
/// more is not stored. Not thread-safe: ``NukeLikePipeline``'s lock guards it.
struct NukeMemoryCache {
  /// The most bytes kept.
  let costLimit: Int
  /// The share of ``costLimit`` an entry must cost less than to be stored.
  let entryCostLimit: Double
  private var entries: [DrawContent: (image: RenderedImage, referenced: Bool)] = [:]
  /// Keys in the sweep's order: the front is the next candidate.
  private var order: [DrawContent] = []
  /// Bytes held.
  private(set) var totalCost = 0

  /// An empty cache.
  init(costLimit: Int, entryCostLimit: Double) {
    self.costLimit = costLimit
    self.entryCostLimit = entryCostLimit
  }

  /// Images held.
  var count: Int { entries.count }

  /// The image for `key`, marked referenced.
  mutating func value(for key: DrawContent) -> RenderedImage? {
    guard let entry = entries[key] else { return nil }
    if !entry.referenced { entries[key]?.referenced = true }
    return entry.image
  }

  /// Whether `key` is held, without marking it (for tests).
  func contains(_ key: DrawContent) -> Bool { entries[key] != nil }

  /// Stores `image` for `key` (an update counts as a use) and trims to the limit.
  mutating func insert(_ image: RenderedImage, for key: DrawContent) {
    let cost = image.byteCount
    guard Double(cost) < entryCostLimit * Double(costLimit) else { return }
    if let old = entries[key] {
      totalCost -= old.image.byteCount
      entries[key] = (image, true)
    } else {
      entries[key] = (image, false)
      order.append(key)
    }
    totalCost += cost
    while totalCost > costLimit, !order.isEmpty {
      let key = order.removeFirst()
      guard let entry = entries[key] else { continue }
      if entry.referenced {
        entries[key]?.referenced = false
        order.append(key)
      } else {
        entries[key] = nil
        totalCost -= entry.image.byteCount
      }
    }
  }

  /// Empties the cache.
  mutating func removeAll() {
    entries.removeAll()
    order.removeAll()
    totalCost = 0
  }
}
