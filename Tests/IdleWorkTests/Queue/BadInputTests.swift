import Foundation
import TestHelpers
import XCTest

@testable import IdleWork
@testable import IdleWorkTesting

/// Bad input through the public API stops the program with a message naming the
/// parameter and its valid range. Each case really crashes — in a child process running this same test
/// method with `IDLEWORK_BAD_INPUT=<case>` set (see ``ChildProcess``); the parent checks the child's
/// exit and standard error. `Budget.validationFailure` is also checked directly.
final class BadInputTests: XCTestCase {
  static let childVariable = "IDLEWORK_BAD_INPUT"
  static let childTest = "IdleWorkTests.BadInputTests/testBadInputStopsTheProgramWithAMessageNamingTheParameter"

  func testBadInputStopsTheProgramWithAMessageNamingTheParameter() throws {
    let isChild = MainActor.assumeIsolated {
      performedAsChild(variable: Self.childVariable) { (input: BadInput) in input.perform() }
    }
    if isChild { return }
    let started = Date()
    let failures = try childProcessesThatDidNotStop(
      BadInput.allCases, childTest: Self.childTest, variable: Self.childVariable, fragments: \.expectedMessageFragments)
    XCTAssertEqual(failures, [])
    print(
      "bad input: \(BadInput.allCases.count) child processes, "
        + String(format: "%.2f s", Date().timeIntervalSince(started)))
  }

  func testBudgetValidationFailureNamesTheParameterAndItsRange() {
    for valid: IdleQueue.Budget in [
      .tasks(1), .tasks(Int.max), .seconds(0.000001), .seconds(.leastNonzeroMagnitude),
      .seconds(.greatestFiniteMagnitude),
    ] {
      XCTAssertNil(valid.validationFailure, "\(valid) is valid")
    }
    let invalidCounts: [IdleQueue.Budget] = [.tasks(0), .tasks(-1), .tasks(Int.min)]
    for invalid in invalidCounts {
      let message = invalid.validationFailure ?? ""
      XCTAssertTrue(message.contains("budget") && message.contains("\(invalid)"), message)
      XCTAssertTrue(message.contains("1...Int.max"), message)
    }
    let invalidDurations: [IdleQueue.Budget] = [
      .seconds(0.0), .seconds(-0.0), .seconds(-1), .seconds(.nan), .seconds(.infinity),
      .seconds(-.infinity),
    ]
    for invalid in invalidDurations {
      let message = invalid.validationFailure ?? ""
      XCTAssertTrue(message.contains("budget") && message.contains("\(invalid)"), message)
      XCTAssertTrue(message.contains("finite") && message.contains("greater than 0"), message)
    }
  }
}

/// Each way to give IdleWork's public API a value outside its documented range.
private enum BadInput: String, CaseIterable {
  case negativeQueueLengthInInit
  case negativeQueueLengthInSetter
  case negativeQueueLengthInConfiguration
  case zeroTasksInInit
  case negativeTasksInSetter
  case zeroTasksInConfiguration
  case zeroSecondsInInit
  case negativeSecondsInSetter
  case nanSecondsInSetter
  case infiniteSecondsInInit
  case invalidatingTheSharedQueue
  /// `invalidate()` is callable from any thread, and `IdleQueue.main` still refuses there.
  case invalidatingTheSharedQueueOffTheMainThread
  case negativeManualClockAdvance
  case negativeEstimatedCost
  case nanEstimatedCostForCell
  case infiniteEstimatedCostForSlice
  case negativeEstimatedCostForCellSlice
  case secondQueueOnAManualDriver
  case timeUntilNextFrameReturningNaN
  case timeUntilNextFrameReturningInfinity
  case negativePreparationsRunByHand

