// The code examples of IdleWork's DocC catalog (Sources/IdleWork/IdleWork.docc) and of the public doc comments
// whose examples an app would write, verbatim inside the scaffolding they assume. `../shared/ios-check/run`
// type-checks this file against the iOS SDK as a client module of IdleWork, so an example that stops compiling
// fails CI. The examples of IdleWorkTesting (unit tests with ManualPassDriver) are not here: they need XCTest.
import IdleWork
import IdleWorkPreparation
import ImageIO
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

/// The landing page's screen: the queue is a stored property, the rest is `cellForRowAt`'s.
final class LandingPageViewController: UITableViewController {
  // The feed screen's own queue, set up for scrolling (a stored property of the view controller):
  let queue = IdleQueue(configuration: .scrollingFeed())

  func landingPageExample(cell: FeedCell, at indexPath: IndexPath, item: Item) {
    // In tableView(_:cellForRowAt:):
    queue.bind(cell, to: indexPath)  // a new configuration: the cell's earlier tasks are stale
    cell.titleLabel.text = item.title  // the cheap parts at once
    for (slot, photo) in item.photos.enumerated() {
      queue.addTask(for: cell, at: indexPath) { cell in cell.imageViews[slot].image = photo.rendered() }
    }
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
      guard let paragraph = paragraphs.next() else { return true }  // done
      cell.bodyView.textStorage.append(TextLayout.attributed(paragraph))
    } while timeRemaining() > 0.001
    return false  // more to do, in a later pass
  }
}

// MARK: ChoosingABudget.md

