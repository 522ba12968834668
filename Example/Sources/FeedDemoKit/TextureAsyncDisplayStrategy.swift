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
///   queue targeting the high-priority global queue, `DISPATCH_QUEUE_PRIORITY_HIGH`: `userInitiated`) and starts at
///   once;
/// - `ASAsyncTransactionQueue` runs operations on at most `activeProcessorCount * 2` "threads" (blocks
///   dispatched to that queue, each draining the operation list), one fewer when the main run loop's mode
///   is `UITrackingRunLoopMode`; the first takes operations in queue order, the others highest priority
///   first;
/// - `_ASAsyncTransactionGroup` commits every open transaction at `kCFRunLoopBeforeWaiting |
///   kCFRunLoopExit`, order `INT_MAX`, common modes; a committed transaction's group notifies the main queue
///   when all its operations finished, and one block runs all its completions together;
/// - without `ranges` (the `textureAsync` kind) the display range is the viewport: a node leaving it
///   (`didEndDisplaying` here) bumps its sentinel (`cancelDisplayAsyncLayer:`), and a row entering it
///   displays again;
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
///
/// With `ranges` (the `textureAsyncPrefetch` kind) the table is an `ASTableView` with its range controller
/// (`Source/Details/ASRangeController.mm`, `ASAbstractLayoutController.mm`, `ASTableLayoutController.mm`,
/// `Source/ASTableView.mm`, `Source/ASDisplayNode.mm`):
///
/// - Texture computes its ranges itself from the scroll position, not from UIKit's prefetch callbacks:
///   `willDisplayCell`/`didEndDisplayingCell` call `setNeedsUpdate`, and `layoutSubviews` ends with
///   `updateIfNeeded` — so the ranges are recomputed at the layout pass in which a row entered or left the
///   viewport (``feedDidLayout(_:)``), from the bounds at that moment;
/// - the display range is the bounds expanded by `ASRangeTuningParameters` in screenfuls
///   (`CGRectExpandToRangeWithScrollableDirections`): `ASLayoutRangeModeFull`'s display range is
///   `leadingBufferScreenfuls = 1.0` in the scroll direction and `trailingBufferScreenfuls = 0.5` behind
///   (``displayTuning``); its rows are those whose frames intersect it (`indexPathsForRowsInRect:`). The mode
///   is Full because the user has scrolled (`scrollViewWillBeginDragging:` sets `contentHasBeenScrolled` and
///   `updateCurrentRangeWithMode:ASLayoutRangeModeFull`; before any scroll it is `ASLayoutRangeModeMinimum`,
///   0.25 / 0.25, but the first screen here is drawn before the measurement, as for every strategy). The
///   direction is the scroll velocity's sign (`_scrollDirectionForVelocity:`), the previous one while there
///   is none, down at first (`_previousScrollDirection`);
/// - the preload range (Full: 2.5 screens leading, 1.5 trailing, ``preloadTuning``) calls
///   `didEnterPreloadState` — data fetches, such as an `ASNetworkImageNode`'s download. This feed has no data
///   to fetch, only draws, so the preload range has no work here and is not modelled;
/// - a node entering the display range (`recursivelySetInterfaceState:` with `shouldScheduleDisplay`) stops
///   being suspended (`setDisplaySuspended:NO` → `setNeedsDisplay`) and goes to
///   `+scheduleNodeForRecursiveDisplay:`'s `renderQueue`, an `ASRunLoopQueue` (batch 1: one node a run-loop
///   turn; ``RunLoopQueueStrategy``, not retaining its objects), whose handler calls
///   `_recursivelyTriggerDisplayAndBlock:NO`: `displayIfNeeded` starts the asynchronous display above (its
///   sentinel, its transaction queue), unless the node left the range meanwhile (`-[_ASDisplayLayer display]`
///   returns while `displaySuspended`). The range's rows are handed over nearest first (Texture walks an
///   `NSSet`, in no set order);
/// - the node keeps its `contents` while it stays in the display range, hosted by a cell or not: a row
///   entering the viewport with its display finished shows its contents at once (the node's layer moves into
///   the cell); with its display under way, the completion sets them; with neither (a row beyond the range,
///   or not yet taken from the render queue), it displays as without ranges. A node that re-entered the
///   display range displays again (`setNeedsDisplay`), showing the contents it still has meanwhile;
/// - leaving the viewport only leaves the visible state: the display goes on. Leaving the display range
///   (`applyPendingInterfaceState:`) sets `displaySuspended`, which cancels the display under way
///   (`cancelAsyncDisplay`: the sentinel moves), and schedules `clearContents` with `dispatch_async(main)`,
///   which drops the contents if the node is still out of the range by then;
/// - a row of the first screen (drawn before the measurement, unknown to the strategy) leaving the viewport
///   gets a node that displayed already, whose contents the model does not hold: should it come back while
///   still in the range, it displays again.
@MainActor
final class TextureAsyncDisplayStrategy: FeedStrategy {
  /// `_ASAsyncTransactionGroup.mm`: `INT_MAX, // order after CA transaction commits`.
  static let groupOrder = Int(Int32.max)
  /// `ASDefaultTransactionPriority = 0`.
  static let defaultPriority = 0

