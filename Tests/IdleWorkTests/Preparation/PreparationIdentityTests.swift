import Foundation
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// Which preparations share results: those made by the same line of code (a copy, a computed property, one written
/// inline where it is used), and no others.
final class PreparationIdentityTests: XCTestCase {
  struct Thumbnails {
    let log = TextLog()

    /// Made anew on every use, by one line.
    var thumbnail: Preparation<String, String> {
      let log = log
      return Preparation { (name: String, _) in
        log.append(name)
        return "thumbnail of \(name)"
      }
    }
  }

  /// A preparation made again by the same line (a computed property) shares its prefetch's result: made once, a
  /// cache hit, nothing wasted.
  func testAPreparationMadeAgainByTheSameLineSharesItsPrefetch() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver)
      let thumbnails = Thumbnails()
      queue.prefetch(thumbnails.thumbnail, from: ["a"])
      XCTAssertEqual(driver.runPreparations(), 1)
      driver.runPass()
      var applied: [String] = []
      queue.addTask(key: 0, prepare: thumbnails.thumbnail, from: "a") { applied.append($0) }
      XCTAssertEqual(applied, ["thumbnail of a"], "applied inside addTask")
      XCTAssertEqual(thumbnails.log.entries, ["a"])
      let s = queue.statistics
      XCTAssertEqual([s.cacheHits, s.wastedPreparations], [1, 0])
    }
  }

  /// Preparations made by two lines never share, even with equal input and value types.
  func testPreparationsMadeByTwoLinesDoNotShare() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver)
      let small = Preparation { (name: String, _) in "small \(name)" }
      let large = Preparation { (name: String, _) in "large \(name)" }
      var applied: [String] = []
      queue.addTask(key: 0, prepare: small, from: "a") { applied.append($0) }
      queue.addTask(key: 1, prepare: large, from: "a") { applied.append($0) }
      XCTAssertEqual(driver.runPreparations(), 2)
      driver.drain()
      XCTAssertEqual(applied.sorted(), ["large a", "small a"])
    }
  }

  /// Keys: equal for a copy and for the same line made again, different for another line, another value type or
  /// another input.
  func testKeysFollowTheLineTheValueTypeAndTheInput() {
    func make() -> Preparation<String, String> { Preparation { (name: String, _) in name } }
    let one = make()
    let again = make()
    let copy = one
    let other = Preparation { (name: String, _) in name }
    XCTAssertEqual(one.key("a"), again.key("a"))
    XCTAssertEqual(one.key("a"), copy.key("a"))
    XCTAssertNotEqual(one.key("a"), other.key("a"))
    XCTAssertNotEqual(one.key("a"), one.key("b"))
    let main = Preparation.mainThread { (name: String) in name }
    XCTAssertNotEqual(one.key("a"), main.key("a"))
  }
}
