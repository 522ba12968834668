import IdleWork
import IdleWorkPreparation
import UIKit

/// DWURunLoopWorkDistribution's demo, ported: 399 rows of 135 pt. `cellForRowAt` sets the label at once and hands
/// the three image draws to IdleWork, one task each; a draw whose cell was configured again by its turn (reused for
/// another row, or reloaded) is skipped, and its picture never lands on the wrong row.
///
/// The switch above the table picks where the draws run:
/// Both paths use the recommended setup: a queue of this screen's own, `.scrollingFeed()`, ended with the screen.
/// - **Main thread**: each draw is a resumable main-thread task that draws its picture a tile at a time, as many
///   tiles per pass as fit before the next frame — during a scroll too — the path for drawing code that must stay
///   on the main thread.
/// - **Workers**: each draw is a prepared task: it is drawn off the main thread
///   (`UIGraphicsImageRenderer` on one of the process's workers, rows on screen first), and a pass sets the image
///   view, also during a scroll (`.scrollingFeed()`). Pictures are kept by input up to the preset's 32 MB, so a
///   row scrolled back to shows its pictures in the same frame. Rows UIKit says are about to appear are prefetched
///   with the same `Preparation`, so most rows show their pictures in their first frame.
final class FeedViewController: UIViewController, UITableViewDataSource, UITableViewDelegate,
  UITableViewDataSourcePrefetching
{
  /// Where the draws run.
  enum DrawingPath: Int, CaseIterable {
    case mainThread
    case workers

    var title: String {
      switch self {
      case .mainThread: "Main thread"
      case .workers: "Workers"
      }
    }
  }

  private let tableView = UITableView(frame: .zero, style: .plain)
  /// The screen's queue, for both paths: the recommended setup, ended with the screen.
  private let queue = IdleQueue(configuration: .scrollingFeed())
  private lazy var preparer = Preparer(queue: queue)  // the queue's workers and result cache
  /// How a picture is drawn, said once: used by the rows' tasks and by the prefetches alike.
  private let artwork = Preparation(resultBytes: Artwork.bytes(of:)) { (key: ArtworkKey, isCancelled) in
    // On a worker: a bitmap renderer's own context, nothing of UIKit's views, screen or traits.
    guard let image = Artwork.draw(row: key.row, slot: key.slot, style: key.style, isCancelled: isCancelled) else {
      throw CancellationError()  // no row waits for it any more
    }
    return image
  }
  /// Where the draws run now; changing it drops the other path's waiting draws and configures every row again.
  private var path = DrawingPath.workers {
    didSet {
      guard path != oldValue else { return }
      queue.cancelAllTasks()
      tableView.reloadData()
    }
  }

  deinit {
    queue.invalidate()
  }

  override func loadView() {
    tableView.dataSource = self
    tableView.prefetchDataSource = self
    tableView.delegate = self
    tableView.rowHeight = 135
    tableView.register(ImageRowCell.self, forCellReuseIdentifier: ImageRowCell.reuseIdentifier)
    tableView.tableHeaderView = makePathSwitch()
    view = tableView
  }

  /// The segmented control that switches between the main-thread path and the prepared path.
  private func makePathSwitch() -> UIView {
    let control = UISegmentedControl(items: DrawingPath.allCases.map(\.title))
    control.selectedSegmentIndex = path.rawValue
    control.addAction(
      UIAction { [weak self, weak control] _ in
        guard let index = control?.selectedSegmentIndex, let path = DrawingPath(rawValue: index) else { return }
        self?.path = path
      }, for: .valueChanged)
    let header = UIView(frame: CGRect(x: 0, y: 0, width: 320, height: 44))
    control.frame = header.bounds.insetBy(dx: 8, dy: 6)
    control.autoresizingMask = [.flexibleWidth, .flexibleHeight]
    header.addSubview(control)
    return header
  }

  func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
    399
  }

  func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
    let cell = tableView.dequeueReusableCell(withIdentifier: ImageRowCell.reuseIdentifier, for: indexPath)
    guard let rowCell = cell as? ImageRowCell else { return cell }
    queue.bind(rowCell, to: indexPath)  // a new configuration: earlier draws for this cell are stale
    rowCell.titleLabel.text = "\(indexPath.row) - Drawing index is top priority"
    let row = indexPath.row
    let style = Artwork.Style(tableView.traitCollection)  // read here, on the main thread
    for slot in rowCell.imageViews.indices {
      switch path {
      case .mainThread:
        let drawing = Artwork.TiledDrawing(row: row, slot: slot, style: style)
        queue.addResumableTask(for: rowCell, at: indexPath) { rowCell, timeRemaining in
          // A tile, then more while the time left before the next frame allows another.
          while !drawing.drawNextTile() {
            if timeRemaining() < 0.002 { return false }
          }
          rowCell.imageViews[slot].image = drawing.image
          return true
        }
      case .workers:
        // A picture kept for this input (prefetched, or shown before) applies at once, inside this call: no
        // blank frame; one being prefetched is joined, and goes first.
        let input = ArtworkKey(row: row, slot: slot, style: style)
        preparer.addTask(for: rowCell, at: indexPath, prepare: artwork, from: input) { rowCell, image in
          rowCell.imageViews[slot].image = image  // in a pass, only if the cell still shows this row
        }
      }
    }
    return rowCell
  }

  /// Rows about to appear (nearest first): their pictures are drawn on the workers, after the visible rows'.
  func tableView(_ tableView: UITableView, prefetchRowsAt indexPaths: [IndexPath]) {
    guard path == .workers else { return }
    preparer.prefetch(artwork, from: artworkKeys(indexPaths))
  }

  /// Rows no longer about to appear (the user turned back): their pictures not started are dropped.
  func tableView(_ tableView: UITableView, cancelPrefetchingForRowsAt indexPaths: [IndexPath]) {
    preparer.cancelPrefetching(artwork, from: artworkKeys(indexPaths))
  }

  /// The pictures of these rows, in their order.
  private func artworkKeys(_ indexPaths: [IndexPath]) -> [ArtworkKey] {
    let style = Artwork.Style(tableView.traitCollection)
    return indexPaths.flatMap { indexPath in
      (0..<ImageRowCell.imageCount).map { ArtworkKey(row: indexPath.row, slot: $0, style: style) }
    }
  }

  /// A row that came on screen: if its draws were parked when it left, they run again.
  func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) {
    queue.cellWillDisplay(cell, at: indexPath)
  }

  /// A row that left the screen: its queued draws wait, so they never run before the rows now on screen.
  func tableView(_ tableView: UITableView, didEndDisplaying cell: UITableViewCell, forRowAt indexPath: IndexPath) {
    queue.cellDidEndDisplaying(cell, at: indexPath)
  }
}

/// What a picture depends on: its row, its slot and the style it was drawn in. Draws for the same key share one
/// render and one cached result.
struct ArtworkKey: Hashable, Sendable {
  let row: Int
  let slot: Int
  let style: Artwork.Style
}
