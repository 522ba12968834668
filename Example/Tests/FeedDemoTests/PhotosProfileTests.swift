import Foundation
import IdleWork
import IdleWorkPreparation
import XCTest

@testable import FeedDemoKit

/// The `photos` profile (results bigger than the caches) and each strategy's result byte limit, which
/// `peakResultBytes` is read against.
final class PhotosProfileTests: XCTestCase {
  /// The images the run shows — every row from the first screen down to where the fling stops (the fling back
  /// up and the drag show them again) — take several times the 32 MB the caching strategies keep, and each
  /// rendered result really holds an image's bytes. Computed from the model, so a profile that went back to the
  /// 260 KB images (37 MB for the same rows) fails.
  func testTheWorkingSetIsSeveralTimesTheCaches() {
    let settings = Profile.photos.settings
    XCTAssertEqual(settings.flingRows, Profile.flingBack.settings.flingRows)
    XCTAssertEqual(settings.backRows, Profile.flingBack.settings.backRows)
    let model = FeedModel.make(settings, seed: 1)
    let first = model.visibleRows(atOffset: 0)
    let last = model.visibleRows(atOffset: min(settings.flingRows * model.rowHeight, model.maximumOffset))
    let images = (last.upperBound - first.lowerBound + 1) * model.imagesPerRow
    let bytes = images * model.imageByteCount
    let idleWorkCache = Preparer.Configuration().resultCacheLimit
    XCTAssertGreaterThanOrEqual(bytes, 3 * idleWorkCache, "\(images) images of \(model.imageByteCount) bytes")
    XCTAssertGreaterThanOrEqual(bytes, 3 * WorkItemPrefetchStrategy.cacheLimit)

    let job = RenderJob(model: model, row: 3, version: 0, imageIndex: 1, ledger: RenderLedger())
    XCTAssertEqual(job.render()?.byteCount, model.imageByteCount)
    XCTAssertEqual(model.imageByteCount, ImageRasterizer.byteCount(pixels: settings.imagePixels))
    XCTAssertGreaterThan(model.imageByteCount, 3 * ImageRasterizer.byteCount)
  }

  /// A draw and its tiles cover the photo's whole bitmap: the tiles in order give the whole draw's pixels.
  func testTilesDrawThePhotoWhole() {
    let model = FeedModel.make(Profile.photos.settings, seed: 1)
    var whole: [UInt8] = []
    _ = model.draw(row: 2, image: 0, version: 0, into: &whole)
    var tiled: [UInt8] = []
    for tile in 0..<model.tilesPerDraw { _ = model.drawTile(tile, row: 2, image: 0, version: 0, into: &tiled) }
    XCTAssertEqual(whole.count, model.imageByteCount)
    XCTAssertEqual(tiled, whole)
  }

  /// The content bound keeps the photos' draws apart from `flingBack`'s (same rows, same passes, four times the
  /// pixels): a fast 255 px draw must not become the bound of a 512 px one.
  func testTheContentBoundTellsImageSizesApart() {
    MainActor.assumeIsolated {
      var milliseconds = 1.0
      let bound = ContentBound(time: { draw in
        draw()
        return milliseconds
      })
      let rows = 0...1
      let small = FeedModel.make(Profile.flingBack.settings, seed: 1)
      let photos = FeedModel.make(Profile.photos.settings, seed: 1)
      XCTAssertEqual(bound.milliseconds(model: small, rows: rows, version: 0), 6, accuracy: 1e-6)
      milliseconds = 4
      XCTAssertEqual(bound.milliseconds(model: photos, rows: rows, version: 0), 24, accuracy: 1e-6)
      XCTAssertEqual(bound.fastestDrawNanos(model: photos), 4_000_000)
      XCTAssertEqual(bound.fastestDrawNanos(model: small), 1_000_000)
    }
  }

  /// The summary names the image size; `photos` is in the full sweep, not in the newcomer's run.
  func testSummaryAndDefaultProfiles() {
    XCTAssertTrue(Profile.photos.summary.contains("512×512 px images"), Profile.photos.summary)
    XCTAssertFalse(Profile.flingBack.summary.contains("px images"))
    XCTAssertTrue(Sweep.full.profiles.contains(.photos))
    XCTAssertFalse(Sweep.newcomer.profiles.contains(.photos))
  }

  /// IdleWork's prepared strategies report their queue's configured result cache; the work-item cache its own
  /// limit; the strategies whose libraries bound nothing (or hold no results) report none.
  func testStrategiesReportTheirResultByteLimits() {
    MainActor.assumeIsolated {
      for workers in [nil, 1, 4] {
        let strategy = IdleWorkStrategy(variant: .prepare(workers: workers))
        XCTAssertEqual(strategy.resultByteLimit, strategy.preparerConfiguration?.resultCacheLimit)
      }
      XCTAssertEqual(StrategyKind.idleWorkPrepare.resultByteLimit, 32 << 20)
      XCTAssertEqual(StrategyKind.idleWorkPreparePrefetch.resultByteLimit, 32 << 20)
      XCTAssertEqual(StrategyKind.workItemPrefetch.resultByteLimit, WorkItemPrefetchStrategy.cacheLimit)
      for kind in [StrategyKind.msCachedAsync, .workItem, .textureAsync, .idleWorkFeed, .sync] {
        XCTAssertNil(kind.resultByteLimit, "\(kind)")
      }
    }
  }

  /// The JSON (revision 4) writes each strategy's limit (`null`: none), each profile's image size, and
  /// `blankCellSecondsAfterReload` as `null` where the profile has no reload.
  func testTheJSONCarriesLimitsImageSizesAndTheReloadFigure() throws {
    try MainActor.assumeIsolated {
      var options = Options()
      options.strategies = [.idleWorkPrepare, .msCachedAsync]
      options.profiles = [.photos]
      options.refreshRates = [60]
      let values = ScenarioMetrics.result(
        kind: .idleWorkPrepare, profile: .photos, refreshHz: 60, recording: Recording(), origin: 0
      ).values
      let figures = options.strategies.map { kind in
        BenchmarkReport.FeedFigure(
          profile: .photos, refreshHz: 60, strategy: kind,
          stats: values.mapValues { Stat([$0]) },
          firstRun: ScenarioResult(strategy: kind, profile: .photos, refreshHz: 60, values: values))
      }
      let report = BenchmarkReport(
        command: "test", options: options, settings: .full, machine: .current(), imageDrawMs: 1, feed: figures,
        throughput: [], enqueue: [], arrayAppend: nil, elapsedSeconds: 0, otherCores: nil)
      let text = JSONReport.document(report).rendered()
      let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
      XCTAssertEqual(doc["formatRevision"] as? Int, 5)
      let strategies = try XCTUnwrap(doc["strategies"] as? [[String: Any]])
      XCTAssertEqual(strategies[0]["resultByteLimit"] as? Int, 32 << 20)
      XCTAssertTrue(strategies[1]["resultByteLimit"] is NSNull)
      let profile = try XCTUnwrap((doc["profiles"] as? [[String: Any]])?.first)
      XCTAssertEqual(profile["imagePixels"] as? Int, 512)
      let entry = try XCTUnwrap(
        ((profile["rates"] as? [[String: Any]])?.first?["strategies"] as? [[String: Any]])?.first)
      let after = try XCTUnwrap(
        (entry["metrics"] as? [String: Any])?["blankCellSecondsAfterReload"] as? [String: Any])
      XCTAssertTrue(after["median"] is NSNull)
    }
  }
}
