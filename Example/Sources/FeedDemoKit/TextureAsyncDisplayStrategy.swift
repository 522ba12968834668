import CoreFoundation
import Dispatch
import Foundation

/// A re-implementation of Texture's asynchronous display (TextureGroup/Texture
/// `Source/Private/ASDisplayNode+AsyncDisplay.mm`, `Source/Details/Transactions/_ASAsyncTransaction.mm`,
/// `_ASAsyncTransactionGroup.mm`, `Source/Details/_ASDisplayLayer.mm`), written fresh for this benchmark.
/// Each row is an `ASCellNode` with one image node per image:
///
/// - display (`displayAsyncLayer:asynchronously:`) bumps the node's `_displaySentinel` and captures its
///   value; `isCancelledBlock` is true once the node is gone or the sentinel moved. It is checked before
///   drawing, polled inside the draw, and on the main thread in the completion, which sets `contents` only
///   `if (!canceled && !isCancelledBlock())`;
/// - the display block joins its container's (the cell node's) `_ASAsyncTransaction` with
///   `drawingPriority` (`ASDefaultTransactionPriority`, 0) on `[_ASDisplayLayer displayQueue]` (a concurrent
///   queue targeting the high-priority global queue) and starts at once;
/// - `ASAsyncTransactionQueue` runs operations on at most `activeProcessorCount * 2` "threads" (blocks
///   dispatched to that queue, each draining the operation list), one fewer when the main run loop's mode
///   is `UITrackingRunLoopMode`; the first takes operations in queue order, the others highest priority
///   first;
/// - `_ASAsyncTransactionGroup` commits every open transaction at `kCFRunLoopBeforeWaiting |
///   kCFRunLoopExit`, order `INT_MAX`, common modes; a committed transaction's group notifies the main queue
///   when all its operations finished, and one block runs all its completions together;
/// - a node leaving the display range (`didEndDisplaying` here: the simulated table has no preload range)
///   bumps its sentinel (`cancelDisplayAsyncLayer:`);
/// - `reloadRowsAtIndexPaths:` (the table's reconfigure) makes a *new* cell node for the row, whose images
///   have no contents until displayed (AsyncDisplayKit #2536: flicker on reload).
///
/// The reload's flicker is kept because it is what Texture does for its ordinary user, not a flaw of this
/// port: `ASTableNode`'s call for a changed row is `reloadRowsAtIndexPaths:withRowAnimation:`
/// (`Source/ASTableNode.h` line 328: "The asyncDataSource must be updated to reflect the changes before this
/// method is called"), which asks the data source for a new node — "Nodes are not reused. Thus reloading a
/// node means swapping the old one with a new one" (AsyncDisplayKit PR #122) — and users still report the
/// flash (Texture #2081, open; AsyncDisplayKit #863, #3195). The ways around it are not the ordinary use:
/// `neverShowPlaceholders` (`Source/ASCellNode.h` line 80) blocks the main thread until the node has
/// displayed, and updating the existing node in place bypasses the table's reload. No `check-json.sh` check
/// requires the flicker: a port that showed none would be no less valid a measurement.
@MainActor
final class TextureAsyncDisplayStrategy: FeedStrategy {
  /// `_ASAsyncTransactionGroup.mm`: `INT_MAX, // order after CA transaction commits`.
  static let groupOrder = Int(Int32.max)
  /// `ASDefaultTransactionPriority = 0`.
  static let defaultPriority = 0

  /// An `ASCellNode`: one image node (a sentinel) per image; the cell hosting it.
  @MainActor
  private final class CellNode {
    let sentinels: [Sentinel]
    var cell: FeedCell?
    init(images: Int) { sentinels = (0..<images).map { _ in Sentinel() } }
  }

  /// An `_ASAsyncTransaction`: its operations' completions, run together on the main thread.
  @MainActor
  private final class Transaction {
    var completions: [@MainActor () -> Void] = []
    let group: TransactionQueue.Group
    init(group: TransactionQueue.Group) { self.group = group }
  }

