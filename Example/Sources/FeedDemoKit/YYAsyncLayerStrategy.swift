import CoreFoundation
import Dispatch
import Foundation

/// A re-implementation of YYAsyncLayer + YYTransaction (ibireme/YYAsyncLayer `YYAsyncLayer/YYAsyncLayer.m`,
/// `YYSentinel.m`, `YYTransaction.m`; the view as its README's `YYLabel` example writes it, clearing like
/// YYKit's `YYText/YYLabel.m`), written fresh for this benchmark. Each image view is a view backed by a
/// `YYAsyncLayer`:
///
/// - setting the view's content (in `cellForRow`) commits a `YYTransaction` (target × selector
///   `contentsNeedUpdated`): a set, so requests for one view coalesce per run-loop turn, drained by an
///   observer at `kCFRunLoopBeforeWaiting | kCFRunLoopExit`, order `0xFFFFFF` ("after CATransaction
///   (2000000)"), common modes; it calls `[self.layer setNeedsDisplay]`;
/// - the content is cleared when it is set (`YYLabel`'s `clearContentsBeforeAsynchronouslyDisplay`, default
///   `YES`: `_clearContents` in each setter), so a view given the same content again is blank until redrawn;
/// - `setNeedsDisplay` bumps the layer's `YYSentinel` (`_cancelAsyncDisplay`); Core Animation's display pass
///   then calls `display` (``CommitObserver/setNeedsDisplay(_:_:)``), which keeps the old contents, captures
///   the sentinel's value and the view's content (`newAsyncDisplayTask`), and dispatches the draw;
/// - the draw goes to one of `min(activeProcessorCount, 16)` serial queues (`MAX_QUEUE_COUNT 16`, QoS
///   user-initiated), round-robin by `OSAtomicIncrement32(&counter)` (`if (cur < 0) cur = -cur;`);
/// - `isCancelled` (`value != sentinel.value`) is checked before drawing, polled inside the draw (the task's
///   `display` block gets it), checked after drawing and after making the image, and again on the main
///   thread in the `dispatch_async(main)` block that sets `contents`. No cache.
@MainActor
final class YYAsyncLayerStrategy: FeedStrategy {
  /// YYAsyncLayer.m: `#define MAX_QUEUE_COUNT 16`.
  static let maxQueueCount = 16
  /// YYTransaction.m: `0xFFFFFF, // after CATransaction(2000000)`.
  static let transactionOrder = 0xFFFFFF

  /// One `YYAsyncLayer`: an image view of a cell, its sentinel and the view's content.
  @MainActor
  private final class Layer {
    let cell: FeedCell
    let index: Int
    let sentinel = Sentinel()
    /// The content the view was last given (`_text`), as a request.
    var content: DrawRequest?
    init(cell: FeedCell, index: Int) {
      self.cell = cell
      self.index = index
    }
  }

  private struct LayerKey: Hashable {
    let cell: ObjectIdentifier
    let index: Int
  }

  private var layers: [LayerKey: Layer] = [:]
  /// YYTransaction's `transactionSet`.
  private var transactionSet: Set<LayerKey> = []
  /// Layers that asked for the display pass and have not displayed yet (pending work too).
  private var awaitingDisplay: Set<LayerKey> = []
  private var observer: CFRunLoopObserver?
  private let queues: [DispatchQueue]
  private var counter: Int32 = 0
  private var ledger: RenderLedger?
  private var installed = false

  /// Creates the strategy with YYAsyncLayer's queue count for this machine.
  init() {
    let count = min(max(ProcessInfo.processInfo.activeProcessorCount, 1), Self.maxQueueCount)
    queues = (0..<count).map { _ in DispatchQueue(label: "com.ibireme.yykit.render", qos: .userInitiated) }
  }

  func install(for workload: Workload, displayLink: DisplayLink?) {
    installed = true
    observer = LateObserver.add(order: Self.transactionOrder) { [weak self] in self?.drainTransactions() }
  }

  func schedule(_ request: DrawRequest) {
    ledger = request.ledger
    let key = LayerKey(cell: ObjectIdentifier(request.cell), index: request.imageIndex)
    let layer = layers[key] ?? Layer(cell: request.cell, index: request.imageIndex)
    layers[key] = layer
    // The setter: `_text = text.copy; [self _clearContents]; [[YYTransaction ...] commit];`
    layer.content = request
    request.clearImage()
    transactionSet.insert(key)
  }

  /// YYAsyncLayer has nothing for a view leaving the screen: its draws run on (the sentinel moves only when
  /// the view is given new content).
  func cellDidEndDisplaying(_ cell: FeedCell, forRowAt indexPath: IndexPath) {}

  func scheduleTask(key: Int, _ task: @escaping @MainActor () -> Void) {
    DispatchQueue.main.async { MainActor.assumeIsolated { task() } }
  }

  /// The transaction set is emptied; draws already dispatched run their course.
  func discardPending() { transactionSet.removeAll() }

  var pendingCount: Int { transactionSet.count + awaitingDisplay.count + (ledger?.outstandingJobs ?? 0) }

  func uninstall() {
    installed = false
    if let observer { CFRunLoopObserverInvalidate(observer) }
    observer = nil
    transactionSet.removeAll()
    awaitingDisplay.removeAll()
    layers.removeAll()
  }

  /// `YYRunLoopObserverCallBack`: swap the set out and call each target's selector
  /// (`contentsNeedUpdated` → `[self.layer setNeedsDisplay]`).
  private func drainTransactions() {
    guard !transactionSet.isEmpty else { return }
    let current = transactionSet
    transactionSet = []
    for key in current {
      guard let layer = layers[key], let request = layer.content else { continue }
      // `-[YYAsyncLayer setNeedsDisplay]`: `[self _cancelAsyncDisplay]; [super setNeedsDisplay];`
      layer.sentinel.increase()
      awaitingDisplay.insert(key)
      request.commit.setNeedsDisplay(key) { [weak self, weak layer] in
        guard let self else { return }
        self.awaitingDisplay.remove(key)
        if let layer { self.display(layer) }
      }
    }
  }

  /// `-[YYAsyncLayer display]` → `_displayAsync:YES`.
  private func display(_ layer: Layer) {
    guard installed, let request = layer.content else { return }
    let sentinel = layer.sentinel
    let value = sentinel.value
    let isCancelled: @Sendable () -> Bool = { value != sentinel.value }
    let job = request.job
    let ledger = request.ledger
    // YYAsyncLayerGetDisplayQueue(): `int32_t cur = OSAtomicIncrement32(&counter); if (cur < 0) cur = -cur;`
    counter &+= 1
    var current = counter
    if current < 0 { current = current == Int32.min ? Int32.max : -current }
    let queue = queues[Int(current) % queues.count]
    ledger.jobStarted()
    queue.async { [self] in
      if isCancelled() {
        ledger.jobEnded()
        return
      }
      let image = job.render(isCancelled: isCancelled)
      guard let image, !isCancelled() else {
        // `if (isCancelled()) { ... dispatch_async(main, ^{ didDisplay(self, NO) }); return; }`
        DispatchQueue.main.async { ledger.jobEnded() }
        return
      }
      DispatchQueue.main.async {
        MainActor.assumeIsolated {
          defer { ledger.jobEnded() }
          guard self.installed, !isCancelled() else { return }
          request.apply(image, to: layer.cell)
        }
      }
    }
  }
}
