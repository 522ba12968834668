import Foundation
import XCTest

/// The documents the README's Performance section is made of (Example/results.json and
/// Example/runs/*.json, which `readme-tables.py` folds into the [min–max] ranges) must each pass the repository's
/// own validator, and the README's reproduction sentence — which `.ci/run` checks against
/// `readme-tables.py --check Example/reproduction-check.json` — must be filled in from a committed file.
final class CommittedDocumentsTests: XCTestCase {
  private var example: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  }

  private func checkJSON(_ document: URL) throws -> (code: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = [example.appendingPathComponent("check-json.sh").path, document.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  func testEveryCommittedRunPassesCheckJSON() throws {
    let runs = example.appendingPathComponent("runs")
    let documents =
      [example.appendingPathComponent("results.json")]
      + (try FileManager.default.contentsOfDirectory(at: runs, includingPropertiesForKeys: nil))
      .filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path }
    for document in documents {
      let (code, output) = try checkJSON(document)
      XCTAssertEqual(code, 0, "\(document.lastPathComponent): \(output.prefix(600))")
    }
  }

  func testTheReproductionSentenceIsFilledInFromACommittedCheck() throws {
    let readme = try String(
      contentsOf: example.deletingLastPathComponent().appendingPathComponent("README.md"), encoding: .utf8)
    XCTAssertFalse(
      readme.contains("checked\nthe ranges: REPRODUCTION") || readme.contains(": REPRODUCTION."),
      "README.md still holds the placeholder REPRODUCTION")
    XCTAssertTrue(
      FileManager.default.fileExists(atPath: example.appendingPathComponent("reproduction-check.json").path),
      ".ci/run runs readme-tables.py --check Example/reproduction-check.json, which is not committed")
  }
}
