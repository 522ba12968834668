import Foundation

/// Runs one test method of this test binary in a child process, to observe a crash the test process itself
/// must survive (a `fatalError` for bad input).
///
/// On Linux `swift test` runs the XCTest bundle as an executable (`…/IdleWorkPackageTests.xctest`), which
/// `Bundle.main.executablePath` and `CommandLine.arguments[0]` both name; given `Module.Class/method` it
/// runs only that test. Core dumps are switched off for the child (`ulimit -c 0`) so a crash costs nothing.
struct ChildProcess {
  struct Outcome {
    let status: Int32
    let reason: Process.TerminationReason
    let standardOutput: String
    let standardError: String
    let seconds: TimeInterval
  }

  let testName: String
  let environment: [String: String]

  func run() throws -> Outcome {
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
