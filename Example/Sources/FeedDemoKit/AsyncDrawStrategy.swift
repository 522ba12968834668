import CoreFoundation
import Dispatch
import Foundation

/// A re-implementation of AsyncDraw (stkusegithub/AsyncDraw, `AsyncDrawDemo/AsyncDrawDemo/Core/AsyncDraw/`
/// `ADManager.m`, `ADQueue.m`, `ADLayer.m`, `ADTask.m`; the view as `AsyncUI/ADLabel.m` writes it), written
/// fresh for this benchmark, flaws included. Each image view is a view backed by an `ADLayer`:
///
/// - a setter adds an `ADTask` (target × selector `asyncDraw`) to a static set; an observer at
///   `kCFRunLoopBeforeWaiting | kCFRunLoopExit`, order `0xFFFFFF`, common modes, swaps the set out and
///   executes each task: `[self.layer setNeedsDisplay]`;
/// - `-[ADLayer setNeedsDisplay]` sets the layer's atomic `status` to "cancel"; Core Animation's display
///   pass then calls `display`, which sets it to "drawing" and dispatches the draw. **The flaw:** a draw
///   already dispatched checks `status == cancel`, so a newer request cancels it only between
///   `setNeedsDisplay` and the next display pass; after that the status reads "drawing" again and the old
///   draw runs on and lands — possibly after the newer one, putting older content back;
/// - the draw reads the view's content when it runs (the delegate draws `self.text` on the worker), so a
///   draw queued before a newer request draws the newer content;
/// - `ad_getExecuteTaskQueue`: up to `min(activeProcessorCount, kMAX_QUEUE_COUNT = 6)` serial queues
///   (QoS user-initiated), created lazily, the first with the fewest pending tasks (`@min.asyncCount`); the
///   count is changed from the main thread and the workers without a lock in the original (a lock here: the
///   race itself is not reproduced);
/// - `canceled` is checked before drawing, passed to the delegate as a `BOOL` (not polled), checked after
///   drawing and after making the image; the `dispatch_async(main)` block sets `contents` with no check.
///   Nothing on `didEndDisplaying`; no clearing; no cache.
///
/// The wrong-cell applies are kept because the library's own layer causes them for every user of it:
/// `-[ADLayer setNeedsDisplay]` sets `status = ADLayerStatusCancel` and `-display` sets it back to
/// `ADLayerStatusDrawing` (`Core/AsyncDraw/ADLayer.m` lines 28–44), `canceled` reads that one flag (lines
/// 48–50), and the main-queue block sets `self.contents` with no check (lines 105–107). A user of `ADLabel`
/// (drawn through `ADLayer`) only sets its properties; the library gives no hook for a check of their own. No
/// `check-json.sh` check requires the wrong-cell applies (the canary `noGuardBackground` proves the metric can
/// fail).
@MainActor
final class AsyncDrawStrategy: FeedStrategy {
  /// ADManager.m: `#define kMAX_QUEUE_COUNT 6`.
  static let maxQueueCount = 6
  /// ADManager.m: `0xFFFFFF, // 设置优先级低于CATransaction(2000000)`.
  static let observerOrder = 0xFFFFFF

  /// `ADQueue`: a serial queue and its `asyncCount`.
  private final class TaskQueue: Sendable {
    let queue = DispatchQueue(label: "kADQueueSerial", qos: .userInitiated)
    let asyncCount = Locked(0)
  }

  /// An `ADLayer` with its view's content: `status` is the layer's atomic property; `content` what the
  /// view's properties say now (read by the worker when it draws).
  @MainActor
  private final class Layer {
    let cell: FeedCell
    let cancelled = Locked(false)
    let content = Locked<RenderJob?>(nil)
    var request: DrawRequest?
    init(cell: FeedCell) { self.cell = cell }
  }

  private struct LayerKey: Hashable {
    let cell: ObjectIdentifier
    let index: Int
  }

