import CoreFoundation
import Dispatch
import Foundation

/// A re-implementation of YYAsyncLayer + YYTransaction (ibireme/YYAsyncLayer `YYAsyncLayer/YYAsyncLayer.m`,
/// `YYSentinel.m`, `YYTransaction.m`), written fresh for this benchmark. Each image view is a view backed by a
/// `YYAsyncLayer`, set up as one of the library's real uses (``Variant``) — never both at once:
///
/// - ``Variant/transaction`` (`yyAsyncLayer`, the default): the view as YYAsyncLayer's README ("Simple Usage")
///   writes it — `setText:` stores the content and commits a `YYTransaction` (target × selector
///   `contentsNeedUpdated`), nothing else: the contents are not cleared. The transactions are a set, so
///   requests for one view coalesce per run-loop turn, drained by an observer at `kCFRunLoopBeforeWaiting |
///   kCFRunLoopExit`, order `0xFFFFFF` ("after CATransaction (2000000)"), common modes; `contentsNeedUpdated`
///   calls `[self.layer setNeedsDisplay]`. This is the default because it is the library's one documented use:
///   the README is YYAsyncLayer's only documentation of how a view drives the layer. Its sentinel
///   moves only at the drain, so a draw of the view's previous content whose `dispatch_async(main)` block
///   runs between the setter and the drain still passes `isCancelled` and sets the old image (a reused cell
///   shows its previous row until its own draw lands): wrong-cell applies that are this use's own.
/// - ``Variant/label`` (`yyAsyncLayerLabel`): the view as YYText's `YYLabel` writes it (ibireme/YYText
///   `YYText/YYLabel.m`, on `YYTextAsyncLayer`, YYText's copy of the layer: the same sentinel, queues and
///   display). A feed sets `label.textLayout` in the cell (`YYLabel.h`'s tip 3 for "the highest performance",
///   with `displaysAsynchronously = YES`); `-setTextLayout:` (YYLabel.m lines 970–992) has no equality check
///   (unlike `-setText:`, line 639, which returns on equal text), clears the contents when
///   `_displaysAsynchronously && _clearContentsBeforeAsynchronouslyDisplay` (`_clearContents`, lines 368–376;
///   the flag defaults to `YES`, line 399), and calls `_setLayoutNeedRedraw` → `[self.layer setNeedsDisplay]`
///   (lines 89–91) at once — no `YYTransaction`. So a view given the same content again is blank until redrawn
///   (flicker on reload: YYKit #64; YYText #103, where users skip the update when the model is unchanged).
///
/// Both then share the layer:
/// - `setNeedsDisplay` bumps the layer's `YYSentinel` (`_cancelAsyncDisplay`, YYAsyncLayer.m lines 97–100);
///   Core Animation's display pass then calls `display` (``CommitObserver/setNeedsDisplay(_:_:)``), which keeps
///   the old contents (`super.contents = super.contents`, line 103), captures the sentinel's value and the
///   view's content (`newAsyncDisplayTask`), and dispatches the draw;
/// - the draw goes to one of `min(activeProcessorCount, 16)` serial queues (`MAX_QUEUE_COUNT 16`, QoS
///   user-initiated), round-robin by `OSAtomicIncrement32(&counter)` (`if (cur < 0) cur = -cur;`);
/// - `isCancelled` (`value != sentinel.value`) is checked before drawing, polled inside the draw (the task's
///   `display` block gets it), checked after drawing and after making the image, and again on the main
///   thread in the `dispatch_async(main)` block that sets `contents` (lines 143–188). No cache.
@MainActor
final class YYAsyncLayerStrategy: FeedStrategy {
  /// YYAsyncLayer.m: `#define MAX_QUEUE_COUNT 16`.
  static let maxQueueCount = 16
  /// YYTransaction.m: `0xFFFFFF, // after CATransaction(2000000)`.
  static let transactionOrder = 0xFFFFFF

  /// How the view drives its layer: one real use of the library each.
  enum Variant {
    /// YYAsyncLayer's README: the setter commits a `YYTransaction`, whose drain calls `setNeedsDisplay`; the
    /// contents stay until the new ones are set.
    case transaction
    /// YYText's `YYLabel` (`-setTextLayout:`): the setter clears the contents and calls `setNeedsDisplay` at
    /// once.
    case label
  }

  /// The use this instance models.
  let variant: Variant

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

  /// Creates the strategy for `variant`, with YYAsyncLayer's queue count for this machine.
  init(variant: Variant = .transaction) {
    self.variant = variant
    let count = min(max(ProcessInfo.processInfo.activeProcessorCount, 1), Self.maxQueueCount)
    queues = (0..<count).map { _ in DispatchQueue(label: "com.ibireme.yykit.render", qos: .userInitiated) }
  }

  func install(for workload: Workload, displayLink: DisplayLink?) {
    installed = true
    // `YYLabel` commits no `YYTransaction`: only the README's view needs the observer.
    guard variant == .transaction else { return }
    observer = LateObserver.add(order: Self.transactionOrder) { [weak self] in self?.drainTransactions() }
  }

  func schedule(_ request: DrawRequest) {
    ledger = request.ledger
    let key = LayerKey(cell: ObjectIdentifier(request.cell), index: request.imageIndex)
    let layer = layers[key] ?? Layer(cell: request.cell, index: request.imageIndex)
    layers[key] = layer
    layer.content = request
    switch variant {
    case .transaction:
      // README: `_text = text.copy; [[YYTransaction transactionWithTarget:self selector:...] commit];`
      transactionSet.insert(key)
    case .label:
      // `-setTextLayout:`: `if (_displaysAsynchronously && _clearContentsBeforeAsynchronouslyDisplay)
      // [self _clearContents]; ... [self _setLayoutNeedRedraw];`
      request.clearImage()
      setNeedsDisplay(layer, key: key, request: request)
    }
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

  /// Views whose `YYTransaction` is committed and not yet drained (none for ``Variant/label``, which commits
  /// none).
  var transactionsPending: Int { transactionSet.count }

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
      setNeedsDisplay(layer, key: key, request: request)
    }
  }

  /// `-[YYAsyncLayer setNeedsDisplay]`: `[self _cancelAsyncDisplay]; [super setNeedsDisplay];` — the sentinel
  /// moves now, `display` comes in the next commit's display pass.
  private func setNeedsDisplay(_ layer: Layer, key: LayerKey, request: DrawRequest) {
    layer.sentinel.increase()
    awaitingDisplay.insert(key)
    request.commit.setNeedsDisplay(key) { [weak self, weak layer] in
      guard let self else { return }
      self.awaitingDisplay.remove(key)
      if let layer { self.display(layer) }
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
