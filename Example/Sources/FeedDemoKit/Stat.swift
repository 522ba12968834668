/// A figure over repeated runs: the median with the min and max, so a reader sees the spread a noisy
/// shared machine put on it. For an even number of runs the median is the upper middle value; infinity
/// (a run that never completed) ranks above every number.
struct Stat: Sendable, Equatable {
  /// The median run's value.
  var median: Double
  /// The smallest and largest run values.
  var min: Double
  var max: Double
  /// Runs behind the figure.
  var runs: Int
  /// Every run's value, in run order (what a rank test compares).
  var values: [Double]

  /// The statistic of `values` (all zero for none).
  init(_ values: [Double]) {
    let sorted = values.sorted()
    median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    min = sorted.first ?? 0
    max = sorted.last ?? 0
    runs = sorted.count
    self.values = values
  }

  /// `median [min–max]` with `digits` decimals, or just the value when all runs agree.
  func text(_ digits: Int) -> String {
    let m = fmt(median, digits)
    if runs < 2 || (fmt(min, digits) == m && fmt(max, digits) == m) { return m }
    return "\(m) [\(fmt(min, digits))–\(fmt(max, digits))]"
  }
}

/// `value` with `digits` decimals; "never" for infinity (content that never completed), "-" for NaN.
func fmt(_ value: Double, _ digits: Int) -> String {
  guard value.isFinite else { return value > 0 ? "never" : "-" }
  var result = String(Int64((abs(value) * pow10(digits)).rounded()))
  if digits > 0 {
    while result.count <= digits { result = "0" + result }
    result.insert(".", at: result.index(result.endIndex, offsetBy: -digits))
  }
  return (value < 0 && result.contains(where: { $0 != "0" && $0 != "." }) ? "-" : "") + result
}

private func pow10(_ n: Int) -> Double { (0..<n).reduce(1.0) { acc, _ in acc * 10 } }