  /// What the message must contain: the parameter, the bad value and the valid range.
  var expectedMessageFragments: [String] {
    switch self {
    case .negativeQueueLengthInInit: return ["maximumQueueLength", "-1", "0...Int.max"]
    case .negativeQueueLengthInSetter: return ["maximumQueueLength", "-5", "0...Int.max"]
    case .negativeQueueLengthInConfiguration: return ["maximumQueueLength", "\(Int.min)", "0...Int.max"]
    case .zeroTasksInInit, .zeroTasksInConfiguration:
      return ["budget", ".tasks(0)", "1...Int.max"]
    case .negativeTasksInSetter: return ["budget", ".tasks(-1)", "1...Int.max"]
    case .zeroSecondsInInit: return ["budget", ".seconds(0.0)", "finite", "greater than 0"]
    case .negativeSecondsInSetter: return ["budget", ".seconds(-1.0)", "finite", "greater than 0"]
    case .nanSecondsInSetter: return ["budget", ".seconds(nan)", "finite", "greater than 0"]
    case .infiniteSecondsInInit: return ["budget", ".seconds(inf)", "finite", "greater than 0"]
    case .invalidatingTheSharedQueue, .invalidatingTheSharedQueueOffTheMainThread:
      return ["IdleQueue.main cannot be invalidated", "cancelAllTasks()"]
    case .negativeManualClockAdvance: return ["advance(by: -1.0)", "finite", ">= 0"]
    case .negativeEstimatedCost: return ["estimatedCost", "-0.001", "finite", ">= 0"]
    case .nanEstimatedCostForCell: return ["estimatedCost", "nan", "finite", ">= 0"]
    case .infiniteEstimatedCostForSlice: return ["estimatedCost", "inf", "finite", ">= 0"]
    case .negativeEstimatedCostForCellSlice: return ["estimatedCost", "-1.0", "finite", ">= 0"]
    case .secondQueueOnAManualDriver: return ["ManualPassDriver serves one queue", "create one per queue"]
    case .timeUntilNextFrameReturningNaN: return ["timeUntilNextFrame", "nan", "finite", "or nil"]
    case .timeUntilNextFrameReturningInfinity: return ["timeUntilNextFrame", "inf", "finite", "or nil"]
    case .negativePreparationsRunByHand: return ["runPreparations(maximum: -1)", ">= 0"]
    }
  }

  @MainActor
  func perform() {
    switch self {
    case .negativeQueueLengthInInit:
      _ = IdleQueue(driver: ManualPassDriver(), configuration: .init(maximumQueueLength: -1))
    case .negativeQueueLengthInSetter:
      IdleQueue(driver: ManualPassDriver()).maximumQueueLength = -5
    case .negativeQueueLengthInConfiguration:
      var configuration = IdleQueue.Configuration()
      configuration.maximumQueueLength = Int.min
      _ = IdleQueue(configuration: configuration)
    case .zeroTasksInInit:
      _ = IdleQueue(driver: ManualPassDriver(), configuration: .init(budget: .tasks(0)))
    case .negativeTasksInSetter:
      IdleQueue(driver: ManualPassDriver()).budget = .tasks(-1)
    case .zeroTasksInConfiguration:
      var configuration = IdleQueue.Configuration()
      configuration.budget = .tasks(0)
      _ = IdleQueue(configuration: configuration)
    case .zeroSecondsInInit:
      _ = IdleQueue(driver: ManualPassDriver(), configuration: .init(budget: .seconds(0.0)))
    case .negativeSecondsInSetter:
      IdleQueue(driver: ManualPassDriver()).budget = .seconds(-1)
    case .nanSecondsInSetter:
      IdleQueue(driver: ManualPassDriver()).budget = .seconds(.nan)
    case .infiniteSecondsInInit:
      _ = IdleQueue(driver: ManualPassDriver(), configuration: .init(budget: .seconds(.infinity)))
    case .invalidatingTheSharedQueue:
      IdleQueue.main.invalidate()
    case .invalidatingTheSharedQueueOffTheMainThread:
      let returned = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        IdleQueue.main.invalidate()
        returned.signal()
      }
      returned.wait()
    case .negativeManualClockAdvance:
      ManualPassDriver().advance(by: -1)
    case .negativeEstimatedCost:
      IdleQueue(driver: ManualPassDriver()).addTask(key: 0, estimatedCost: -0.001) {}
    case .nanEstimatedCostForCell:
      IdleQueue(driver: ManualPassDriver()).addTask(for: FakeCell(), at: row(0), estimatedCost: .nan) { _ in }
    case .infiniteEstimatedCostForSlice:
      IdleQueue(driver: ManualPassDriver()).addResumableTask(key: 0, estimatedCost: .infinity) { _ in true }
    case .negativeEstimatedCostForCellSlice:
      IdleQueue(driver: ManualPassDriver()).addResumableTask(for: FakeCell(), at: row(0), estimatedCost: -1) { _, _ in
        true
      }
    case .secondQueueOnAManualDriver:
      let driver = ManualPassDriver()
      let first = IdleQueue(driver: driver)
      withExtendedLifetime(first) { _ = IdleQueue(driver: driver) }
    case .timeUntilNextFrameReturningNaN, .timeUntilNextFrameReturningInfinity:
      let value: Double = self == .timeUntilNextFrameReturningNaN ? .nan : .infinity
      let driver = ManualPassDriver()
      let queue = IdleQueue(
        driver: driver, configuration: .init(scrolling: .fitToFrames(timeUntilNextFrame: { value })))
      queue.addTask(key: 0) {}
      driver.runPass()
    case .negativePreparationsRunByHand:
      let driver = ManualPassDriver()
      let queue = IdleQueue(driver: driver)
      withExtendedLifetime(queue) { _ = driver.runPreparations(maximum: -1) }
    }
  }
}
