import Foundation
import IdleWork
import IdleWorkPreparation
import IdleWorkTesting
import TestHelpers
import XCTest

/// Nothing a preparation captured outlives its queue: ending or releasing the queue frees the work under way.
final class PreparationLifetimeTests: XCTestCase {
  /// What a slice captures: a bitmap context, a view, a controller.
  final class Canvas: Sendable {}

  /// Watches one object go.
  @MainActor
  final class Watch {
    weak var object: Canvas?
  }

  /// A card half made: its slices hold a canvas, and it never finishes by itself.
  @MainActor
  static func halfMadeCard(_ watch: Watch) -> Preparation<String, String> {
    Preparation.mainThread(slices: { (_: String) in
      let canvas = Canvas()
      watch.object = canvas
      return { _ in
        withExtendedLifetime(canvas) {}
        return nil
      }
    })
  }

  func testInvalidatingAQueueFreesAMainThreadPreparationUnderWay() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let preparer = Preparer(queue: IdleQueue(driver: driver, configuration: .init(budget: .tasks(1))))
      let watch = Watch()
      preparer.addTask(key: 0, prepare: Self.halfMadeCard(watch), from: "card") { _ in }
      driver.runPass()
      XCTAssertNotNil(watch.object, "under way")
      preparer.queue.invalidate()
      XCTAssertNil(watch.object, "freed when the preparer ended")
      XCTAssertEqual(preparer.queue.statistics.cancelled, 1)
      assertBalanced(preparer)
    }
  }

  func testReleasingAQueueFreesAMainThreadPreparationUnderWay() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      var preparer: Preparer? = Preparer(queue: IdleQueue(driver: driver, configuration: .init(budget: .tasks(1))))
      let watch = Watch()
      preparer!.addTask(key: 0, prepare: Self.halfMadeCard(watch), from: "card") { _ in }
      driver.runPass()
      XCTAssertNotNil(watch.object, "under way")
      preparer = nil
      XCTAssertNil(watch.object, "freed when the preparer was released")
    }
  }

  /// A main-thread preparation dropped before it started (its prefetch cancelled) frees what it captured at once,
  /// as a worker preparation does.
  func testACancelledMainThreadPrefetchFreesWhatItCaptured() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let preparer = Preparer(queue: IdleQueue(driver: driver))
      let (mainWatch, workerWatch) = (Watch(), Watch())
      @MainActor func start() {
        let (a, b) = (Canvas(), Canvas())
        (mainWatch.object, workerWatch.object) = (a, b)
        let card = Preparation.mainThread { (input: String) -> String in
          withExtendedLifetime(a) {}
          return input
        }
        let photo = Preparation { (input: String, _) -> String in
          withExtendedLifetime(b) {}
          return input
        }
        preparer.prefetch(card, from: ["a"])
        preparer.prefetch(photo, from: ["b"])
        preparer.cancelPrefetching(card, from: ["a"])
        preparer.cancelPrefetching(photo, from: ["b"])
      }
      start()
      XCTAssertNil(workerWatch.object, "the worker preparation's capture is freed")
      XCTAssertNil(mainWatch.object, "the main-thread preparation's capture is freed")
      assertBalanced(preparer)
    }
  }

  /// Worker preparations waiting to start (a prefetch's, a task's) when the queue ends: what they captured is
  /// freed then, not when a worker would have reached them.
  func testInvalidatingAQueueFreesWaitingWorkerPreparations() {
    MainActor.assumeIsolated {
      let driver = ManualPassDriver()
      let preparer = Preparer(queue: IdleQueue(driver: driver))
      let watch = Watch()
      @MainActor func start() {
        let canvas = Canvas()
        watch.object = canvas
        let drawing = Preparation { (input: String, _) in
          withExtendedLifetime(canvas) {}
          return input
        }
        preparer.prefetch(drawing, from: ["a", "b"])
        preparer.addTask(key: 0, prepare: drawing, from: "c") { _ in }
      }
      start()
      XCTAssertNotNil(watch.object, "waiting")
      preparer.queue.invalidate()
      XCTAssertNil(watch.object, "freed when the preparer ended")
      assertBalanced(preparer)
    }
  }
}
