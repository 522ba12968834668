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
  /// The full sweep (`--full`): every profile, the headline's strategies and their peers.
  var full = false
  /// Print the markdown tables on stdout before the verdict.
  var tables = false
  /// Profiles to run.
  var profiles: [Profile] = Sweep.newcomer.profiles
  /// Refresh rates to run at.
  var refreshRates: [Int] = [60, 120]
  /// Strategies to run.
  var strategies: [StrategyKind] = Sweep.newcomer.strategies
  /// Runs per figure (median, min and max are reported).
  var runs = 3
  /// Skip the throughput workloads (run by `--quick` and `--throughput` only).
  var skipThroughput = true
  /// Skip the enqueue-cost measurement (run by `--quick` and `--enqueue-cost` only).
  var skipEnqueueCost = true
  /// How busy a thread keeps one core through the whole run (`--load`, 0: none): a contended run, for the
  /// reproduction check (the `busy` profile then has two such loads).
  var load = 0.0

  static let usage = """
    usage: FeedDemo [--full | --quick] [--tables] [--json] [--json-out PATH] [--markdown PATH] [--svg DIR]
                    [--profile LIST] [--hz LIST] [--strategies LIST] [--runs N] [--load DUTY] [--throughput] [--enqueue-cost]

      (no flag)           the newcomer's run: \(Sweep.newcomer.summary) (~6 min on 2 cores)
      --full              the full sweep: \(Sweep.full.summary) (~16 min)
      --quick             CI smoke run: \(Sweep.quick.summary), with the throughput workloads and addTask's cost
      --tables            print the markdown tables (every figure) on stdout before the verdict
      --json              print only the JSON document on stdout (progress goes to stderr)
      --json-out PATH     also write the JSON document to PATH
      --markdown PATH     also write the markdown tables to PATH
      --svg DIR           write DIR/feeddemo-<profile>.svg, frame commit latency per strategy and rate
      --profile LIST      \(Profile.allCases.map(\.rawValue).joined(separator: ","))
                          (default: the sweep's — \(Sweep.newcomer.profiles.map(\.rawValue).joined(separator: ",")) without a flag)
      --hz LIST           refresh rates (default: 60,120; --quick: 60)
      --strategies LIST   \(StrategyKind.allCases.map(\.rawValue).joined(separator: ","))
      --runs N            runs per figure (default: the sweep's; --quick: 1)
      --load DUTY         keep one core DUTY busy (0 < DUTY <= 1) through the whole run: a contended run
      --throughput        also run the throughput workloads (--no-throughput: skip them under --quick)
      --enqueue-cost      also measure addTask's cost (--no-enqueue-cost: skip it under --quick)
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
      case "--full": options.full = true
      case "--tables": options.tables = true
      case "--throughput", "--no-throughput", "--enqueue-cost", "--no-enqueue-cost":
        explicit.insert(argument)
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
        explicit.insert(argument)
      case "--runs":
        guard let value = iterator.next(), let runs = Int(value), runs >= 1 else {
          return .failure(OptionsError("--runs needs an integer >= 1"))
        }
        options.runs = runs
        explicit.insert(argument)
      case "--load":
        guard let value = iterator.next(), let duty = Double(value), duty > 0, duty <= 1 else {
          return .failure(OptionsError("--load needs a duty within 0 < DUTY <= 1, e.g. 0.5"))
        }
        options.load = duty
      case "-h", "--help":
        return .failure(OptionsError(nil))
      default:
        return .failure(OptionsError("unknown argument \(argument)"))
      }
    }
    if options.quick && options.full { return .failure(OptionsError("--quick and --full exclude each other")) }
    let sweep: Sweep = options.quick ? .quick : options.full ? .full : .newcomer
    if !explicit.contains("--hz") { options.refreshRates = sweep.refreshRates }
    if !explicit.contains("--profile") { options.profiles = sweep.profiles }
    if !explicit.contains("--strategies") { options.strategies = sweep.strategies }
    if !explicit.contains("--runs") { options.runs = sweep.runs }
    options.skipThroughput =
      !explicit.contains("--throughput") && (!options.quick || explicit.contains("--no-throughput"))
    options.skipEnqueueCost =
      !explicit.contains("--enqueue-cost") && (!options.quick || explicit.contains("--no-enqueue-cost"))
    return .success(options)
  }
}

/// A command-line error; `message` is `nil` for `--help`.
struct OptionsError: Error {
  let message: String?
  init(_ message: String?) { self.message = message }
}
