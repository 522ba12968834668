import Foundation
import IdleWork
import IdleWorkPreparation
import IdleWorkTesting
import TestHelpers
import XCTest

/// Which preparations share results and in-flight work: copies of one value, and those with equal identifiers; never
/// one made anew, and never inputs of different types.
final class PreparationIdentityTests: XCTestCase {
  /// The ordinary way to write "a thumbnail at a size".
  static func thumbnail(size: Int, log: TextLog) -> Preparation<String, String> {
    Preparation { (photo: String, _) in
      log.append("\(size) \(photo)")
      return "\(size) px \(photo)"
    }
  }

  /// Runs a plain task for `input` to its apply; returns what it applied, and whether it applied inside `addTask`.
  @MainActor
  static func show<Input, Value>(
    _ preparation: Preparation<Input, Value>, _ input: Input, on preparer: Preparer, _ driver: ManualPassDriver
  ) -> (value: Value?, atOnce: Bool) {
    var applied: Value?
    preparer.addTask(key: UUID(), prepare: preparation, from: input) { applied = $0 }
    let atOnce = applied != nil
    driver.runPreparations()
    driver.drain()
    return (applied, atOnce)
  }

  /// A factory called for list rows (40) and a detail header (200): the header shows its own size, not the list's
  /// cached thumbnail.
  func testAFactorysTwoSizesShowTheirOwnResult() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let preparer = Preparer(queue: IdleQueue(driver: driver))
      let log = TextLog()
      XCTAssertEqual(Self.show(Self.thumbnail(size: 40, log: log), "photo", on: preparer, driver).value, "40 px photo")
      let header = Self.show(Self.thumbnail(size: 200, log: log), "photo", on: preparer, driver)
      XCTAssertEqual(header.value, "200 px photo")
      XCTAssertFalse(header.atOnce)
      XCTAssertEqual(log.entries, ["40 photo", "200 photo"])
      XCTAssertEqual(preparer.statistics.cacheHits, 0)
      assertBalanced(preparer)
    }
  }

  /// Preparations made in a loop, one per size: each shows its own result.
  func testPreparationsMadeInALoopShowTheirOwnResult() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let preparer = Preparer(queue: IdleQueue(driver: driver))
      let sizes = [40, 80, 200]
      let preparations = sizes.map { size in Preparation { (photo: String, _) in "\(size) px \(photo)" } }
      let shown = preparations.map { Self.show($0, "photo", on: preparer, driver).value }
      XCTAssertEqual(shown, ["40 px photo", "80 px photo", "200 px photo"])
    }
  }

  /// One generic helper with one identifier, used with two input types whose `AnyHashable`s are equal (`1` and
  /// `1.0`): the two never share.
  func testInputsOfDifferentTypesNeverShare() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let preparer = Preparer(queue: IdleQueue(driver: driver))
      func describing<Input: Hashable & Sendable>(_: Input.Type) -> Preparation<Input, String> {
        Preparation { (input: Input, _) in "\(Input.self) \(input)" }.identified(by: "describe")
      }
      XCTAssertEqual(AnyHashable(1), AnyHashable(1.0), "the case this test is about")
      XCTAssertEqual(Self.show(describing(Int.self), 1, on: preparer, driver).value, "Int 1")
      let double = Self.show(describing(Double.self), 1.0, on: preparer, driver)
      XCTAssertEqual(double.value, "Double 1.0")
      XCTAssertFalse(double.atOnce)
    }
  }

  /// Copies of one preparation share: a prefetch with the stored value, a task with a copy of it, made once.
  func testCopiesShare() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let preparer = Preparer(queue: IdleQueue(driver: driver))
      let log = TextLog()
      let thumbnail = Self.thumbnail(size: 40, log: log)
      preparer.prefetch(thumbnail, from: ["photo"])
      driver.runPreparations()
      driver.drain()
      let copy = thumbnail
      let shown = Self.show(copy, "photo", on: preparer, driver)
      XCTAssertEqual(shown.value, "40 px photo")
      XCTAssertTrue(shown.atOnce, "applied from the cache, inside addTask")
      XCTAssertEqual(log.entries, ["40 photo"])
      let s = preparer.statistics
      XCTAssertEqual([s.cacheHits, s.wastedPreparations, s.duplicatePreparations], [1, 0, 0])
    }
  }

  /// A preparation made anew on each use (a computed property) with an identifier shares with its prefetch; equal
  /// identifiers share and different ones do not.
  func testPreparationsWithEqualIdentifiersShare() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let preparer = Preparer(queue: IdleQueue(driver: driver))
      let log = TextLog()
      func thumbnail(size: Int) -> Preparation<String, String> {
        Self.thumbnail(size: size, log: log).identified(by: "thumbnail \(size)")
      }
      preparer.prefetch(thumbnail(size: 40), from: ["photo"])
      driver.runPreparations()
      driver.drain()
      let row = Self.show(thumbnail(size: 40), "photo", on: preparer, driver)
      XCTAssertEqual(row.value, "40 px photo")
      XCTAssertTrue(row.atOnce)
      let header = Self.show(thumbnail(size: 200), "photo", on: preparer, driver)
      XCTAssertEqual(header.value, "200 px photo")
      XCTAssertEqual(log.entries, ["40 photo", "200 photo"])
      let s = preparer.statistics
      XCTAssertEqual([s.cacheHits, s.duplicatePreparations], [1, 0])
    }
  }

  /// The misuse that remains — one made anew on each use, without an identifier — shares nothing with its prefetch,
  /// and shows in `duplicatePreparations`, once per row.
  func testAPreparationMadeAnewOnEachUseCountsDuplicates() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let preparer = Preparer(queue: IdleQueue(driver: driver, configuration: .init(maximumQueueLength: 100)))
      let log = TextLog()
      let rows = (0..<20).map { "photo \($0)" }
      preparer.prefetch(Self.thumbnail(size: 40, log: log), from: rows)
      driver.runPreparations()
      driver.drain()
      for row in rows {
        XCTAssertEqual(Self.show(Self.thumbnail(size: 40, log: log), row, on: preparer, driver).value, "40 px \(row)")
      }
      XCTAssertEqual(log.entries.count, 40, "each row made twice")
      let s = preparer.statistics
      XCTAssertEqual([s.cacheHits, s.duplicatePreparations], [0, 20])
      assertBalanced(preparer)
    }
  }

  /// In an ordinary scroll — one prefetch call per row, ten rows ahead, a preparation made anew for each call and each
  /// row — every row made twice counts once in `duplicatePreparations`.
  func testDuplicatesAreCountedInAnOrdinaryScroll() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let preparer = Preparer(queue: IdleQueue(driver: driver, configuration: .init(maximumQueueLength: 100)))
      let log = TextLog()
      func thumbnail() -> Preparation<Int, String> {
        Preparation { (row: Int, _) in
          log.append("\(row)")
          return "photo \(row)"
        }
      }
      for row in 0..<10 { preparer.prefetch(thumbnail(), from: [row]) }
      driver.runPreparations()
      driver.drain()
      for row in 0..<30 {
        XCTAssertFalse(Self.show(thumbnail(), row, on: preparer, driver).atOnce, "made anew: no hit")
        preparer.prefetch(thumbnail(), from: [row + 10])
        driver.runPreparations()
        driver.drain()
      }
      let madeTwice = Dictionary(grouping: log.entries, by: { $0 }).values.filter { $0.count == 2 }.count
      XCTAssertEqual(madeTwice, 30)
      XCTAssertEqual(preparer.statistics.duplicatePreparations, madeTwice)
      assertBalanced(preparer)
    }
  }

  /// Identifiers of different types never name the same preparation, even where their `AnyHashable`s are equal.
  func testIdentifiersOfDifferentTypesNeverShare() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let preparer = Preparer(queue: IdleQueue(driver: driver))
      let thumbnail = Preparation { (photo: String, _) in "thumbnail \(photo)" }.identified(by: 2)
      let blurred = Preparation { (photo: String, _) in "blurred \(photo)" }.identified(by: 2.0)
      XCTAssertEqual(Self.show(thumbnail, "p", on: preparer, driver).value, "thumbnail p")
      XCTAssertEqual(Self.show(blurred, "p", on: preparer, driver).value, "blurred p")
    }
  }

  /// Preparations of the same types made for different inputs are no duplicates.
  func testDifferentInputsAreNoDuplicates() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let preparer = Preparer(queue: IdleQueue(driver: driver))
      let log = TextLog()
      _ = Self.show(Self.thumbnail(size: 40, log: log), "a", on: preparer, driver)
      _ = Self.show(Self.thumbnail(size: 40, log: log), "b", on: preparer, driver)
      XCTAssertEqual(preparer.statistics.duplicatePreparations, 0)
    }
  }
}
