/// A small, fast, seeded random number generator (SplitMix64), so that a failing sequence of the model
/// test can be replayed exactly from its seed on any machine.
package struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  /// Creates a generator whose whole output is determined by `seed`.
  package init(seed: UInt64) {
    state = seed
  }

  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniformly chosen integer in `range`.
  package mutating func int(_ range: ClosedRange<Int>) -> Int {
    Int.random(in: range, using: &self)
  }

  /// `true` with probability `percent` / 100.
  package mutating func chance(_ percent: Int) -> Bool {
    int(0...99) < percent
  }

  /// One element of a non-empty array.
  package mutating func pick<T>(_ choices: [T]) -> T {
    choices[int(0...(choices.count - 1))]
  }
}
