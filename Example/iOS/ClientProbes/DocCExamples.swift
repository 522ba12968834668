// The code examples of IdleWork's DocC catalog (Sources/IdleWork/IdleWork.docc) and of the public doc comments
// whose examples an app would write, verbatim inside the scaffolding they assume. `../shared/ios-check/run`
// type-checks this file against the iOS SDK as a client module of IdleWork, so an example that stops compiling
// fails CI. The examples of IdleWorkTesting (unit tests with ManualPassDriver) are not here: they need XCTest.
import IdleWork
import UIKit

// MARK: Scaffolding the examples assume

/// The app's drawing: a few milliseconds of real rasterisation per picture.
@MainActor
enum Artwork {
  static func draw(row: Int, slot: Int) -> UIImage {
    UIGraphicsImageRenderer(size: CGSize(width: 85, height: 85)).image { context in
      UIColor(hue: CGFloat(row % 12) / 12, saturation: 0.8, brightness: 0.9, alpha: 1).setFill()
      UIBezierPath(roundedRect: context.format.bounds, cornerRadius: CGFloat(slot) * 4).fill()
    }
  }
}

/// One photo of a feed item.
struct Photo {
  let row: Int
  let slot: Int
  @MainActor func rendered() -> UIImage { Artwork.draw(row: row, slot: slot) }
}

/// A feed item.
struct Item {
  let id: Int
  let row: Int
  let title: String
  let photos: [Photo]
}

/// An article whose body is laid out paragraph by paragraph.
struct Article {
  let paragraphs: [String]
}

/// Turns a paragraph into attributed text.
enum TextLayout {
  static func attributed(_ paragraph: String) -> NSAttributedString {
    NSAttributedString(string: paragraph + "\n", attributes: [.font: UIFont.preferredFont(forTextStyle: .body)])
  }
}

/// A cell with a text view, for the resumable-task example.
final class ArticleCell: UITableViewCell {
  let bodyView = UITextView()
}

// MARK: IdleWork.md (the module's landing page)

/// The cell of the landing page's example.
final class FeedCell: UITableViewCell {
  let titleLabel = UILabel()
  let imageViews = [UIImageView(), UIImageView(), UIImageView()]
}

@MainActor
func landingPageExample(cell: FeedCell, at indexPath: IndexPath, item: Item) {
  // In tableView(_:cellForRowAt:):
  IdleQueue.main.bind(cell, to: indexPath)  // a new configuration: the cell's earlier tasks are stale
  cell.titleLabel.text = item.title  // the cheap parts at once
  for (slot, photo) in item.photos.enumerated() {
    IdleQueue.main.addTask(for: cell, at: indexPath) { cell in cell.imageViews[slot].image = photo.rendered() }
  }
}

// MARK: SlicingHeavyCellWork.md

final class ImageRowCell: UITableViewCell {
  let titleLabel = UILabel()
  let imageViews = [UIImageView(), UIImageView(), UIImageView()]
}

final class SlicingViewController: UITableViewController {
  override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
    let cell = tableView.dequeueReusableCell(withIdentifier: "row", for: indexPath) as! ImageRowCell
    IdleQueue.main.bind(cell, to: indexPath)
    cell.titleLabel.text = "\(indexPath.row) - drawing the index is top priority"
    for slot in 0..<3 {
      cell.imageViews[slot].image = nil
      IdleQueue.main.addTask(for: cell, at: indexPath) { cell in
        cell.imageViews[slot].image = Artwork.draw(row: indexPath.row, slot: slot)
      }
    }
    return cell
  }

  override func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) {
    IdleQueue.main.cellWillDisplay(cell, at: indexPath)
  }

  override func tableView(
    _ tableView: UITableView, didEndDisplaying cell: UITableViewCell, forRowAt indexPath: IndexPath
  ) {
    IdleQueue.main.cellDidEndDisplaying(cell, at: indexPath)
  }
}

/// SlicingHeavyCellWork, "Rows that are inserted, deleted or moved": a diffable data source's item identifiers.
@MainActor
func itemIdentifierExample(
  dataSource: UICollectionViewDiffableDataSource<Int, Int>, cell: GalleryCell, indexPath: IndexPath,
  photos: [Int: Photo]
) {
  let item = dataSource.itemIdentifier(for: indexPath)!
  IdleQueue.main.bind(cell, to: item)
  IdleQueue.main.addTask(for: cell, at: item) { cell in cell.imageView.image = photos[item]?.rendered() }
}

/// Lists sharing `IdleQueue.main` key their cell tasks apart (`addTask(for:at:key:…)`'s doc comment).
@MainActor
func keyedByListExample(tableView: UITableView, cell: GalleryCell, indexPath: IndexPath, image: Photo) {
  IdleQueue.main.addTask(for: cell, at: indexPath, key: ObjectIdentifier(tableView)) { cell in cell.draw(image) }
  IdleQueue.main.cancelTasks(forKey: ObjectIdentifier(tableView))
}