  /// `ASRangeTuningParameters`: how far a range reaches beyond the bounds, in screenfuls.
  struct RangeTuning: Equatable, Sendable {
    /// `leadingBufferScreenfuls`: ahead, in the scroll direction.
    var leading: Double
    /// `trailingBufferScreenfuls`: behind.
    var trailing: Double
  }

  /// `defaultTuningParameters[ASLayoutRangeModeFull][ASLayoutRangeTypeDisplay]`: `{1.0, 0.5}`.
  static let displayTuning = RangeTuning(leading: 1.0, trailing: 0.5)
  /// `defaultTuningParameters[ASLayoutRangeModeFull][ASLayoutRangeTypePreload]`: `{2.5, 1.5}` — data fetches
  /// only, none in this feed (not modelled).
  static let preloadTuning = RangeTuning(leading: 2.5, trailing: 1.5)

  /// An `ASCellNode`: one image node (a sentinel, its layer's contents and display state) per image; the
  /// cell hosting it; its interface state's display bit.
  @MainActor
  private final class CellNode {
    let sentinels: [Sentinel]
    var cell: FeedCell?
    /// Each image node's `layer.contents` (kept only with ranges: without, the image goes to the cell).
    var contents: [RenderedImage?]
    /// Each image node's layer needs display: a new node, or one that re-entered the display range.
    var needsDisplay: [Bool]
    /// The sentinel value each image node's last display captured, until its completion ran.
    var displaying: [Int32?]
    /// `ASInterfaceStateIncludesDisplay(interfaceState)`.
    var inDisplayRange = false
    /// In the render queue, not yet taken (its exclusive membership).
    var queuedForDisplay = false

    init(images: Int) {
      sentinels = (0..<images).map { _ in Sentinel() }
      contents = Array(repeating: nil, count: images)
      needsDisplay = Array(repeating: true, count: images)
      displaying = Array(repeating: nil, count: images)
    }

    /// Whether image node `index` has a display under way (started and neither finished nor cancelled).
    func isDisplaying(_ index: Int) -> Bool { displaying[index] == sentinels[index].value }
  }

  /// An `_ASAsyncTransaction`: its operations' completions, run together on the main thread.
  @MainActor
  private final class Transaction {
    var completions: [@MainActor () -> Void] = []
    let group: TransactionQueue.Group
    init(group: TransactionQueue.Group) { self.group = group }
  }

  /// Whether the table has Texture's ranges (`textureAsyncPrefetch`).
  let ranges: Bool

  /// With ranges, nodes display a screen ahead of the viewport.
  var drawsAhead: Bool { ranges }
  private let queue = TransactionQueue()
  private var nodes: [Int: CellNode] = [:]
  /// `_ASAsyncTransactionGroup`'s containers with an open transaction (the cells).
  private var openTransactions: [ObjectIdentifier: Transaction] = [:]
  private var observer: CFRunLoopObserver?
  private var ledger: RenderLedger?
  private var installed = false
  /// `+scheduleNodeForRecursiveDisplay:`'s `renderQueue`: an `ASRunLoopQueue` with its defaults.
  private let renderQueue = RunLoopQueueStrategy(
    batchSize: RunLoopQueueStrategy.defaultBatchSize, ensureExclusiveMembership: true)
  /// Rows whose nodes the last range update put in the display range.
  private var displayRangeRows: Set<Int> = []
  /// The visible rows at the last range update (`setNeedsUpdate` comes when they change).
  private var rangeVisibleRows: ClosedRange<Int>?
  private var lastOffset: Double?
  /// `_previousScrollDirection`: down at first.
  private var scrollingDown = true

  /// Whether nodes display synchronously (`displaysAsynchronously = NO`, `textureSyncRanges`): `-display` draws on
  /// the main thread at once — from the render queue for a node entering the display range
  /// (`-[CALayer displayIfNeeded]`), in the commit's display pass for a visible node that needs display
  /// (`setNeedsDisplay`) — and sets the contents.
  let synchronous: Bool

  /// The strategy without ranges (`textureAsync`) or with them (`textureAsyncPrefetch`), asynchronous or not.
  init(ranges: Bool = false, synchronous: Bool = false) {
    self.ranges = ranges
    self.synchronous = synchronous
  }