  private var layers: [LayerKey: Layer] = [:]
  /// `_taskSet`.
  private var taskSet: Set<LayerKey> = []
  private var queues: [TaskQueue] = []
  private let limitQueueCount = min(
    max(ProcessInfo.processInfo.activeProcessorCount, 1), AsyncDrawStrategy.maxQueueCount)
  /// Layers that asked for the display pass and have not displayed yet (pending work too).
  private var awaitingDisplay: Set<LayerKey> = []
  private var observer: CFRunLoopObserver?
  private var ledger: RenderLedger?
  private var installed = false

  func install(for workload: Workload, displayLink: DisplayLink?) {
    installed = true
    observer = LateObserver.add(order: Self.observerOrder) { [weak self] in self?.runTasks() }
  }

  func schedule(_ request: DrawRequest) {
    ledger = request.ledger
    let key = LayerKey(cell: ObjectIdentifier(request.cell), index: request.imageIndex)
    let layer = layers[key] ?? Layer(cell: request.cell)
    layers[key] = layer
    // The setter: `_text = text; [[ADManager shareInstance] ad_addTaskWith:self selector:@selector(asyncDraw)];`
    layer.request = request
    layer.content.value = request.job
    taskSet.insert(key)
  }

  func cellDidEndDisplaying(_ cell: FeedCell, forRowAt indexPath: IndexPath) {}

  func scheduleTask(key: Int, _ task: @escaping @MainActor () -> Void) {
    DispatchQueue.main.async { MainActor.assumeIsolated { task() } }
  }

  func discardPending() { taskSet.removeAll() }

  var pendingCount: Int { taskSet.count + awaitingDisplay.count + (ledger?.outstandingJobs ?? 0) }

  func uninstall() {
    installed = false
    if let observer { CFRunLoopObserverInvalidate(observer) }
    observer = nil
    taskSet.removeAll()
    awaitingDisplay.removeAll()
    layers.removeAll()
  }

  /// `ADRunLoopCallBack`: swap the set out and `excute` each task (`asyncDraw` → `setNeedsDisplay`).
  private func runTasks() {
    guard !taskSet.isEmpty else { return }
    let current = taskSet
    taskSet = []
    for key in current {
      guard let layer = layers[key], let request = layer.request else { continue }
      // `-[ADLayer setNeedsDisplay]`: `self.status = ADLayerStatusCancel; [super setNeedsDisplay];`
      layer.cancelled.value = true
      awaitingDisplay.insert(key)
      request.commit.setNeedsDisplay(key) { [weak self, weak layer] in
        guard let self else { return }
        self.awaitingDisplay.remove(key)
        if let layer { self.display(layer) }
      }
    }
  }

  /// `ad_getExecuteTaskQueue`: a new queue while under the limit, else the first with the fewest tasks.
  private func executeTaskQueue() -> TaskQueue {
    if queues.count < limitQueueCount {
      let queue = TaskQueue()
      queues.append(queue)
      queue.asyncCount.withValue { $0 += 1 }
      return queue
    }
    let counts = queues.map(\.asyncCount.value)
    let minimum = counts.min() ?? 0
    let queue = queues[counts.firstIndex { $0 <= minimum } ?? 0]
    queue.asyncCount.withValue { $0 += 1 }
    return queue
  }

  /// `-[ADLayer display]`: `self.status = ADLayerStatusDrawing;` then `asyncDraw`.
  private func display(_ layer: Layer) {
    guard installed, let request = layer.request else { return }
    layer.cancelled.value = false
    let queue = executeTaskQueue()
    let cancelled = layer.cancelled
    let content = layer.content
    let ledger = request.ledger
    let finish = { @Sendable in queue.asyncCount.withValue { $0 = max(0, $0 - 1) } }
    ledger.jobStarted()
    queue.queue.async { [self] in
      if cancelled.value {
        finish()
        ledger.jobEnded()
        return
      }
      // The delegate draws the view's content as it is now, told `canceled` once (a BOOL).
      guard let job = content.value, let image = job.render() else {
        finish()
        ledger.jobEnded()
        return
      }
      if cancelled.value {
        finish()
        ledger.jobEnded()
        return
      }
      finish()
      if cancelled.value {
        ledger.jobEnded()
        return
      }
      DispatchQueue.main.async {
        MainActor.assumeIsolated {
          defer { ledger.jobEnded() }
          guard self.installed else { return }
          request.apply(image, to: layer.cell)
        }
      }
    }
  }
}
