/// The cost of handing one task over, in nanoseconds per enqueue, for every strategy's enqueue path, side
/// by side with a plain `Array.append` of the same closure — outside the run-loop scenario, so only the
/// enqueue itself is timed (the queued tasks are dropped unrun).
@MainActor
enum EnqueueCost {
  /// Nanoseconds per call of `enqueue` over `count` calls, for each of `repetitions` repetitions;
  /// `prepare` runs before and `cleanup` after each repetition, untimed.
  static func measure(
    count: Int, repetitions: Int, prepare: () -> Void = {}, enqueue: (Int) -> Void, cleanup: () -> Void = {}
  ) -> [Double] {
    (0..<repetitions).map { _ in
      prepare()
      let start = Clock.now
      for index in 0..<count { enqueue(index) }
      let nanos = Double(Clock.now - start)
      cleanup()
      return nanos / Double(max(count, 1))
    }
  }

  /// Nanoseconds per `scheduleTask` of `kind`, installed for the throughput workload (queue limits lifted).
  static func strategy(_ kind: StrategyKind, count: Int, repetitions: Int) -> [Double] {
    var strategy: FeedStrategy?
    let task: @MainActor () -> Void = {}
    return measure(
      count: count, repetitions: repetitions,
      prepare: {
        strategy = kind.make()
        strategy?.install(for: .throughput, displayLink: nil)
      },
      enqueue: { strategy?.scheduleTask(key: $0, task) },
      cleanup: {
        strategy?.uninstall()
        strategy = nil
      })
  }

  /// Nanoseconds per `Array.append` of the same closure type: the floor any queue is compared with.
  static func arrayAppend(count: Int, repetitions: Int) -> [Double] {
    var array: [@MainActor () -> Void] = []
    let task: @MainActor () -> Void = {}
    var kept = 0
    let result = measure(
      count: count, repetitions: repetitions, prepare: { array = [] }, enqueue: { _ in array.append(task) },
      cleanup: {
        kept &+= array.count
        array = []
      })
    return kept >= 0 ? result : []
  }
}