  func install(for workload: Workload, displayLink: DisplayLink?) {
    installed = true
    observer = LateObserver.add(order: Self.groupOrder) { [weak self] in self?.commitTransactions() }
    if ranges { renderQueue.install(for: workload, displayLink: displayLink) }
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
      // Visible, so in the display range: a node entering it needs display.
      if ranges, let node, !node.inDisplayRange { enterDisplayState(node) }
    }
    guard let node else { return }
    node.cell = request.cell
    // A new node's layer has no contents: the image view is empty until the node displays.
    if request.cellIsOnScreen { request.clearImage() }
    let index = request.imageIndex
    let apply: @MainActor (RenderedImage, FeedCell) -> Void = { request.apply($0, to: $1) }
    guard ranges else {
      display(request.job, node: node, container: ObjectIdentifier(request.cell), commit: request.commit, apply: apply)
      return
    }
    // The node's layer moves into the cell with its contents.
    if let contents = node.contents[index] { request.apply(contents, to: request.cell) }
    if node.needsDisplay[index] || (node.contents[index] == nil && !node.isDisplaying(index)) {
      display(request.job, node: node, container: ObjectIdentifier(request.cell), commit: request.commit, apply: apply)
    }
  }

  /// Leaving the viewport. Without ranges it is leaving the display range: `cancelDisplayAsyncLayer:` bumps
  /// each image node's sentinel. With ranges the node only leaves the visible state; the range update that
  /// follows decides about its display.
  func cellDidEndDisplaying(_ cell: FeedCell, forRowAt indexPath: IndexPath) {
    let row = indexPath[1]
    if ranges, nodes[row] == nil {
      // A row of the first screen: its node displayed before the measurement.
      let node = CellNode(images: cell.imageCount)
      node.needsDisplay = Array(repeating: false, count: cell.imageCount)
      node.inDisplayRange = true
      nodes[row] = node
      displayRangeRows.insert(row)  // the next range update suspends it if it is out
      return
    }
    guard let node = nodes[row], node.cell === cell else { return }
    if !ranges { node.sentinels.forEach { $0.increase() } }
    node.cell = nil
  }

  /// `-[ASRangeController _updateVisibleNodeIndexPaths]`, when a row entered or left the viewport: nodes newly
  /// in the display range go to the render queue, nodes out of it are suspended and cleared.
  func feedDidLayout(_ feed: FeedView) {
    guard ranges else { return }
    ledger = feed.ledger
    if let lastOffset, feed.offset != lastOffset { scrollingDown = feed.offset > lastOffset }
    lastOffset = feed.offset
    let visible = feed.visibleRows
    guard visible != rangeVisibleRows else { return }
    rangeVisibleRows = visible
    let range = Self.rows(in: Self.displayTuning, scrollingDown: scrollingDown, offset: feed.offset, model: feed.model)
    for row in displayRangeRows where !range.contains(row) { exitDisplayRange(row) }
    let ahead = scrollingDown ? Array(range) : Array(range.reversed())
    let behind = scrollingDown ? Array(range.reversed()) : Array(range)
    let nearestFirst =
      ahead.filter { scrollingDown ? $0 > visible.upperBound : $0 < visible.lowerBound }
      + behind.filter { scrollingDown ? $0 < visible.lowerBound : $0 > visible.upperBound }
    for row in nearestFirst { enterDisplayRange(row, feed: feed) }
    displayRangeRows = Set(range)
  }

  /// The rows whose frames intersect the bounds at `offset` expanded by `tuning` in the scroll direction
  /// (`CGRectExpandToRangeWithScrollableDirections`, then `indexPathsForRowsInRect:`).
  static func rows(in tuning: RangeTuning, scrollingDown: Bool, offset: Double, model: FeedModel) -> ClosedRange<Int> {
    let screen = model.viewportHeight
    let below = (scrollingDown ? tuning.leading : tuning.trailing) * screen
    let above = (scrollingDown ? tuning.trailing : tuning.leading) * screen
    let first = max(0, Int(((offset - above) / model.rowHeight).rounded(.down)))
    let last = min(model.rowCount - 1, Int(((offset + screen + below) / model.rowHeight).rounded(.up)) - 1)
    return first...max(first, last)
  }

  /// How many of `row`'s image nodes hold contents now.
  func contentsCount(ofRow row: Int) -> Int { nodes[row]?.contents.reduce(0) { $0 + ($1 == nil ? 0 : 1) } ?? 0 }

  /// `setDisplaySuspended:NO` → `setNeedsDisplay`: the node is in the display range and every image node
  /// needs display.
  private func enterDisplayState(_ node: CellNode) {
    node.inDisplayRange = true
    node.needsDisplay = Array(repeating: true, count: node.needsDisplay.count)
  }

  /// A row off screen entered the display range: its node (made now if it has none) goes to the render queue.
  private func enterDisplayRange(_ row: Int, feed: FeedView) {
    let node =
      nodes[row]
      ?? {
        let node = CellNode(images: feed.model.imagesPerRow)
        nodes[row] = node
        return node
      }()
    guard !node.inDisplayRange else { return }
    enterDisplayState(node)
    guard !node.queuedForDisplay else { return }
    node.queuedForDisplay = true
    renderQueue.scheduleTask(key: row) { [weak self, weak node, weak feed] in
      guard let self, let node, let feed else { return }
      node.queuedForDisplay = false
      self.displayIfNeeded(node, row: row, feed: feed)
    }
  }

  /// The render queue's handler (`_recursivelyTriggerDisplayAndBlock:NO` → `displayIfNeeded`): each image node
  /// that needs display displays, unless the node is suspended (out of the range) or gone (replaced).
  private func displayIfNeeded(_ node: CellNode, row: Int, feed: FeedView) {
    guard installed, node.inDisplayRange, nodes[row] === node else { return }
    let contents = feed.drawContents(ofRow: row)
    for index in contents.indices where node.needsDisplay[index] {
      display(contents[index].job, node: node, container: ObjectIdentifier(node.cell ?? node), immediately: true) {
        [weak feed] in feed?.apply($0, to: $1)
      }
    }
  }

  /// A row left the display range: `setDisplaySuspended:YES` (`cancelAsyncDisplay`: the sentinels move), and
  /// `clearContents` on the next main-queue turn if it is still out.
  private func exitDisplayRange(_ row: Int) {
    guard let node = nodes[row], node.inDisplayRange else { return }
    node.inDisplayRange = false
    node.sentinels.forEach { $0.increase() }
    DispatchQueue.main.async { [weak node] in
      MainActor.assumeIsolated {
        guard let node, !node.inDisplayRange else { return }
        node.contents = Array(repeating: nil, count: node.contents.count)
      }
    }
  }

  func scheduleTask(key: Int, _ task: @escaping @MainActor () -> Void) {
    DispatchQueue.main.async { MainActor.assumeIsolated { task() } }
  }

  /// Nothing of the display's own; the render queue (`ASRunLoopQueue`, with no removal) is emptied by the
  /// harness.
  func discardPending() {
    renderQueue.discardPending()
    for node in nodes.values { node.queuedForDisplay = false }
  }

  var pendingCount: Int { openTransactions.count + (ledger?.outstandingJobs ?? 0) + renderQueue.pendingCount }

  func uninstall() {
    installed = false
    if let observer { CFRunLoopObserverInvalidate(observer) }
    observer = nil
    commitTransactions()
    renderQueue.uninstall()
    nodes.removeAll()
    displayRangeRows.removeAll()
    rangeVisibleRows = nil
    lastOffset = nil
  }

  /// `displayAsyncLayer:asynchronously:YES` of image node `job.imageIndex` of `node`, joining `container`'s
  /// transaction; the completion sets the node's contents (with ranges) and `apply`s them to the cell hosting
  /// the node, if any.
  private func display(
    _ job: RenderJob, node: CellNode, container: ObjectIdentifier, commit: CommitObserver? = nil,
    immediately: Bool = false, apply: @escaping @MainActor (RenderedImage, FeedCell) -> Void
  ) {
    let index = job.imageIndex
    let sentinel = node.sentinels[index]
    let value = sentinel.increase()
    node.needsDisplay[index] = false
    node.displaying[index] = value
    let isCancelled: @Sendable () -> Bool = { value != sentinel.value }
    if synchronous {
      // `displayAsyncLayer:asynchronously:NO`: the draw and the contents, here on the main thread.
      let draw: @MainActor () -> Void = { [weak self, weak node] in
        guard let self, self.installed, let node else { return }
        if node.displaying[index] == value { node.displaying[index] = nil }
        guard !isCancelled(), let image = job.render() else { return }
        if self.ranges { node.contents[index] = image }
        if let cell = node.cell { apply(image, cell) }
      }
      if immediately || commit == nil { draw() } else { commit?.setNeedsDisplay(ObjectIdentifier(sentinel), draw) }
      return
    }
    let ledger = job.ledger
    let result = Locked<RenderedImage?>(nil)
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
      guard let self, self.installed, let node else { return }
      if node.displaying[index] == value { node.displaying[index] = nil }
      guard !isCancelled(), let image = result.value else { return }
      if self.ranges { node.contents[index] = image }
      guard let cell = node.cell else { return }
      apply(image, cell)
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
  /// `+[_ASDisplayLayer displayQueue]`: concurrent, targeting the high-priority global queue
  /// (`dispatch_get_global_queue(DISPATCH_QUEUE_PRIORITY_HIGH, 0)`, which GCD maps to `userInitiated`).
  private let displayQueue = DispatchQueue(
    label: "org.AsyncDisplayKit.ASDisplayLayer.displayQueue", attributes: .concurrent,
    target: .global(qos: .userInitiated))

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
