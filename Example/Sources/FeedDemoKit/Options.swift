import Foundation

/// Command-line options.
struct Options: Sendable {
  /// Print only the JSON document on stdout.
  var json = false
  /// Also write the JSON document here (so one run gives both the table and the JSON).
  var jsonPath: String?
  /// Also write the markdown tables here.
  var markdownPath: String?
  /// Write one SVG chart per profile into this directory.
  var svgDirectory: String?
  /// The CI smoke run.
  var quick = false
  /// Profiles to run.
  var profiles: [Profile] = Profile.allCases
  /// Refresh rates to run at.
  var refreshRates: [Int] = [60, 120]
  /// Strategies to run.
  var strategies: [StrategyKind] = StrategyKind.measuredByDefault
  /// Runs per figure (median, min and max are reported).
  var runs = 3
  /// Skip the throughput workloads.
  var skipThroughput = false
  /// Skip the enqueue-cost measurement.
  var skipEnqueueCost = false

  static let usage = """
    usage: FeedDemo [--quick] [--json] [--json-out PATH] [--markdown PATH] [--svg DIR] [--profile LIST]
                    [--hz LIST] [--strategies LIST] [--runs N] [--no-throughput] [--no-enqueue-cost]

      --quick             CI smoke run: reload and reloadSame at 60 Hz, 1 run, the default strategies (< 2 min)
      --json              print only the JSON document on stdout (progress goes to stderr)
      --json-out PATH     also write the JSON document to PATH
      --markdown PATH     also write the markdown tables to PATH
      --svg DIR           write DIR/feeddemo-<profile>.svg, frame commit latency per strategy and rate
      --profile LIST      \(Profile.allCases.map(\.rawValue).joined(separator: ",")) (default: all)
      --hz LIST           refresh rates, default 60,120
      --strategies LIST   \(StrategyKind.allCases.map(\.rawValue).joined(separator: ","))
                          (default: all but idleWork4ms, idleWork, dwuUnbind, runLoopQueueTuned,
                          noGuard, idleWorkPrepare1/2/4)
      --runs N            runs per figure (default 3; --quick: 1)
      --no-throughput     skip the throughput workloads
      --no-enqueue-cost   skip the addTask cost measurement
    """

  /// Parses `arguments` (without the program name); on error, returns a message.
  static func parse(_ arguments: [String]) -> Result<Options, OptionsError> {
    var options = Options()
    var explicit: Set<String> = []
    var iterator = arguments.makeIterator()
    func list(_ name: String) -> [String]? {
      iterator.next().map { $0.split(separator: ",").map(String.init) }
    }
    while let argument = iterator.next() {
      switch argument {
      case "--json": options.json = true
      case "--quick": options.quick = true
      case "--no-throughput": options.skipThroughput = true
      case "--no-enqueue-cost": options.skipEnqueueCost = true
      case "--json-out", "--markdown", "--svg":
        guard let path = iterator.next() else { return .failure(OptionsError("\(argument) needs a path")) }
        if argument == "--json-out" { options.jsonPath = path }
        if argument == "--markdown" { options.markdownPath = path }
        if argument == "--svg" { options.svgDirectory = path }
      case "--hz":
        let rates = (list(argument) ?? []).compactMap { Int($0) }
        guard !rates.isEmpty, rates.allSatisfy({ (1...480).contains($0) }) else {
          return .failure(OptionsError("--hz: rates must be integers in 1...480"))
        }
        options.refreshRates = rates
        explicit.insert(argument)
      case "--profile", "--profiles":
        var profiles: [Profile] = []
        for name in list(argument) ?? [] {
          guard let profile = Profile(rawValue: name) else { return .failure(OptionsError("unknown profile \(name)")) }
          profiles.append(profile)
        }
        guard !profiles.isEmpty else { return .failure(OptionsError("--profile needs a list")) }
        options.profiles = profiles
        explicit.insert("--profile")
      case "--strategies":
        var kinds: [StrategyKind] = []
        for name in list(argument) ?? [] {
          guard let kind = StrategyKind(rawValue: name) else {
            return .failure(OptionsError("unknown strategy \(name)"))
          }
          kinds.append(kind)
        }
        guard !kinds.isEmpty else { return .failure(OptionsError("--strategies needs a list")) }
        options.strategies = kinds
      case "--runs":
        guard let value = iterator.next(), let runs = Int(value), runs >= 1 else {
          return .failure(OptionsError("--runs needs an integer >= 1"))
        }
        options.runs = runs
        explicit.insert(argument)
      case "-h", "--help":
        return .failure(OptionsError(nil))
      default:
        return .failure(OptionsError("unknown argument \(argument)"))
      }
    }
    if options.quick {
      if !explicit.contains("--hz") { options.refreshRates = [60] }
      if !explicit.contains("--profile") { options.profiles = [.reload, .reloadSame] }
      if !explicit.contains("--runs") { options.runs = 1 }
    }
    return .success(options)
  }
}

/// A command-line error; `message` is `nil` for `--help`.
struct OptionsError: Error {
  let message: String?
  init(_ message: String?) { self.message = message }
}
