import Foundation

/// Command-line options.
struct Options: Sendable {
  /// Print only the JSON document on stdout.
  var json = false
  /// Write the frame-interval chart here.
  var svgPath: String?
  /// Also write the JSON document here (so one run gives both the table and the JSON).
  var jsonPath: String?
  /// The short smoke scenario.
  var quick = false
  /// Refresh rates to run the feed at.
  var refreshRates: [Int] = [60, 120]
  /// Strategies to run.
  var strategies: [StrategyKind] = StrategyKind.allCases
  /// Runs per figure (the median is reported).
  var runs = 1
  /// Skip the throughput workload.
  var skipThroughput = false

  static let usage = """
    usage: FeedDemo [--quick] [--json] [--json-out PATH] [--svg PATH] [--hz 60,120] [--strategies a,b] [--runs N] [--no-throughput]

      --quick           short smoke scenario (60 Hz, 30-row fling, 1 s drag, 2,000 tasks); every strategy
      --json            print only the JSON document on stdout (progress goes to stderr)
      --json-out PATH   also write the JSON document to PATH
      --svg PATH        write an SVG chart of frame intervals over time per strategy
      --hz LIST         refresh rates, default 60,120
      --strategies LIST default: \(StrategyKind.allCases.map(\.rawValue).joined(separator: ","))
      --runs N          runs per figure; the median is reported (default 1; the README table uses 3)
      --no-throughput   skip the 20,000-task throughput workload
    """

  /// Parses `arguments` (without the program name); on error, returns a message.
  static func parse(_ arguments: [String]) -> Result<Options, OptionsError> {
    var options = Options()
    var explicitHz = false
    var iterator = arguments.makeIterator()
    while let argument = iterator.next() {
      switch argument {
      case "--json": options.json = true
      case "--quick": options.quick = true
      case "--no-throughput": options.skipThroughput = true
      case "--json-out":
        guard let path = iterator.next() else { return .failure(OptionsError("--json-out needs a path")) }
        options.jsonPath = path
      case "--svg":
        guard let path = iterator.next() else { return .failure(OptionsError("--svg needs a path")) }
        options.svgPath = path
      case "--hz":
        guard let list = iterator.next() else { return .failure(OptionsError("--hz needs a list")) }
        let rates = list.split(separator: ",").compactMap { Int($0) }
        guard !rates.isEmpty, rates.allSatisfy({ (1...480).contains($0) }) else {
          return .failure(OptionsError("--hz: rates must be integers in 1...480, got \(list)"))
        }
        options.refreshRates = rates
        explicitHz = true
      case "--strategies":
        guard let list = iterator.next() else { return .failure(OptionsError("--strategies needs a list")) }
        var kinds: [StrategyKind] = []
        for name in list.split(separator: ",") {
          guard let kind = StrategyKind(rawValue: String(name)) else {
            return .failure(OptionsError("unknown strategy \(name)"))
          }
          kinds.append(kind)
        }
        options.strategies = kinds
      case "--runs":
        guard let value = iterator.next(), let runs = Int(value), runs >= 1 else {
          return .failure(OptionsError("--runs needs an integer >= 1"))
        }
        options.runs = runs
      case "-h", "--help":
        return .failure(OptionsError(nil))
      default:
        return .failure(OptionsError("unknown argument \(argument)"))
      }
    }
    if options.quick, !explicitHz { options.refreshRates = [60] }
    return .success(options)
  }
}

/// A command-line error; `message` is `nil` for `--help`.
struct OptionsError: Error {
  let message: String?
  init(_ message: String?) { self.message = message }
}
