// The examples of the DocC article "Coming from DWURunLoopWorkDistribution" (section "What real ports hit"), verbatim
// inside the scaffolding they assume: what ports of four apps' DWU-style code ran into — a loop variable captured
// by a Swift closure, DWU's `BOOL` return, a screen ending its own queue, an async completion asking whether the
// cell still shows the same content. `../shared/ios-check/run` type-checks this file against the iOS SDK as a client
// module of IdleWork, so an example that stops compiling fails CI.
import IdleWork
import IdleWorkPreparation
import UIKit

// MARK: Scaffolding the examples assume

/// One field of a monitoring app's row: a metric drawn at a vertical offset.
struct Field {
  let name: String
  let value: Double
  let height: CGFloat
}

/// A row of the monitoring app: its fields, and whether its values changed since they were drawn.
@MainActor
final class MetricRow {
  var fields: [Field] = []
  var needsRedraw = true
}

/// The monitoring app's cell: each field is a label added at its offset.
final class MetricsCell: UITableViewCell {
  func draw(_ field: Field, atY y: CGFloat) {
    let label = UILabel(frame: CGRect(x: 16, y: y, width: contentView.bounds.width - 32, height: field.height))
    label.text = "\(field.name): \(field.value)"
    contentView.addSubview(label)
  }

  func redraw(_ row: MetricRow) {
    contentView.subviews.forEach { $0.removeFromSuperview() }
    var y: CGFloat = 0
    for field in row.fields {
      draw(field, atY: y)
      y += field.height
    }
    row.needsRedraw = false
  }
}

/// A photo's identifier: the item identifier of a diffable data source.
typealias PhotoID = UUID

/// The lazy image table's cell.
final class PhotoCell: UITableViewCell {
  let photoView = UIImageView()
}

enum PhotoError: Error {
  case unreadable(URL)
}

/// Reading and decoding a photo from disk: safe on any thread.
enum PhotoLoader {
  static func thumbnail(at url: URL) throws -> UIImage {
    guard let image = UIImage(contentsOfFile: url.path),
      let thumbnail = image.preparingThumbnail(of: CGSize(width: 120, height: 120))
    else { throw PhotoError.unreadable(url) }
    return thumbnail
  }
}

// MARK: 1. A loop variable: the Objective-C block copied it, a Swift closure captures it

/// Ported line by line from the Objective-C: it compiles, and draws every field at the last offset.
@MainActor
func configureNaively(_ cell: MetricsCell, at indexPath: IndexPath, fields: [Field], queue: IdleQueue) {
  var y: CGFloat = 0
  for field in fields {
    queue.addTask(for: cell, at: indexPath) { cell in
      cell.draw(field, atY: y)  // reads `y` when the task runs: the loop has long finished
    }
    y += field.height
  }
}

/// The port that works.
@MainActor
func configure(_ cell: MetricsCell, at indexPath: IndexPath, fields: [Field], queue: IdleQueue) {
  var y: CGFloat = 0
  for field in fields {
    queue.addTask(for: cell, at: indexPath) { [y] cell in
      cell.draw(field, atY: y)  // `[y]` copies the offset now, as the block did
    }
    y += field.height
  }
}

// MARK: 2. DWU's BOOL return

@MainActor
func refresh(_ cell: MetricsCell, at indexPath: IndexPath, row: MetricRow, queue: IdleQueue) {
  guard row.needsRedraw else { return }  // DWU's early `return NO`: decide before queueing, when you can
  queue.addTask(for: cell, at: indexPath) { cell in
    guard row.needsRedraw else { return }  // `return NO` at run time: returns in microseconds
    cell.redraw(row)  // `return YES`: nothing to return; the budget decides whether the pass goes on
  }
}

// MARK: 3. A screen that ends its own queue

final class MonitorViewController: UITableViewController {
  let queue = IdleQueue(configuration: .scrollingFeed())

  deinit { queue.invalidate() }  // deinit is nonisolated; invalidate() may be called from any thread
}

/// A screen that keeps using the shared queue takes back only its own table's work when it goes.
final class SharedQueueViewController: UITableViewController {
  override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
    let cell = tableView.dequeueReusableCell(withIdentifier: "Metrics", for: indexPath)
    IdleQueue.main.bind(cell, to: indexPath)
    IdleQueue.main.addTask(for: cell, at: indexPath, key: ObjectIdentifier(tableView)) { cell in
      cell.textLabel?.text = "Row \(indexPath.row)"
    }
    return cell
  }

  override func viewDidDisappear(_ animated: Bool) {
    super.viewDidDisappear(animated)
    IdleQueue.main.cancelTasks(forKey: ObjectIdentifier(tableView))  // DWU's removeAllTasks, for this table only
  }
}

// MARK: 4. An async completion: does the cell still show the same content?

final class PhotoListViewController: UITableViewController {
  let queue = IdleQueue(configuration: .scrollingFeed())
  lazy var preparer = Preparer(queue: queue)  // the queue's workers and result cache
  var dataSource: UITableViewDiffableDataSource<Int, PhotoID>!
  var files: [PhotoID: URL] = [:]

  /// (a) The load is a prepared task: read and decoded on a worker, applied only while the cell shows `item`.
  let thumbnail = Preparation { (url: URL, _) in
    try PhotoLoader.thumbnail(at: url)  // on a worker thread
  }

  func configure(_ cell: PhotoCell, for item: PhotoID) {
    guard let url = files[item] else { return }
    queue.bind(cell, to: item)  // item identifiers: the content, wherever its row moves
    cell.photoView.image = nil
    preparer.addTask(for: cell, at: item, prepare: thumbnail, from: url) { cell, image in
      cell.photoView.image = image  // on the main thread, only if the cell still shows `item`
    }
  }

  /// (b) A download finished, on the main actor. Ask the table which cell shows `item` now — not the cell that
  /// started the download, which may show another photo by now.
  func photoDidLoad(_ image: UIImage, for item: PhotoID) {
    guard let indexPath = dataSource.indexPath(for: item),
      let cell = tableView.cellForRow(at: indexPath) as? PhotoCell
    else { return }  // not on screen: cellForRowAt configures it when it comes back
    queue.addTask(for: cell, at: item) { cell in
      cell.photoView.image = image  // joins the cell's configuration for `item`; skipped if it changes first
    }
  }
}