  private let queue = TransactionQueue()
  private var nodes: [Int: CellNode] = [:]
  /// `_ASAsyncTransactionGroup`'s containers with an open transaction (the cells).
  private var openTransactions: [ObjectIdentifier: Transaction] = [:]
  private var observer: CFRunLoopObserver?
  private var ledger: RenderLedger?
  private var installed = false

  func install(for workload: Workload, displayLink: DisplayLink?) {
    installed = true
    observer = LateObserver.add(order: Self.groupOrder) { [weak self] in self?.commitTransactions() }
  }

  func schedule(_ request: DrawRequest) {
    ledger = request.ledger
    let row = request.row
    var node = nodes[row]
    if request.imageIndex == 0 {
      if node != nil, request.cellIsOnScreen {
        // reloadRows: a new node replaces the old one, which is gone (its isCancelled is true).
        node?.sentinels.forEach { $0.increase() }
        node = nil
      }
      if node == nil {
        node = CellNode(images: request.cell.imageCount)
        nodes[row] = node
      }
    }
    guard let node else { return }
    node.cell = request.cell
    // A new node's layer has no contents: the image view is empty until the node displays.
    if request.cellIsOnScreen { request.clearImage() }
    display(request, sentinel: node.sentinels[request.imageIndex], node: node)
  }

  /// Leaving the display range: `cancelDisplayAsyncLayer:` bumps each image node's sentinel.
  func cellDidEndDisplaying(_ cell: FeedCell, forRowAt indexPath: IndexPath) {
    guard let node = nodes[indexPath[1]], node.cell === cell else { return }
    node.sentinels.forEach { $0.increase() }
    node.cell = nil
  }

  func scheduleTask(key: Int, _ task: @escaping @MainActor () -> Void) {
    DispatchQueue.main.async { MainActor.assumeIsolated { task() } }
  }

  func discardPending() {}

  var pendingCount: Int { openTransactions.count + (ledger?.outstandingJobs ?? 0) }

  func uninstall() {
    installed = false
    if let observer { CFRunLoopObserverInvalidate(observer) }
    observer = nil
    commitTransactions()
    nodes.removeAll()
  }

  /// `displayAsyncLayer:asynchronously:YES`.
  private func display(_ request: DrawRequest, sentinel: Sentinel, node: CellNode) {
    let value = sentinel.increase()
    let isCancelled: @Sendable () -> Bool = { value != sentinel.value }
    let job = request.job
    let ledger = request.ledger
    let result = Locked<RenderedImage?>(nil)
    let container = ObjectIdentifier(request.cell)
    let transaction =
      openTransactions[container]
      ?? {
        let transaction = Transaction(group: queue.makeGroup())
        openTransactions[container] = transaction
        return transaction
      }()
    ledger.jobStarted()
    // The completion block, called on main when the transaction completes.
    transaction.completions.append { [weak self, weak node] in
      defer { ledger.jobEnded() }
      guard let self, self.installed, let node, let cell = node.cell, !isCancelled(), let image = result.value else {
        return
      }
      request.apply(image, to: cell)
    }
    let tracking = RunLoop.main.currentMode == RunLoopModes.tracking
    queue.schedule(priority: Self.defaultPriority, tracking: tracking, group: transaction.group) {
      // `CHECK_CANCELLED_AND_RETURN_NIL()`, then the draw with `isCancelledBlock`.
      guard !isCancelled() else { return }
      result.value = job.render(isCancelled: isCancelled)
    }
  }

  /// `-[_ASAsyncTransactionGroup commit]`: each container's transaction is committed; its group notifies
  /// the main queue when all its operations finished, and `completeTransaction` runs every completion.
  private func commitTransactions() {
    guard !openTransactions.isEmpty else { return }
    let transactions = openTransactions.values
    openTransactions = [:]
    for transaction in transactions {
      transaction.group.notify {
        DispatchQueue.main.async {
          MainActor.assumeIsolated {
            let completions = transaction.completions
            transaction.completions = []
            for completion in completions { completion() }
          }
        }
      }
    }
  }
}

