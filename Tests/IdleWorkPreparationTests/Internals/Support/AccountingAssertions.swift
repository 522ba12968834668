import XCTest

@testable import IdleWork

/// The accounting identity and the prepared counters' bounds, checked after a mutation.
@MainActor
func assertPreparedBalanced(_ queue: IdleQueue, file: StaticString = #filePath, line: UInt = #line) {
  let s = queue.statistics
  XCTAssertTrue(s.isBalanced, s.summary, file: file, line: line)
  XCTAssertLessThanOrEqual(s.staleAfterPrepare, s.skippedAsStale, file: file, line: line)
}
