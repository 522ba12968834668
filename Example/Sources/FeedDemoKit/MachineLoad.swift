import Foundation

/// How much of the machine *other* processes used while FeedDemo ran: every core's busy time
/// (`/proc/stat`'s first line: user, nice, system, irq, softirq, steal) less this process's own CPU time
/// (`getrusage`), over the wall time, in cores. The `busy` profile's load is a thread of this process, so it
/// is not counted. Where there is no `/proc/stat` (macOS) the figure is unknown and no warning is given.
///
/// A run whose figure exceeds ``busyCores`` is flagged: its dropped frames and blank cell·s are not the
/// strategies' own (an audit saw a loaded machine reverse a comparison).
struct MachineLoad: Sendable, Equatable {
  /// Jiffies of all cores: busy and total.
  struct Sample: Sendable, Equatable {
    var busyTicks: UInt64
    var totalTicks: UInt64
  }

  /// Other processes' average use over which a run is called busy, in cores: a quarter of a core.
  static let busyCores = 0.25

  /// Reads `/proc/stat` now (`nil` without it).
  static func sample() -> Sample? {
    guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return nil }
    return parse(text)
  }

  /// The first line of a `/proc/stat` text (`cpu  user nice system idle iowait irq softirq steal …`).
  static func parse(_ text: String) -> Sample? {
    guard let line = text.split(separator: "\n").first, line.hasPrefix("cpu ") else { return nil }
    let fields = line.split(separator: " ").dropFirst().compactMap { UInt64($0) }
    guard fields.count >= 8 else { return nil }
    let busy = fields[0] + fields[1] + fields[2] + fields[5] + fields[6] + fields[7]
    let total = fields[0..<8].reduce(0, +)
    return Sample(busyTicks: busy, totalTicks: total)
  }

  /// Other processes' average use between two samples, in cores: `(busy ticks / ticks per second − own CPU
  /// seconds) / wall seconds`, never below 0. `nil` if a sample is missing or no time passed.
  static func otherCores(
    from start: Sample?, to end: Sample?, ownCPUSeconds: Double, wallSeconds: Double,
    ticksPerSecond: Double = Self.ticksPerSecond
  ) -> Double? {
    guard let start, let end, wallSeconds > 0, end.busyTicks >= start.busyTicks else { return nil }
    let busySeconds = Double(end.busyTicks - start.busyTicks) / ticksPerSecond
    return max(0, (busySeconds - ownCPUSeconds) / wallSeconds)
  }

  /// `sysconf(_SC_CLK_TCK)`: the unit of `/proc/stat`.
  static var ticksPerSecond: Double {
    let ticks = sysconf(Int32(_SC_CLK_TCK))
    return ticks > 0 ? Double(ticks) : 100
  }

  /// Whether `otherCores` makes the run's figures unreliable.
  static func isBusy(_ otherCores: Double?) -> Bool { (otherCores ?? 0) > busyCores }

  /// A watch over a span of the run: start it, then ask for the other processes' use so far.
  struct Watch: Sendable {
    let start: Sample?
    let startNanos: UInt64
    let ownStartMs: Double

    /// Starts watching now.
    init() {
      start = MachineLoad.sample()
      startNanos = Clock.now
      ownStartMs = ProcessProbe.processCPUMilliseconds()
    }

    /// Other processes' average use since the start, in cores (`nil`: unknown).
    func otherCores() -> Double? {
      MachineLoad.otherCores(
        from: start, to: MachineLoad.sample(),
        ownCPUSeconds: (ProcessProbe.processCPUMilliseconds() - ownStartMs) / 1000,
        wallSeconds: Double(Clock.now - startNanos) / 1e9)
    }
  }

  /// One sentence on the load, for the verdict and the progress: quiet or busy, with the figure.
  static func sentence(_ otherCores: Double?, processors: Int) -> String {
    guard let otherCores else { return "other processes' CPU use unknown (no /proc/stat)" }
    let figure = "other processes used \(fmt(otherCores, 2)) of \(processors) cores"
    if isBusy(otherCores) {
      return "WARNING: the machine was busy (\(figure)): these figures are not the strategies' own; "
        + "run again on a quiet machine"
    }
    return "the machine was quiet (\(figure))"
  }
}
