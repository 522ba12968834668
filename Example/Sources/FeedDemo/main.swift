import Foundation

// FeedDemo: a feed simulated on the real main CFRunLoop, comparing how image draws get scheduled.
// A synchronous entry point: the program drives the main run loop itself (an async `main` never runs it).

let arguments = Array(CommandLine.arguments.dropFirst())
let options: Options
switch Options.parse(arguments) {
case .success(let parsed):
  options = parsed
case .failure(let error):
  if let message = error.message {
    FileHandle.standardError.write(Data("FeedDemo: \(message)\n\n\(Options.usage)\n".utf8))
    exit(2)
  }
  print(Options.usage)
  exit(0)
}

MainActor.assumeIsolated {
  let command = (["swift run -c release --package-path Example FeedDemo"] + arguments).joined(separator: " ")
  let report = Benchmark(options: options, command: command).run()
  if options.json {
    print(JSONReport.document(report).rendered())
  } else {
    print(TableReport.render(report))
  }
  var outputs: [(path: String, text: String, what: String)] = []
  if let path = options.jsonPath { outputs.append((path, JSONReport.document(report).rendered() + "\n", "JSON")) }
  if let path = options.svgPath { outputs.append((path, SVGChart.render(report), "chart")) }
  for output in outputs {
    do {
      try output.text.write(toFile: output.path, atomically: true, encoding: .utf8)
      FileHandle.standardError.write(Data("FeedDemo: \(output.what) written to \(output.path)\n".utf8))
    } catch {
      FileHandle.standardError.write(Data("FeedDemo: cannot write \(output.path): \(error)\n".utf8))
      exit(1)
    }
  }
}