@MainActor
func checkWhatHappened() {
  let statistics = IdleQueue.main.statistics
  print("executed \(statistics.executed), stale \(statistics.skippedAsStale), evicted \(statistics.evicted)")
}

@MainActor
func resumableTaskExample(cell: ArticleCell, at indexPath: IndexPath, article: Article) {
  var paragraphs = article.paragraphs.makeIterator()
  IdleQueue.main.addResumableTask(for: cell, at: indexPath) { cell, timeRemaining in
    repeat {
      guard let paragraph = paragraphs.next() else { return .done }
      cell.bodyView.textStorage.append(TextLayout.attributed(paragraph))
    } while timeRemaining() > 0.001
    return .moreToDo
  }
}

@MainActor
func performExample(item: Item) async throws -> UIImage {
  let thumbnail = try await IdleQueue.main.perform(key: item.id) { Artwork.draw(row: item.row, slot: 0) }
  return thumbnail
}

// MARK: ChoosingABudget.md

@MainActor
func choosingABudgetExample() -> IdleQueue {
  let thumbnails = IdleQueue(configuration: IdleQueue.Configuration(budget: .seconds(0.004)))
  IdleQueue.main.budget = .seconds(0.002)
  return thumbnails
}

// MARK: ComingFromDWURunLoopWorkDistribution.md

/// The DWU demo's view controller, ported: its drawing routine, and the calls of the article.
final class ViewController: UITableViewController {
  static func drawSecondImage(in cell: UITableViewCell, at indexPath: IndexPath) {
    cell.imageView?.image = Artwork.draw(row: indexPath.row, slot: 1)
  }

  override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
    let cell = tableView.dequeueReusableCell(withIdentifier: "row", for: indexPath)
    IdleQueue.main.bind(cell, to: indexPath)
    IdleQueue.main.addTask(for: cell, at: indexPath) { cell in
      ViewController.drawSecondImage(in: cell, at: indexPath)
    }
    return cell
  }

  override func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) {
    IdleQueue.main.cellWillDisplay(cell, at: indexPath)
  }

  override func tableView(
    _ tableView: UITableView, didEndDisplaying cell: UITableViewCell, forRowAt indexPath: IndexPath
  ) {
    IdleQueue.main.cellDidEndDisplaying(cell, at: indexPath)
  }
}

/// "Your `currentIndexPath` stays yours": an app cell that declares its own, kept beside `bind`.
final class LegacyCell: UITableViewCell {
  var currentIndexPath: IndexPath?
}

@MainActor
func legacyCellExample(cell: LegacyCell, at indexPath: IndexPath) {
  cell.currentIndexPath = indexPath  // still read by other code of the app
  IdleQueue.main.bind(cell, to: indexPath)
  IdleQueue.main.addTask(for: cell, at: indexPath) { cell in
    cell.imageView?.image = Artwork.draw(row: cell.currentIndexPath?.row ?? 0, slot: 0)
  }
}

// MARK: Doc comments: IdleQueue

/// A cell with a `draw(_:)` of its own, as the example of `IdleQueue`'s overview assumes.
final class GalleryCell: UICollectionViewCell {
  let imageView = UIImageView()
  func draw(_ image: Photo) { imageView.image = image.rendered() }
}

@MainActor
func idleQueueOverviewExample(cell: GalleryCell, at indexPath: IndexPath, images: [Photo]) {
  IdleQueue.main.bind(cell, to: indexPath)  // or the item identifier, when rows move
  for image in images {
    IdleQueue.main.addTask(for: cell, at: indexPath) { cell in cell.draw(image) }
  }
}

// MARK: Doc comments: IdleQueue.perform(key:discardable:_:)

@MainActor
final class Renderer {
  func draw(_ item: Item) -> UIImage { Artwork.draw(row: item.row, slot: 0) }
}

@MainActor
func performDocCommentExample(renderer: Renderer, item: Item, indexPath: IndexPath) async throws -> UIImage {
  let image = try await IdleQueue.main.perform(key: indexPath) { renderer.draw(item) }
  return image
}

// MARK: Doc comments: IdleQueue.ScrollingSlack

@MainActor
func scrollingSlackExample(link: CADisplayLink) -> IdleQueue {
  let slack = IdleQueue.ScrollingSlack(timeUntilNextFrame: { [weak link] in
    link.map { $0.targetTimestamp - CACurrentMediaTime() }
  })
  return IdleQueue(configuration: IdleQueue.Configuration(scrollingSlack: slack))
}
