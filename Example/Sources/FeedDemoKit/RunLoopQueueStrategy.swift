import CoreFoundation
import Foundation

/// A re-implementation of the *policy* of Texture's `ASRunLoopQueue` (TextureGroup/Texture,
/// `Source/ASRunLoopQueue.mm`), written fresh for this benchmark:
///
/// - a `CFRunLoopObserver` at `kCFRunLoopBeforeWaiting`, repeating, order 0, in `kCFRunLoopCommonModes`
///   — so it also runs while the list is tracked, before Core Animation's commit (2,000,000);
/// - a version-0 `CFRunLoopSource` with a no-op `perform`, in the common modes;
/// - each callback (`processQueue`) takes `batchSize` = 1 item from the head and hands it to the handler;
/// - if items remain afterwards, it signals the source and calls `CFRunLoopWakeUp`, so the loop comes
///   round again at once; with nothing left it does neither and the loop can sleep;
/// - `enqueue:` appends, signals the source and wakes the loop;
/// - no capacity limit.
///
/// Items are the user's draws, with the same stale guard as the other baselines. `ASRunLoopQueue` has no
/// removal (only `enqueue:`), so `didEndDisplaying` cannot drop a cell's items: they run off screen.
@MainActor
final class RunLoopQueueStrategy: FeedStrategy {
  /// Texture: `_batchSize = 1;`
  static let batchSize = 1
  /// Texture: `CFRunLoopObserverCreateWithHandler(NULL, kCFRunLoopBeforeWaiting, true, 0, handlerBlock)`.
  static let observerOrder = 0

  private var queue = FIFO<@MainActor () -> Void>()
  private var observer: CFRunLoopObserver?
  private var source: CFRunLoopSource?

  func install(for workload: Workload, displayLink: DisplayLink) {
    let observer = CFRunLoopObserverCreateWithHandler(
      nil, CFRunLoopActivity.beforeWaiting.rawValue, true, CFIndex(RunLoopQueueStrategy.observerOrder)
    ) { [weak self] _, _ in
      MainActor.assumeIsolated { self?.processQueue() }
    }
    CFRunLoopAddObserver(CFRunLoopGetMain(), observer, kCFRunLoopCommonModes)
    self.observer = observer
    var context = CFRunLoopSourceContext()
    context.perform = { _ in /* runLoopSourceCallback: no-op */ }
    let source = CFRunLoopSourceCreate(nil, 0, &context)
    CFRunLoopAddSource(CFRunLoopGetMain(), source, kCFRunLoopCommonModes)
    self.source = source
  }

  func schedule(_ request: DrawRequest) {
    enqueue {
      guard request.cellStillShowsRow else { return }
      request.run()
    }
  }

  /// No-op: `ASRunLoopQueue` offers no way to remove an enqueued item.
  func cellDidEndDisplaying(_ cell: FeedCell, forRowAt indexPath: IndexPath) {}

  func scheduleTask(key: Int, _ task: @escaping @MainActor () -> Void) { enqueue(task) }

  var pendingCount: Int { queue.count }

  func uninstall() {
    if let observer { CFRunLoopObserverInvalidate(observer) }
    if let source { CFRunLoopSourceInvalidate(source) }
    observer = nil
    source = nil
    queue.removeAll()
  }

  /// Texture's `enqueue:`: append, signal the source, wake the loop. (Texture also scans the queue for the
  /// same object first — `ensureExclusiveMembership`, O(n) per enqueue; left out here, since every item
  /// is a distinct closure, which only favours the baseline.)
  private func enqueue(_ item: @escaping @MainActor () -> Void) {
    queue.append(item)
    if let source {
      CFRunLoopSourceSignal(source)
      CFRunLoopWakeUp(CFRunLoopGetMain())
    }
  }

  /// Texture's `processQueue`.
  private func processQueue() {
    guard !queue.isEmpty else { return }
    for _ in 0..<RunLoopQueueStrategy.batchSize {
      guard let item = queue.popFirst() else { break }
      item()
    }
    if !queue.isEmpty, let source {
      CFRunLoopSourceSignal(source)
      CFRunLoopWakeUp(CFRunLoopGetMain())
    }
  }
}
