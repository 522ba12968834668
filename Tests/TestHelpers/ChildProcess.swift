import Foundation
import XCTest

/// Runs one test method of this test binary in a child process, to observe a crash the test process itself
/// must survive (a `fatalError` for bad input).
///
/// On Linux `swift test` runs the XCTest bundle as an executable (`…/IdleWorkPackageTests.xctest`), which
/// `Bundle.main.executablePath` and `CommandLine.arguments[0]` both name; given `Module.Class/method` it
/// runs only that test. Core dumps are switched off for the child (`ulimit -c 0`) so a crash costs nothing.
package struct ChildProcess {
  package struct Outcome {
    package let status: Int32
    package let reason: Process.TerminationReason
    package let standardOutput: String
    package let standardError: String
    package let seconds: TimeInterval
  }

  package let testName: String
  package let environment: [String: String]

  package init(testName: String, environment: [String: String]) {
    self.testName = testName
    self.environment = environment
  }

  package func run() throws -> Outcome {
    let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("idlework-child-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let outURL = directory.appendingPathComponent("stdout")
    let errURL = directory.appendingPathComponent("stderr")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let out = try FileHandle(forWritingTo: outURL)
    let err = try FileHandle(forWritingTo: errURL)

    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "ulimit -c 0; exec \"$0\" \"$@\"", executable, testName]
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardOutput = out
    process.standardError = err
    let started = Date()
    try process.run()
    process.waitUntilExit()
    try out.close()
    try err.close()
    return Outcome(
      status: process.terminationStatus, reason: process.terminationReason,
      standardOutput: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
      standardError: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "",
      seconds: Date().timeIntervalSince(started))
  }
}

/// Each case of `inputs` given to one test method run in a child process (`childTest`, which reads the case from
/// `variable`) must stop that process with a trap whose message holds every fragment `fragments(case)` gives.
/// Returns one failure description per broken expectation (empty: every case stopped as it should).
package func childProcessesThatDidNotStop<Input: RawRepresentable<String>>(
  _ inputs: [Input], childTest: String, variable: String, fragments: (Input) -> [String]
) throws -> [String] {
  var failures: [String] = []
  for input in inputs {
    let outcome = try ChildProcess(
      testName: childTest, environment: [variable: input.rawValue, "SWIFT_BACKTRACE": "enable=no"]
    )
    .run()
    let context = "\(input.rawValue): exit \(outcome.status) (\(outcome.reason)), stderr:\n\(outcome.standardError)"
    if outcome.reason != .uncaughtSignal { failures.append("the program did not stop with a trap — \(context)") }
    if outcome.standardOutput.contains("IDLEWORK-CHILD-SURVIVED") { failures.append("survived — \(context)") }
    if !outcome.standardError.contains("Fatal error") { failures.append("no fatal error message — \(context)") }
    for fragment in fragments(input) where !outcome.standardError.contains(fragment) {
      failures.append("message lacks \"\(fragment)\" — \(context)")
    }
  }
  return failures
}

/// In a child process that ``childProcessesThatDidNotStop(_:childTest:variable:fragments:)`` started (`variable` set),
/// performs the case it names, which must stop the program, and fails the test if it did not. Returns whether this
/// is such a child: the caller then returns at once.
@MainActor
package func performedAsChild<Input: RawRepresentable<String>>(
  variable: String, file: StaticString = #filePath, line: UInt = #line, _ perform: (Input) -> Void
) -> Bool {
  guard let name = ProcessInfo.processInfo.environment[variable] else { return false }
  guard let input = Input(rawValue: name) else {
    XCTFail("unknown case \(name)", file: file, line: line)
    return true
  }
  perform(input)
  print("IDLEWORK-CHILD-SURVIVED")
  XCTFail("\(name) did not stop the program", file: file, line: line)
  return true
}
