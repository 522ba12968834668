/// Real CPU work used where the simulation needs "work that costs time": a frame's layout/render pass,
/// a cell's label layout and the throughput workload's small tasks. Never sleeps.
///
/// The kernel is a xorshift generator folded into a floating-point accumulator, so the optimiser can
/// neither vectorise it away nor hoist it; every caller keeps the returned value.
enum CPUWork {
  /// Runs `iterations` rounds of the kernel and returns its result.
  @inline(never)
  static func run(iterations: Int, seed: UInt64) -> UInt64 {
    var x = seed | 1
    var acc = 0.0
    for _ in 0..<iterations {
      x ^= x << 13
      x ^= x >> 7
      x ^= x << 17
      acc = acc * 0.999_999 + Double(x & 0xFFFF) * 1e-3
    }
    return x ^ UInt64(truncatingIfNeeded: Int64(acc))
  }

  /// Runs the kernel in small chunks until `nanoseconds` have passed: a fixed amount of main-thread
  /// time, as a frame's layout and render work has, however fast the machine is.
  @inline(never)
  static func run(forNanoseconds nanoseconds: UInt64, seed: UInt64) -> UInt64 {
    let end = Clock.now + nanoseconds
    var result = seed
    repeat {
      result = run(iterations: 256, seed: result)
    } while Clock.now < end
    return result
  }

  /// Kernel iterations per nanosecond on this machine, timed once per process, on first use (FeedDemo uses it
  /// before it starts any thread, so no other work slows the timing).
  nonisolated static let iterationsPerNanosecond: Double = Double(iterations(forMicroseconds: 1_000)) / 1_000_000

  /// How many kernel iterations take about `microseconds` on this machine (median of five timings).
  static func iterations(forMicroseconds microseconds: Double) -> Int {
    let probe = 200_000
    var samples: [Double] = []
    var sink: UInt64 = 0
    for round in 0..<5 {
      let start = Clock.now
      sink &+= run(iterations: probe, seed: UInt64(round) + 7)
      samples.append(Double(Clock.now - start) / Double(probe))
    }
    samples.sort()
    let nanosPerIteration = samples[2] + Double(sink & 1) * 1e-12
    return max(1, Int((microseconds * 1000 / nanosPerIteration).rounded()))
  }
}
