// Main-thread preparations with prefetching and a fling's landing rows, as the DocC articles "Slicing heavy cell
// work" and "Coming from DWURunLoopWorkDistribution" show them: legacy drawing that must stay on the main thread,
// made in idle time before the rows appear. `../shared/ios-check/run` type-checks this file against the iOS SDK as
// a client module of IdleWork.
import IdleWork
import IdleWorkPreparation
import UIKit

/// Old drawing code that uses UIKit and is not thread-safe.
@MainActor
enum LegacyTiles {
  static func draw(_ name: String) -> UIImage {
    UIGraphicsImageRenderer(size: CGSize(width: 88, height: 88)).image { _ in
      (name as NSString).draw(at: .zero, withAttributes: [.font: UIFont.systemFont(ofSize: 12)])
    }
  }
}

final class LegacyFeedController: UITableViewController, UITableViewDataSourcePrefetching {
  let queue = IdleQueue(configuration: .scrollingFeed())
  lazy var preparer = Preparer(queue: queue)  // the queue's workers and result cache
  let names = (0..<1000).map { "tile \($0)" }
  /// Made once: the rows' tasks and the prefetches share its results.
  let tile = Preparation.mainThread { (name: String) in LegacyTiles.draw(name) }

  override func viewDidLoad() {
    super.viewDidLoad()
    tableView.register(UITableViewCell.self, forCellReuseIdentifier: "Tile")
    tableView.prefetchDataSource = self  // without it, UIKit never asks for prefetches
  }

  override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { names.count }

  override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
    let cell = tableView.dequeueReusableCell(withIdentifier: "Tile", for: indexPath)
    queue.bind(cell, to: indexPath)
    cell.imageView?.image = nil
    preparer.addTask(for: cell, at: indexPath, prepare: tile, from: names[indexPath.row]) { cell, image in
      cell.imageView?.image = image  // a prefetched row's image is set here, inside cellForRowAt
    }
    return cell
  }

  override func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) {
    queue.cellWillDisplay(cell, at: indexPath)
  }

  override func tableView(
    _ tableView: UITableView, didEndDisplaying cell: UITableViewCell, forRowAt indexPath: IndexPath
  ) {
    queue.cellDidEndDisplaying(cell, at: indexPath)
  }

  // UITableViewDataSourcePrefetching: protocol methods, not overrides.
  func tableView(_ tableView: UITableView, prefetchRowsAt indexPaths: [IndexPath]) {
    preparer.prefetch(tile, from: indexPaths.map { names[$0.row] })
  }

  func tableView(_ tableView: UITableView, cancelPrefetchingForRowsAt indexPaths: [IndexPath]) {
    preparer.cancelPrefetching(tile, from: indexPaths.map { names[$0.row] })
  }

  // Where a fling will stop is known as the finger lifts: those rows go before the prefetch window's.
  override func scrollViewWillEndDragging(
    _ scrollView: UIScrollView, withVelocity velocity: CGPoint,
    targetContentOffset: UnsafeMutablePointer<CGPoint>
  ) {
    let landing = CGRect(origin: targetContentOffset.pointee, size: scrollView.bounds.size)
    let rows = tableView.indexPathsForRows(in: landing) ?? []
    preparer.prefetch(tile, from: rows.map { names[$0.row] }, first: true)
  }

  deinit { queue.invalidate() }  // deinit is nonisolated; invalidate() may be called from any thread
}

/// The sliced form: a card whose layout takes several frames' worth of work, one step per slice.
@MainActor
func cardPreparation() -> Preparation<String, UIImage> {
  Preparation.mainThread(slices: { (text: String) in
    var lines: [String] = []
    let words = text.split(separator: " ").map(String.init)
    return { timeRemaining in
      while lines.count < words.count, timeRemaining() > 0.001 { lines.append(words[lines.count]) }
      guard lines.count == words.count else { return nil }  // not done: called again in a later step
      return LegacyTiles.draw(lines.joined(separator: "\n"))
    }
  })
}
