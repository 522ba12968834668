import Foundation
@_spi(IdleWorkTesting) import IdleWork
import IdleWorkPreparation
import IdleWorkTesting
import TestHelpers
import XCTest

/// Bad input to prepared tasks and prefetches stops the program with a message naming the parameter and its valid
/// range. Each case really crashes, in a child process running this same test method with
/// `IDLEWORK_BAD_PREPARATION_INPUT=<case>` set; the parent checks the child's exit and standard error.
final class PreparationBadInputTests: XCTestCase {
  static let childVariable = "IDLEWORK_BAD_PREPARATION_INPUT"
  static let childTest =
    "IdleWorkPreparationTests.PreparationBadInputTests/testBadInputStopsTheProgramWithAMessageNamingTheParameter"

  func testBadInputStopsTheProgramWithAMessageNamingTheParameter() throws {
    let isChild = MainActor.assumeIsolated {
      performedAsChild(variable: Self.childVariable) { (input: BadPreparationInput) in input.perform() }
    }
    if isChild { return }
    let failures = try childProcessesThatDidNotStop(
      BadPreparationInput.allCases, childTest: Self.childTest, variable: Self.childVariable,
      fragments: \.expectedMessageFragments)
    XCTAssertEqual(failures, [])
  }
}

/// Each way to give a prepared task or a prefetch a value outside its documented range.
private enum BadPreparationInput: String, CaseIterable {
  case negativeEstimatedCostForPreparedTask
  case nanEstimatedCostForPreparedCellTask
  case prefetchWithoutAResultCache
  /// A bad cost on a task whose result is kept: applied at once, never queued, and still refused.
  case negativeEstimatedCostForACacheHit
  case zeroWorkers
  case negativeWorkersInConfiguration
  case negativeResultCacheLimit
  /// A second ``Preparer`` of one queue made with another configuration than the first.
  case secondPreparerWithAnotherConfiguration

  /// What the message must contain: the parameter, the bad value and the valid range.
  var expectedMessageFragments: [String] {
    switch self {
    case .negativeEstimatedCostForPreparedTask: return ["estimatedCost", "-0.5", "finite", ">= 0"]
    case .nanEstimatedCostForPreparedCellTask: return ["estimatedCost", "nan", "finite", ">= 0"]
    case .prefetchWithoutAResultCache: return ["prefetch", "resultCacheLimit is 0", "1...Int.max"]
    case .negativeEstimatedCostForACacheHit: return ["estimatedCost", "-2.0", "finite", ">= 0"]
    case .zeroWorkers: return ["workers", "0", "1...Int.max"]
    case .negativeWorkersInConfiguration: return ["workers", "-3", "1...Int.max"]
    case .negativeResultCacheLimit: return ["resultCacheLimit", "-1", "0...Int.max"]
    case .secondPreparerWithAnotherConfiguration: return ["Preparer", "workers: 2", "same configuration"]
    }
  }

  @MainActor
  func perform() {
    let identity = Preparation { (n: Int, _) in n }
    switch self {
    case .negativeEstimatedCostForPreparedTask:
      Preparer(queue: IdleQueue(driver: ManualPassDriver())).addTask(
        key: 0, prepare: identity, from: 0, estimatedCost: -0.5
      ) { _ in }
    case .nanEstimatedCostForPreparedCellTask:
      Preparer(queue: IdleQueue(driver: ManualPassDriver())).addTask(
        for: FakeCell(), at: row(0), prepare: identity, from: 0, estimatedCost: .nan
      ) { _, _ in }
    case .prefetchWithoutAResultCache:
      Preparer(queue: IdleQueue(driver: ManualPassDriver()), configuration: .init(resultCacheLimit: 0)).prefetch(
        identity, from: [1, 2])
    case .negativeEstimatedCostForACacheHit:
      let driver = ManualPassDriver()
      let preparer = Preparer(queue: IdleQueue(driver: driver))
      preparer.prefetch(identity, from: [7])
      driver.runPreparations()
      driver.drain()
      preparer.addTask(key: 0, prepare: identity, from: 7, estimatedCost: -2) { _ in }
    case .zeroWorkers:
      _ = Preparer(queue: IdleQueue(driver: ManualPassDriver()), configuration: .init(workers: 0))
    case .negativeWorkersInConfiguration:
      var configuration = Preparer.Configuration()
      configuration.workers = -3
      _ = Preparer(queue: IdleQueue(driver: ManualPassDriver()), configuration: configuration)
    case .negativeResultCacheLimit:
      _ = Preparer(queue: IdleQueue(driver: ManualPassDriver()), configuration: .init(resultCacheLimit: -1))
    case .secondPreparerWithAnotherConfiguration:
      let queue = IdleQueue(driver: ManualPassDriver())
      _ = Preparer(queue: queue, configuration: .init(workers: 2))
      _ = Preparer(queue: queue, configuration: .init(workers: 3))
    }
  }
}
