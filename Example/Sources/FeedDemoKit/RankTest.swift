import Foundation

/// Whether one strategy's runs are better, level or worse than another's in each profile-rate: a two-sided
/// Mann–Whitney U test (normal approximation with a tie correction, as `Example/compare.py` computes it) per
/// profile-rate, with Holm's correction across them at 5%. "Level" means not significantly different.
enum RankTest {
  /// The runs each strategy needs in a profile-rate before a verdict is given: with 3, even runs that never overlap
  /// cannot reach significance (p = 0.08); with 9, a clear difference can survive Holm's correction over 18.
  static let minimumRuns = 9
  /// The family-wise error rate.
  static let alpha = 0.05

  enum Outcome: Equatable {
    /// Significantly lower (every metric judged is lower-is-better).
    case better
    case level
    case worse
  }

  /// The two-sided p-value of the test of `a` against `b` (1 when either is empty or all values tie).
  static func pValue(_ a: [Double], _ b: [Double]) -> Double {
    let (n1, n2) = (Double(a.count), Double(b.count))
    guard n1 > 0, n2 > 0 else { return 1 }
    let pooled = (a.map { ($0, 0) } + b.map { ($0, 1) }).sorted { $0.0 < $1.0 }
    var ranks = [Double](repeating: 0, count: pooled.count)
    var ties = 0.0
    var i = 0
    while i < pooled.count {
      var j = i
      while j + 1 < pooled.count, pooled[j + 1].0 == pooled[i].0 { j += 1 }
      for k in i...j { ranks[k] = Double(i + j) / 2 + 1 }
      let t = Double(j - i + 1)
      ties += t * t * t - t
      i = j + 1
    }
    let r1 = zip(ranks, pooled).reduce(0.0) { $0 + ($1.1.1 == 0 ? $1.0 : 0) }
    let u = r1 - n1 * (n1 + 1) / 2
    let n = n1 + n2
    let variance = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1)))
    guard variance > 0 else { return 1 }
    let z = (abs(u - n1 * n2 / 2) - 0.5) / variance.squareRoot()
    return min(1, max(0, erfc(max(z, 0) / 2.0.squareRoot())))
  }

  /// Which of `pValues` Holm's step-down method rejects at ``alpha``.
  static func holm(_ pValues: [Double]) -> [Bool] {
    let order = pValues.indices.sorted { pValues[$0] < pValues[$1] }
    var rejected = [Bool](repeating: false, count: pValues.count)
    for (rank, k) in order.enumerated() {
      if pValues[k] > alpha / Double(pValues.count - rank) { break }
      rejected[k] = true
    }
    return rejected
  }

  /// Mine against theirs in each profile-rate (the pairs of run values), corrected across them.
  static func outcomes(_ pairs: [(mine: [Double], theirs: [Double])]) -> [Outcome] {
    let rejected = holm(pairs.map { pValue($0.mine, $0.theirs) })
    return zip(pairs, rejected).map { pair, reject in
      let (mine, theirs) = (median(pair.mine), median(pair.theirs))
      guard reject, mine != theirs else { return .level }
      return mine < theirs ? .better : .worse
    }
  }

  /// The middle value (the mean of the two middle ones for an even count); 0 for none.
  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }
}
