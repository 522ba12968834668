import IdleWork

/// A preparation's life as the pool's lock guards it, as a pure value: its phase and the requests that wait for it.
/// Every change is an ``Event`` given to ``apply(_:)``, which returns what the pool must do about it, so the rules
/// are stepped exactly by tests, apart from the storage (``PreparationRun``) and its lock.
struct PreparationLife: Equatable {
  enum Phase: Equatable {
    /// Requested, not started: it starts only while a request wants it now.
    case waiting
    case running
    /// `prepare` returned (`succeeded`) or threw; the outcome waits for the main thread, or has reached it.
    case finished(succeeded: Bool)
    /// Dropped before it started: no request wanted it any more, or its queue ended.
    case dropped
  }

  /// The requests that wait for it.
  struct Requests: Equatable {
    /// Requests that have not left (applied, stale, evicted, cancelled or failed).
    var live = 0
    /// Live requests whose cell is on screen, or that have no cell: it starts only while there are some.
    var wanted = 0
    /// Wanted requests of visible rows and plain tasks (not prefetches nor droppable tasks): they go first.
    var urgent = 0
    /// Live requests that belong to a cell.
    var cells = 0
  }

  enum Event: Equatable {
    /// Requests joined (counts above 0) or left (below 0).
    case requests(Requests)
    /// A worker, or a pass, started it.
    case started
    /// `prepare` returned (`succeeded`) or threw, or its run was ended by its queue's end.
    case finished(succeeded: Bool)
    /// Its queue ended.
    case queueEnded
  }

  /// What the pool must do after an event.
  struct Effects: Equatable {
    /// How the count of waiting preparations some request wants changes.
    var wantedWaiting = 0
    /// It waits and a request now wants it: a worker may start it.
    var mayStart = false
    /// It waits and a visible row now wants it: it is the latest visible row.
    var becameVisible = false
    /// It runs and a visible row joined it: a prefetch running is raised.
    var joinedWhileRunning = false
    /// It was dropped: its work is released.
    var dropped = false
    /// It runs and nothing waits for it: its work is cancelled.
    var cancelRunning = false
  }

  private(set) var phase = Phase.waiting
  private(set) var requests: Requests

  init(requests: Requests = Requests()) {
    self.requests = requests
  }

  /// Whether `event` can happen now: a start only of a preparation waiting and wanted, an end only of one running,
  /// requests leaving only as many as joined.
  func allows(_ event: Event) -> Bool {
    switch event {
    case .requests(let change):
      return requests.live + change.live >= 0 && requests.wanted + change.wanted >= 0
        && requests.urgent + change.urgent >= 0 && requests.cells + change.cells >= 0
    case .started: return phase == .waiting && requests.wanted > 0
    case .finished: return phase == .running
    case .queueEnded: return true
    }
  }

  /// Applies `event` and returns what the pool must do. An event it does not ``allows(_:)`` stops the program: the
  /// pool's bookkeeping is wrong.
  mutating func apply(_ event: Event) -> Effects {
    precondition(allows(event), "IdleWork: a preparation in phase \(phase) cannot take \(event)")
    var effects = Effects()
    switch event {
    case .requests(let change):
      let was = requests
      requests.live += change.live
      requests.wanted += change.wanted
      requests.urgent += change.urgent
      requests.cells += change.cells
      switch phase {
      case .waiting:
        effects.wantedWaiting = (requests.wanted > 0 ? 1 : 0) - (was.wanted > 0 ? 1 : 0)
        effects.becameVisible = was.urgent == 0 && requests.urgent > 0
        if requests.live == 0 {
          phase = .dropped
          effects.dropped = true
        } else {
          effects.mayStart = was.wanted == 0 && requests.wanted > 0
        }
      case .running:
        effects.cancelRunning = requests.live == 0
        effects.joinedWhileRunning = was.urgent == 0 && requests.urgent > 0
      case .finished, .dropped:
        break
      }
    case .started:
      phase = .running
      effects.wantedWaiting = -1
    case .finished(let succeeded):
      phase = .finished(succeeded: succeeded)
    case .queueEnded:
      guard phase == .waiting else { break }
      phase = .dropped
      effects.dropped = true
      effects.wantedWaiting = requests.wanted > 0 ? -1 : 0
    }
    return effects
  }
}
