import Foundation

/// The queue's side of a ``LaterTask``: a task passed over until the app hands its work over, from any thread
/// (``Handover``), which wakes the queue through its inbox.
final class AwaitedWork<Cell>: LaterWork {
  let handover: Handover
  /// Turns the task's cell (`nil` for the form without one) into the `Cell` the work is given.
  private let cell: (AnyObject?) -> Cell
  /// The queue and the task's place in it, to leave as stale when its cell is configured again; the cell's record,
  /// whose later tasks it is one of while it waits.
  weak var queue: QueueCore?
  var seq: UInt64 = 0
  weak var record: CellRegistry.Record?
  /// The app's: told when the cell goes off screen or comes back, and once if the task leaves without running.
  private var onDisplayChange: (@MainActor (Bool) -> Void)?
  private var onAbandon: (@MainActor () -> Void)?

  init(
    inbox: BackgroundInbox, cell: @escaping (AnyObject?) -> Cell,
    onDisplayChange: (@MainActor (Bool) -> Void)? = nil, onAbandon: (@MainActor () -> Void)? = nil
  ) {
    handover = Handover(inbox: inbox)
    self.cell = cell
    self.onDisplayChange = onDisplayChange
    self.onAbandon = onAbandon
  }

  var isReady: Bool { handover.hasWork }

  func run(cell object: AnyObject?) {
    guard let work = handover.take() else { return }
    work.run(cell(object))
  }

  func left(_ fate: TaskFate) {
    let dropped = handover.take()
    withExtendedLifetime(dropped) {}  // what it captured, freed here: the main thread
    let abandoned = fate == .executed ? nil : onAbandon
    onDisplayChange = nil
    onAbandon = nil
    record?.removeLaterTask(self)
    abandoned?()
  }

  func cellDisplayChanged(isDisplayed: Bool) { onDisplayChange?(isDisplayed) }

  func cellConfiguredAgain() {
    guard let queue, let removal = queue.list.skipAsStale(seq) else { return }
    queue.release([removal])
  }

  /// The app's work, as it came.
  struct Work {
    let run: @MainActor @Sendable (Cell) -> Void
  }

  /// The work on its way from any thread, kept until a pass runs it or the task leaves.
  ///
  /// It never holds the last reference to the work off the main thread: the work is moved in, never copied (a
  /// closure stored as it came, not converted), and work that comes after the task left is moved, under the lock,
  /// to a bin a main-queue block empties — what it captured may be a view.
  ///
  /// `@unchecked Sendable`: every `var` is read and written only with `lock` held; `inbox` is immutable and itself
  /// thread-safe.
  final class Handover: @unchecked Sendable {
    private let lock = NSLock()
    private var work: Work?
    private var isFulfilled = false
    private var hasLeft = false
    private var releaseBin: [Work] = []
    private let inbox: BackgroundInbox

    init(inbox: BackgroundInbox) {
      self.inbox = inbox
    }

    /// Hands the work over. Once the task has left (run, stale, evicted, cancelled, or its queue ended) the work is
    /// only released, on the main thread. A second hand-over stops the program.
    func fulfill(_ work: consuming Work) {
      lock.lock()
      guard !isFulfilled else {
        lock.unlock()
        preconditionFailure("IdleWork: LaterTask.fulfill(_:) was called twice; a later task takes its work once")
      }
      isFulfilled = true
      guard !hasLeft else {
        if Thread.isMainThread {
          lock.unlock()
          return  // released here
        }
        releaseBin.append(consume work)
        let schedule = releaseBin.count == 1
        lock.unlock()
        if schedule { DispatchQueue.main.async { [self] in emptyReleaseBin() } }
        return
      }
      self.work = consume work
      lock.unlock()
      inbox.noteWorkArrived()
    }

    private func emptyReleaseBin() {
      lock.lock()
      let released = releaseBin
      releaseBin = []
      lock.unlock()
      withExtendedLifetime(released) {}
    }

    var hasWork: Bool {
      lock.lock()
      defer { lock.unlock() }
      return work != nil
    }

    /// Takes the work out (the task runs it, or leaves): later hand-overs are only released.
    func take() -> Work? {
      lock.lock()
      defer { lock.unlock() }
      hasLeft = true
      let taken = work
      work = nil
      return taken
    }
  }
}