/// `ASAsyncTransactionQueue`: a lightweight operation queue that limits the threads it spawns. One entry
/// (Texture keeps one per dispatch queue; only `displayQueue` is used here).
final class TransactionQueue: @unchecked Sendable {
  // @unchecked Sendable: `operations`, `threadCount`, `sequence` and every group's counters are read and
  // written only while holding `lock` (Texture's `std::mutex _mutex`); `displayQueue` is a DispatchQueue.

  /// `GroupImpl`: counts its pending operations; `notify` runs when they reach 0.
  final class Group: @unchecked Sendable {
    // @unchecked Sendable: `pending` and `notifyList` are guarded by the owning queue's `lock`.
    fileprivate var pending = 0
    fileprivate var notifyList: [@Sendable () -> Void] = []
    private unowned let queue: TransactionQueue
    fileprivate init(queue: TransactionQueue) { self.queue = queue }

    /// `notify(queue, block)`: at once if nothing is pending, else when the last operation leaves.
    func notify(_ block: @escaping @Sendable () -> Void) {
      queue.lock.lock()
      if pending == 0 {
        queue.lock.unlock()
        block()
        return
      }
      notifyList.append(block)
      queue.lock.unlock()
    }
  }

  private struct Operation {
    let block: @Sendable () -> Void
    let group: Group
    let priority: Int
    let sequence: Int
  }

  fileprivate let lock = NSLock()
  private var operations: [Operation] = []
  private var threadCount = 0
  private var sequence = 0
  /// `+[_ASDisplayLayer displayQueue]`: concurrent, targeting the high-priority global queue.
  private let displayQueue = DispatchQueue(
    label: "org.AsyncDisplayKit.ASDisplayLayer.displayQueue", attributes: .concurrent,
    target: .global(qos: .userInteractive))

  /// A new group (`createGroup`).
  func makeGroup() -> Group { Group(queue: self) }

  /// `GroupImpl::schedule`: push the operation, enter the group, and spawn another thread if fewer than
  /// `activeProcessorCount * 2` (one fewer while `tracking`) are running.
  func schedule(priority: Int, tracking: Bool, group: Group, _ block: @escaping @Sendable () -> Void) {
    lock.lock()
    sequence += 1
    operations.append(Operation(block: block, group: group, priority: priority, sequence: sequence))
    group.pending += 1
    var maxThreads = ProcessInfo.processInfo.activeProcessorCount * 2
    if tracking { maxThreads -= 1 }
    guard threadCount < maxThreads else {
      lock.unlock()
      return
    }
    // "first thread will take operations in queue order (regardless of priority), other threads will
    // respect priority"
    let respectPriority = threadCount > 0
    threadCount += 1
    lock.unlock()
    displayQueue.async { self.drain(respectPriority: respectPriority) }
  }

  private func drain(respectPriority: Bool) {
    lock.lock()
    while !operations.isEmpty {
      let operation = popNext(respectPriority: respectPriority)
      lock.unlock()
      operation.block()
      leave(operation.group)
      lock.lock()
    }
    threadCount -= 1
    lock.unlock()
  }

  /// `popNextOperation`: the head, or the earliest of the highest priority.
  private func popNext(respectPriority: Bool) -> Operation {
    var index = 0
    if respectPriority, let top = operations.map(\.priority).max() {
      index = operations.firstIndex { $0.priority == top } ?? 0
    }
    return operations.remove(at: index)
  }

  /// `GroupImpl::leave`: the last operation out dispatches the group's notify blocks.
  private func leave(_ group: Group) {
    lock.lock()
    group.pending -= 1
    var blocks: [@Sendable () -> Void] = []
    if group.pending == 0 {
      blocks = group.notifyList
      group.notifyList = []
    }
    lock.unlock()
    for block in blocks { block() }
  }
}
