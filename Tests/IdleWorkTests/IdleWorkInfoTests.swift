import Foundation
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// The version constant is semantic and matches the CocoaPods metadata (`.ci/check-podspec` checks the rest).
final class IdleWorkInfoTests: XCTestCase {
  func testVersionIsSemantic() {
    let parts = IdleWorkInfo.version.split(separator: "-", maxSplits: 1)[0].split(separator: ".")
    XCTAssertEqual(parts.count, 3, "\(IdleWorkInfo.version) is not major.minor.patch")
    XCTAssertTrue(parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }, IdleWorkInfo.version)
  }

  func testPodspecVersionMatches() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let podspec = try String(contentsOf: root.appendingPathComponent("IdleWork.podspec"), encoding: .utf8)
    let versionLine = try XCTUnwrap(
      podspec.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("s.version ") })
    let quoted = versionLine.split(separator: "'")
    XCTAssertEqual(quoted.count, 2, "unexpected podspec line: \(versionLine)")
    XCTAssertEqual(quoted.last.map(String.init), IdleWorkInfo.version)
  }
}
