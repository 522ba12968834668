import CoreFoundation
import Foundation

/// A re-implementation of the *policy* of Texture's `ASRunLoopQueue` (TextureGroup/Texture,
/// `Source/ASRunLoopQueue.mm`), written fresh for this benchmark:
///
/// - a `CFRunLoopObserver` at `kCFRunLoopBeforeWaiting`, repeating, order 0, in `kCFRunLoopCommonModes`
///   — so it also runs while the list is tracked, before Core Animation's commit (2,000,000);
/// - a version-0 `CFRunLoopSource` with a no-op `perform`, in the common modes;
/// - each callback (`processQueue`) takes `batchSize` items (default 1, `_batchSize = 1;`) from the head
///   of its `NSPointerArray` (nulling them out) and then calls `[_internalQueue compact]`, which moves every
///   remaining item down: O(n) per batch, modelled here by `Array.removeFirst(_:)`;
/// - if items remain afterwards, it signals the source and calls `CFRunLoopWakeUp`, so the loop comes
///   round again at once; with nothing left it does neither and the loop can sleep;
/// - `enqueue:` first scans the queue for the same object when `ensureExclusiveMembership` is `YES` (the
///   default, `_ensureExclusiveMembership = YES;`: a linear scan per enqueue, O(n)), then appends, and
///   signals the source and wakes the loop only when the queue's count became 1
///   (`if (_internalQueue.count == 1) { CFRunLoopSourceSignal(...); CFRunLoopWakeUp(...); }`) — a queue that
///   already held items is kept going by `processQueue`'s own signal;
/// - no capacity limit.
///
/// (The later `ASRunLoopQueue.mm`, of the `AS::Mutex` era; older sources signalled on every enqueue. The
/// later one is modelled: it is what an app adopting Texture today gets.)
///
/// `batchSize` and `ensureExclusiveMembership` are public properties; the tuned variant sets a batch of 16
/// (enough to amortise a loop turn of ~4 µs over 20 µs tasks) and turns the scan off, as a careful user
/// moving bulk work through it would.
///
/// Items are the user's draws, with the same stale guard as the other baselines. `ASRunLoopQueue` has no
/// removal (only `enqueue:`), so `didEndDisplaying` cannot drop a cell's items: they run off screen.
///
/// At ``Granularity/tiles`` the app enqueues each draw's tiles as items of their own, in order, each with
/// the guard (``DrawRequest/tileTasks(guarded:)``): with the default batch of 1, one tile per
/// `BeforeWaiting`, the loop coming round between tiles (where the display link's frame can run).
@MainActor
final class RunLoopQueueStrategy: FeedStrategy {
  /// Texture: `_batchSize = 1;`
  static let defaultBatchSize = 1
  /// Texture: `CFRunLoopObserverCreateWithHandler(NULL, kCFRunLoopBeforeWaiting, true, 0, handlerBlock)`.
  static let observerOrder = 0

  /// An enqueued object: Texture's queue holds objects and compares them by identity in its scan.
  private final class Item {
    let run: @MainActor () -> Void
    init(_ run: @escaping @MainActor () -> Void) { self.run = run }
  }

  private let batchSize: Int
  private let ensureExclusiveMembership: Bool
  /// How the app cuts its draws into items.
  private let granularity: Granularity
  /// `NSPointerArray *_internalQueue`: an array, compacted after every batch (not a ring buffer).
  private var queue: [Item] = []
  /// The items' identities, in queue order: the membership scan compares pointers, as Texture's
  /// `currentObject == object` does (comparing `Item`s with `===` would retain and release each one).
  private var identities: [ObjectIdentifier] = []
  private var observer: CFRunLoopObserver?
  private var source: CFRunLoopSource?

  /// Creates the queue with Texture's two public knobs, the app's draws handed over at `granularity`.
  init(batchSize: Int, ensureExclusiveMembership: Bool, granularity: Granularity = .whole) {
    self.batchSize = batchSize
    self.ensureExclusiveMembership = ensureExclusiveMembership
    self.granularity = granularity
  }

  func install(for workload: Workload, displayLink: DisplayLink?) {
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
    for task in request.guardedTasks(at: granularity) { enqueue(task) }
  }

  /// No-op: `ASRunLoopQueue` offers no way to remove an enqueued item.
  func cellDidEndDisplaying(_ cell: FeedCell, forRowAt indexPath: IndexPath) {}

  func scheduleTask(key: Int, _ task: @escaping @MainActor () -> Void) { enqueue(task) }

  /// `ASRunLoopQueue` has no removal; the harness empties it.
  func discardPending() {
    queue.removeAll()
    identities.removeAll()
  }

  var pendingCount: Int { queue.count }

  func uninstall() {
    if let observer { CFRunLoopObserverInvalidate(observer) }
    if let source { CFRunLoopSourceInvalidate(source) }
    observer = nil
    source = nil
    queue.removeAll()
    identities.removeAll()
  }

  /// Texture's `enqueue:`: the membership scan if enabled (every item here is a new object, so it never
  /// finds one — the cost is the scan itself), append, and — only if the queue was empty — signal the
  /// source and wake the loop.
  private func enqueue(_ work: @escaping @MainActor () -> Void) {
    let item = Item(work)
    let identity = ObjectIdentifier(item)
    if ensureExclusiveMembership, identities.contains(identity) { return }
    queue.append(item)
    identities.append(identity)
    if queue.count == 1, let source {
      CFRunLoopSourceSignal(source)
      CFRunLoopWakeUp(CFRunLoopGetMain())
    }
  }

  /// Texture's `processQueue`: take up to `batchSize` items from the head, compact the rest (O(n)), run
  /// the batch, and signal the source and wake the loop again if the queue is not drained.
  private func processQueue() {
    guard !queue.isEmpty else { return }
    let batch = Array(queue.prefix(batchSize))
    queue.removeFirst(batch.count)
    identities.removeFirst(batch.count)
    for item in batch { item.run() }
    if !queue.isEmpty, let source {
      CFRunLoopSourceSignal(source)
      CFRunLoopWakeUp(CFRunLoopGetMain())
    }
  }
}