@MainActor
func choosingABudgetExample() -> IdleQueue {
  let thumbnails = IdleQueue(configuration: IdleQueue.Configuration(budget: .seconds(0.004)))
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

// MARK: Doc comments: IdleQueue.addResumableTask(key:droppable:estimatedCost:_:)

@MainActor
func resumableDocCommentExample(queue: IdleQueue, words: [String], index: @escaping @MainActor (String) -> Void) {
  var next = 0
  queue.addResumableTask(key: "index") { timeRemaining in
    while next < words.count, timeRemaining() > 0.001 { index(words[next]); next += 1 }
    return next == words.count
  }
}

// MARK: Doc comments: LaterTask

/// A loader of the app's own, calling back on a thread of its own.
enum ImageLoader {
  static func load(_ url: URL, completion: @escaping @Sendable (UIImage) -> Void) {
    DispatchQueue.global().async { completion(UIImage()) }
  }
}

/// A cell with a photo view, for the later-task example.
final class LoadedPhotoCell: UITableViewCell {
  let photoView = UIImageView()
}

/// A download of the app's own loader, as the `addLaterTask` example assumes.
@MainActor
final class Download {
  enum Priority { case high, low }
  var priority = Priority.high
  func cancel() {}
}

@MainActor
func addLaterTaskDocCommentExample(queue: IdleQueue, cell: LoadedPhotoCell, indexPath: IndexPath) {
  let download = Download()
  let task = queue.addLaterTask(
    for: cell, at: indexPath,
    onDisplayChange: { isDisplayed in download.priority = isDisplayed ? .high : .low },
    onAbandon: { download.cancel() })
  _ = task
}

@MainActor
func laterTaskDocCommentExample(queue: IdleQueue, cell: LoadedPhotoCell, indexPath: IndexPath, url: URL) {
  let loader = ImageLoader.self
  let task = queue.addLaterTask(for: cell, at: indexPath)
  loader.load(url) { image in  // any thread
    task.fulfill { cell in cell.photoView.image = image }  // runs in a pass, if the cell still shows the row
  }
}

// MARK: Doc comments: IdleQueue.Scrolling

func scrollingExample() -> IdleQueue {
  var configuration = IdleQueue.Configuration()
  configuration.scrolling = .fitToFrames()  // on iOS, the display link is the frame clock
  return IdleQueue(configuration: configuration)
}

/// A frame clock of the app's own, given to the knob and to the preset.
@MainActor
func scrollingWithAClockOfYourOwn(link: CADisplayLink) -> (IdleQueue, IdleQueue) {
  let timeUntilNextFrame: @MainActor @Sendable () -> TimeInterval? = { [weak link] in
    link.map { $0.targetTimestamp - CACurrentMediaTime() }
  }
  let paused = IdleQueue(configuration: IdleQueue.Configuration(scrolling: .pause))
  paused.invalidate()
  let fitted = IdleQueue(configuration: .init(scrolling: .fitToFrames(timeUntilNextFrame: timeUntilNextFrame)))
  return (fitted, IdleQueue(configuration: .scrollingFeed(timeUntilNextFrame: timeUntilNextFrame)))
}

// MARK: PreparingOffTheMainThread.md

/// A photo of the library: plain values, so a `prepare` closure may capture it.
struct LibraryPhoto: Sendable {
  let id: Int
  let version: Int
  let url: URL
}

/// What a thumbnail depends on and is made from: the article's input.
struct PhotoKey: Hashable, Sendable {
  let id: Int
  let version: Int
  let url: URL
  let scale: CGFloat
}

/// A type of your own that holds an image: it needs `resultBytes`.
struct Thumbnail: Sendable {
  let image: CGImage
}

/// A collection view cell with one image view.
final class PhotoCell: UICollectionViewCell {
  let imageView = UIImageView()
}

enum ThumbnailError: Error {
  case unreadable
}

/// Safe off the main thread: ImageIO and a bitmap renderer, nothing of the views, the screen or the traits.
enum Thumbnails {
  /// ImageIO: decodes a thumbnail of at most `maxPixels` on a side straight from the file.
  static func decode(_ url: URL, maxPixels: Int) throws -> CGImage {
    guard let source = CGImageSourceCreateWithURL(url as CFURL, [kCGImageSourceShouldCache: false] as CFDictionary)
    else { throw ThumbnailError.unreadable }
    let options =
      [
        kCGImageSourceCreateThumbnailFromImageAlways: true, kCGImageSourceShouldCacheImmediately: true,
        kCGImageSourceCreateThumbnailWithTransform: true, kCGImageSourceThumbnailMaxPixelSize: maxPixels,
      ] as CFDictionary
    guard let image = CGImageSourceCreateThumbnailAtIndex(source, 0, options) else { throw ThumbnailError.unreadable }
    return image
  }

  /// UIGraphicsImageRenderer: the decoded image with rounded corners, at `scale`.
  static func rounded(_ image: CGImage, scale: CGFloat) -> UIImage {
    let format = UIGraphicsImageRendererFormat()
    format.scale = scale
    let size = CGSize(width: CGFloat(image.width) / scale, height: CGFloat(image.height) / scale)
    return UIGraphicsImageRenderer(size: size, format: format).image { context in
      UIBezierPath(roundedRect: context.format.bounds, cornerRadius: 8).addClip()
      UIImage(cgImage: image).draw(in: context.format.bounds)
    }
  }
}

/// The article's screen: a gallery with a diffable data source and a queue of its own.
final class GalleryViewController: UIViewController, UICollectionViewDataSourcePrefetching {
  let queue = IdleQueue(configuration: .scrollingFeed())
  lazy var preparer = Preparer(queue: queue)  // the queue's workers and result cache
  var dataSource: UICollectionViewDiffableDataSource<Int, Int>!
  var library: [Int: LibraryPhoto] = [:]
  let thumbnail = Preparation { (photo: PhotoKey, isCancelled) in  // once, as a stored property
    let decoded = try Thumbnails.decode(photo.url, maxPixels: 400)  // ImageIO, on a worker
    if isCancelled() { throw CancellationError() }  // no cell waits for it any more
    return Thumbnails.rounded(decoded, scale: photo.scale)  // UIGraphicsImageRenderer, on a worker
  }
  let headerImage = Preparation { (url: URL, _) in try Thumbnails.decode(url, maxPixels: 1_200) }
  let sizedThumbnail = Preparation(resultBytes: { $0.image.bytesPerRow * $0.image.height }) {
    (photo: PhotoKey, _) in
    Thumbnail(image: try Thumbnails.decode(photo.url, maxPixels: 400))
  }

  func overviewExample(_ collectionView: UICollectionView, cell: PhotoCell, indexPath: IndexPath) {
    // In collectionView(_:cellForItemAt:), with a diffable data source's item identifiers:
    let item = dataSource.itemIdentifier(for: indexPath)!
    let photo = library[item]!  // a Sendable value: an identifier, a version, a URL
    let scale = collectionView.traitCollection.displayScale  // read on the main thread
    queue.bind(cell, to: item)
    cell.imageView.image = nil
    let input = PhotoKey(id: photo.id, version: photo.version, url: photo.url, scale: scale)
    preparer.addTask(for: cell, at: item, prepare: thumbnail, from: input) { cell, image in
      cell.imageView.image = image  // on the main thread, in a pass, only if the cell still shows `item`
    }
  }

  func headerExample(headerURL: URL, headerView: UIImageView) {
    preparer.addTask(key: "header", prepare: headerImage, from: headerURL) { image in
      headerView.image = UIImage(cgImage: image)
    }
  }

  func collectionView(_ collectionView: UICollectionView, prefetchItemsAt indexPaths: [IndexPath]) {
    let scale = collectionView.traitCollection.displayScale
    let inputs = indexPaths.compactMap { indexPath -> PhotoKey? in
      guard let item = dataSource.itemIdentifier(for: indexPath), let photo = library[item] else { return nil }
      return PhotoKey(id: photo.id, version: photo.version, url: photo.url, scale: scale)
    }
    preparer.prefetch(thumbnail, from: inputs)  // the results wait in the cache for the cells that ask
  }

  func statisticsExample() {
    let s = queue.statistics
    let p = preparer.statistics
    print(
      "applied \(s.executed), stale \(s.skippedAsStale), evicted \(s.evicted), cancelled \(s.cancelled), "
        + "failed \(p.failed), from the cache \(p.cacheHits), wasted renders \(p.wastedPreparations)")
  }

  func workersExample() -> Preparer {
    let gallery = IdleQueue(configuration: .scrollingFeed())
    let preparer = Preparer(queue: gallery, configuration: .init(workers: 2, resultCacheLimit: 64 << 20))
    return preparer
  }
}

// MARK: Doc comments: IdleQueue's prepared addTask forms

func decodeThumbnail(at url: URL) throws -> UIImage {
  Thumbnails.rounded(try Thumbnails.decode(url, maxPixels: 400), scale: 2)
}

func renderThumbnail(of photo: LibraryPhoto) -> UIImage {
  (try? decodeThumbnail(at: photo.url)) ?? UIImage()
}

/// A cell with a `photoView`, as the cell form's doc comment assumes.
final class ThumbnailCell: UITableViewCell {
  let photoView = UIImageView()
}

/// The doc comments' `Preparation`, said once.
let docCommentThumbnail = Preparation { (url: URL, isCancelled) in
  try decodeThumbnail(at: url)  // off the main thread
}

@MainActor
func preparedDocCommentExamples(
  queue: IdleQueue, preparer: Preparer, url: URL, headerView: UIImageView, cell: ThumbnailCell, indexPath: IndexPath,
  photo: LibraryPhoto, indexPaths: [IndexPath], photos: [LibraryPhoto]
) {
  let thumbnail = docCommentThumbnail
  preparer.addTask(key: url, prepare: thumbnail, from: url) { image in
    headerView.image = image  // on the main thread, in an idle pass
  }

  queue.bind(cell, to: indexPath)
  preparer.addTask(for: cell, at: indexPath, prepare: thumbnail, from: photo.url) { cell, image in
    cell.photoView.image = image
  }
  preparer.prefetch(thumbnail, from: indexPaths.map { photos[$0.row].url })
  preparer.cancelPrefetching(thumbnail, from: indexPaths.map { photos[$0.row].url })
}

/// Preparing off the main thread: a factory's preparations, made anew on each call, share by their identifier.
func thumbnail(maxPixels: Int) -> Preparation<PhotoKey, CGImage> {
  Preparation { (photo: PhotoKey, _) in try Thumbnails.decode(photo.url, maxPixels: maxPixels) }
    .identified(by: "thumbnail \(maxPixels)")  // 100 and 400 never share; two 400s do
}
