import CoreFoundation
import Foundation
import XCTest

@testable import IdleWork

/// The CoreFoundation glue, on the real main run loop (synchronous XCTest methods run on the main thread).
final class RunLoopGlueTests: XCTestCase {
  func testTasksRunOnePerPassOnTheRealRunLoop() {
    MainActor.assumeIsolated {
      let queue = IdleQueue()
      defer { queue.invalidate() }
      var ran: [Int] = []
      for i in 0..<5 { queue.addTask(key: i) { ran.append(i) } }
      let passes = PassCounter()
      defer { passes.remove() }
      spin(until: { ran.count == 5 }, timeout: 2)
      XCTAssertEqual(ran, [0, 1, 2, 3, 4])
      XCTAssertEqual(queue.statistics.passes, 5)
      XCTAssertEqual(queue.statistics.executed, 5)
    }
  }
}
