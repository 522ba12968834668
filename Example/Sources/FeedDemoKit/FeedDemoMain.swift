import Foundation

/// The program: parses the arguments, runs the benchmark on the main run loop and writes its outputs.
/// The `FeedDemo` executable only calls ``run(arguments:)``; everything else lives in this library so that
/// the metric tests can reach it.
public enum FeedDemoMain {
  /// Runs FeedDemo with `arguments` (without the program name) and returns the exit status. Call it on
  /// the main thread from a synchronous `main`: the benchmark drives the main run loop itself.
  @MainActor
  public static func run(arguments: [String]) -> Int32 {
    let options: Options
    switch Options.parse(arguments) {
    case .success(let parsed):
      options = parsed
    case .failure(let error):
      if let message = error.message {
        FileHandle.standardError.write(Data("FeedDemo: \(message)\n\n\(Options.usage)\n".utf8))
        return 2
      }
      print(Options.usage)
      return 0
    }
    // The main thread outranks the workers, as on iOS (see ``ThreadPriority``); threads it starts from now on
    // inherit its priority on Linux until they set their own.
    if ThreadPriority.userInteractive.applyToCurrentThread() {
      ThreadPriority.mainThread = "userInteractive"
    } else {
      ThreadPriority.mainThread = "unchanged"
      FileHandle.standardError.write(
        Data(
          ("FeedDemo: could not raise the main thread's priority (on Linux this needs CAP_SYS_NICE): strategies' "
            + "workers may take the cores from the frames, unlike on iOS\n").utf8))
    }
    let command = (["swift run -c release --package-path Example FeedDemo"] + arguments).joined(separator: " ")
    let report = Benchmark(options: options, command: command).run()
    let json = JSONReport.document(report).rendered() + "\n"
    let markdown = TableReport.render(report) + "\n"
    if options.json {
      print(json, terminator: "")
    } else if options.tables {
      print(markdown)
    }
    var outputs: [(path: String, text: String, what: String)] = []
    if let path = options.jsonPath { outputs.append((path, json, "JSON")) }
    if let path = options.markdownPath { outputs.append((path, markdown, "markdown")) }
    if let directory = options.svgDirectory {
      for profile in options.profiles {
        outputs.append(
          ("\(directory)/feeddemo-\(profile.rawValue).svg", SVGChart.render(report, profile: profile), "chart"))
      }
    }
    var written: [(path: String, what: String)] = []
    for output in outputs {
      do {
        try output.text.write(toFile: output.path, atomically: true, encoding: .utf8)
        written.append((output.path, output.what))
      } catch {
        FileHandle.standardError.write(Data("FeedDemo: cannot write \(output.path): \(error)\n".utf8))
        return 1
      }
    }
    // The verdict ends stdout (at most ten lines), or goes to stderr when stdout is the JSON document alone.
    let verdict = Verdict.lines(report, written: written, printedJSON: options.json).joined(separator: "\n") + "\n"
    if options.json {
      FileHandle.standardError.write(Data(("\n" + verdict).utf8))
    } else {
      print(verdict, terminator: "")
    }
    return 0
  }
}
