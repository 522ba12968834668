// Issue 17: prepared tasks as an app writes them — draw and decode off the main thread, apply in an idle pass.
// A diffable collection view's cells by item identifier, `Preparation`s with their inputs, `resultBytes` from a
// `CGImage`, `isCancelled` polled between steps, the plain key form (a header), prefetches, a `Configuration` with
// `workers` and `resultCacheLimit`, and the statistics' new fields. `../shared/ios-check/run` type-checks this
// file against the iOS SDK as a client module of IdleWork. (The unit-test shape, with
// `ManualPassDriver.runPreparations`, is in IdleWorkTesting, which the probes do not import.)
import CoreText
import Foundation
import IdleWork
import IdleWorkPreparation
import ImageIO
import UIKit

// MARK: The model: plain values a worker may hold

/// A post of the feed: an identifier, a version that changes with an edit, and what is drawn from it.
struct Post: Hashable, Sendable {
  let id: UUID
  let version: Int
  let imageURL: URL
  let caption: String
}

/// Everything a cell's picture depends on, its input: two requests with equal inputs share one render and one cached
/// result.
struct PictureKey: Hashable, Sendable {
  let post: Post
  let style: DrawingStyle
}

/// The header's input: its file and the scale it is drawn at.
struct HeaderRequest: Hashable, Sendable {
  let url: URL
  let scale: CGFloat
}

/// Read on the main thread from the collection view's traits, then captured by `prepare`: a worker's own traits
/// are not the view's.
struct DrawingStyle: Hashable, Sendable {
  let scale: CGFloat
  let pointWidth: CGFloat
  let isDark: Bool
  let background: UIColor
  let textColor: UIColor

  @MainActor
  init(_ view: UIView) {
    let traits = view.traitCollection
    scale = traits.displayScale
    pointWidth = view.bounds.width
    isDark = traits.userInterfaceStyle == .dark
    background = UIColor.secondarySystemBackground.resolvedColor(with: traits)
    textColor = UIColor.label.resolvedColor(with: traits)
  }
}

enum PictureError: Error {
  case unreadable(URL)
}

// MARK: The drawing: only what is safe off the main thread

enum PostPicture {
  /// Step 1, ImageIO: a downsampled decode straight from the file.
  static func decode(_ url: URL, maxPixels: Int) throws -> CGImage {
    guard let source = CGImageSourceCreateWithURL(url as CFURL, [kCGImageSourceShouldCache: false] as CFDictionary),
      let image = CGImageSourceCreateThumbnailAtIndex(
        source, 0,
        [
          kCGImageSourceCreateThumbnailFromImageAlways: true, kCGImageSourceShouldCacheImmediately: true,
          kCGImageSourceCreateThumbnailWithTransform: true, kCGImageSourceThumbnailMaxPixelSize: maxPixels,
        ] as CFDictionary)
    else { throw PictureError.unreadable(url) }
    return image
  }

  /// Step 2, Core Text: the caption laid out once, on this thread (a framesetter is used by one thread at a time).
  static func layOut(_ caption: String, width: CGFloat, color: UIColor) -> (frame: CTFrame, height: CGFloat) {
    let text = NSAttributedString(
      string: caption, attributes: [.font: UIFont.systemFont(ofSize: 15), .foregroundColor: color])
    let framesetter = CTFramesetterCreateWithAttributedString(text)
    let fit = CTFramesetterSuggestFrameSizeWithConstraints(
      framesetter, CFRange(), nil, CGSize(width: width, height: .greatestFiniteMagnitude), nil)
    let path = CGPath(rect: CGRect(x: 0, y: 0, width: width, height: ceil(fit.height)), transform: nil)
    return (CTFramesetterCreateFrame(framesetter, CFRange(), path, nil), ceil(fit.height))
  }

  /// Step 3, `UIGraphicsImageRenderer`: the photo and the caption composed into one bitmap.
  static func compose(_ photo: CGImage, caption: (frame: CTFrame, height: CGFloat), style: DrawingStyle) -> UIImage {
    let width = style.pointWidth
    let photoHeight = width * CGFloat(photo.height) / CGFloat(max(photo.width, 1))
    let format = UIGraphicsImageRendererFormat()
    format.scale = style.scale
    format.opaque = true
    let size = CGSize(width: width, height: photoHeight + caption.height)
    return UIGraphicsImageRenderer(size: size, format: format).image { context in
      style.background.setFill()
      context.fill(CGRect(origin: .zero, size: size))
      UIImage(cgImage: photo).draw(in: CGRect(x: 0, y: 0, width: width, height: photoHeight))
      let cg = context.cgContext
      cg.saveGState()
      cg.translateBy(x: 0, y: size.height)  // Core Text draws with y up
      cg.scaleBy(x: 1, y: -1)
      CTFrameDraw(caption.frame, cg)
      cg.restoreGState()
    }
  }

  /// The whole render, polling `isCancelled` between its steps: a cell configured again stops it early.
  static func render(_ post: Post, style: DrawingStyle, isCancelled: () -> Bool) throws -> UIImage {
    let photo = try decode(post.imageURL, maxPixels: Int(style.pointWidth * style.scale))
    if isCancelled() { throw CancellationError() }
    let caption = layOut(post.caption, width: style.pointWidth, color: style.textColor)
    if isCancelled() { throw CancellationError() }
    return compose(photo, caption: caption, style: style)
  }

  /// A result's size for the cache: its bitmap's bytes, not the few bytes of a `UIImage` reference.
  @Sendable static func bytes(_ image: UIImage) -> Int {
    guard let cgImage = image.cgImage else { return 0 }
    return cgImage.bytesPerRow * cgImage.height
  }
}

// MARK: The screen

final class PostCell: UICollectionViewCell {
  let pictureView = UIImageView()
}

/// A feed of posts in a collection view with a diffable data source: cells are named by item identifier (posts
/// move), pictures are prepared on the queue's workers and applied in its passes.
final class PostFeedViewController: UIViewController, UICollectionViewDelegate,
  UICollectionViewDataSourcePrefetching
{
  /// The screen's own queue, the scrolling-feed preset, and its preparer: two workers, 48 MB of pictures kept.
  let queue = IdleQueue(configuration: .scrollingFeed())
  lazy var preparer: Preparer = {
    var configuration = Preparer.Configuration()
    configuration.workers = 2
    configuration.resultCacheLimit = 48 << 20
    return Preparer(queue: queue, configuration: configuration)
  }()
  /// The same, spelled out in the initialisers.
  let thumbnails = Preparer(
    queue: IdleQueue(configuration: IdleQueue.Configuration(budget: .seconds(0.004), maximumQueueLength: 64)),
    configuration: Preparer.Configuration(workers: 1, resultCacheLimit: 8 << 20))
  var posts: [UUID: Post] = [:]
  var collectionView: UICollectionView!
  var dataSource: UICollectionViewDiffableDataSource<Int, UUID>!
  let headerView = UIImageView()
  private var headerTask: IdleTaskHandle?
  /// How a post's picture is made, said once: used by the cells' tasks and the prefetches alike.
  let picture = Preparation(resultBytes: PostPicture.bytes) { (key: PictureKey, isCancelled) in
    try PostPicture.render(key.post, style: key.style, isCancelled: isCancelled)
  }
  /// The header: decoded and prepared for display on a worker.
  let headerPicture = Preparation { (request: HeaderRequest, _) in
    let decoded = try PostPicture.decode(request.url, maxPixels: Int(390 * request.scale))
    return UIImage(cgImage: decoded, scale: request.scale, orientation: .up).preparingForDisplay() ?? UIImage()
  }
  /// A raw Core Graphics bitmap context, also safe off the main thread; the value is a `CGImage`.
  let placeholder = Preparation(resultBytes: { (image: CGImage) in image.bytesPerRow * image.height }) {
    (pixels: Int, _) in
    let context = CGContext(
      data: nil, width: pixels, height: pixels, bitsPerComponent: 8, bytesPerRow: 0,
      space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.noneSkipFirst.rawValue)
    context?.setFillColor(gray: 0.9, alpha: 1)
    context?.fill(CGRect(x: 0, y: 0, width: pixels, height: pixels))
    guard let image = context?.makeImage() else { throw CancellationError() }
    return image
  }

  deinit {
    queue.invalidate()
    thumbnails.queue.invalidate()
  }

  override func viewDidLoad() {
    super.viewDidLoad()
    collectionView = UICollectionView(
      frame: view.bounds, collectionViewLayout: UICollectionViewFlowLayout())
    collectionView.delegate = self
    collectionView.prefetchDataSource = self
    view.addSubview(collectionView)
    let registration = UICollectionView.CellRegistration<PostCell, UUID> { [unowned self] cell, _, item in
      configure(cell, for: item)
    }
    dataSource = UICollectionViewDiffableDataSource(collectionView: collectionView) { view, indexPath, item in
      view.dequeueConfiguredReusableCell(using: registration, for: indexPath, item: item)
    }
  }

  /// The cell form: bound to the item identifier, the picture shared and cached by its input. A cached picture
  /// is applied inside this call, so a reconfigured or reloaded cell never shows a blank frame.
  func configure(_ cell: PostCell, for item: UUID) {
    guard let post = posts[item] else { return }
    let style = DrawingStyle(collectionView)
    queue.bind(cell, to: item)
    cell.pictureView.image = nil
    let handle = preparer.addTask(for: cell, at: item, prepare: picture, from: PictureKey(post: post, style: style)) {
      cell, image in
      cell.pictureView.image = image
    }
    if !handle.isPending { print("applied from the cache, in cellForItemAt") }
  }

  /// Prefetches: their renders go after those of cells on screen; their results land in the cache, and a cell that
  /// asks for the same input joins the render still running or applies the result kept.
  func collectionView(_ collectionView: UICollectionView, prefetchItemsAt indexPaths: [IndexPath]) {
    preparer.prefetch(picture, from: pictureKeys(indexPaths))
  }

  /// A cell's task that joined a prefetch keeps its render.
  func collectionView(_ collectionView: UICollectionView, cancelPrefetchingForItemsAt indexPaths: [IndexPath]) {
    preparer.cancelPrefetching(picture, from: pictureKeys(indexPaths))
  }

  /// The pictures of these items, in their order.
  private func pictureKeys(_ indexPaths: [IndexPath]) -> [PictureKey] {
    let style = DrawingStyle(collectionView)
    return indexPaths.compactMap { indexPath in
      dataSource.itemIdentifier(for: indexPath).flatMap { posts[$0] }.map { PictureKey(post: $0, style: style) }
    }
  }

  func collectionView(
    _ collectionView: UICollectionView, willDisplay cell: UICollectionViewCell, forItemAt indexPath: IndexPath
  ) {
    guard let item = dataSource.itemIdentifier(for: indexPath) else { return }
    queue.cellWillDisplay(cell, at: item)  // its waiting render may start again
  }

  func collectionView(
    _ collectionView: UICollectionView, didEndDisplaying cell: UICollectionViewCell, forItemAt indexPath: IndexPath
  ) {
    guard let item = dataSource.itemIdentifier(for: indexPath) else { return }
    queue.cellDidEndDisplaying(cell, at: item)  // its render waits unstarted while it is off screen
  }

  /// The plain key form, with an apply cost stated and a handle.
  func showHeader(from url: URL) {
    headerTask?.cancel()
    let request = HeaderRequest(url: url, scale: view.traitCollection.displayScale)
    headerTask = thumbnails.addTask(key: "header", prepare: headerPicture, from: request, estimatedCost: 0.0005) {
      [weak self] image in
      self?.headerView.image = image
    }
  }

  /// The plain key form, droppable: prepared after the rows on screen, dropped first on a memory warning.
  func showPlaceholder(in imageView: UIImageView, pixels: Int) {
    thumbnails.addTask(key: "placeholder", prepare: placeholder, from: pixels, droppable: true) { image in
      imageView.image = UIImage(cgImage: image)
    }
  }

  /// What the queue did with every task, and what preparation did besides.
  func logStatistics() {
    let s = queue.statistics
    let accounted = s.executed + s.skippedAsStale + s.evicted + s.cancelled + s.pending
    assert(s.added == accounted)
    let p = preparer.statistics
    print(
      "applied \(s.executed), stale \(s.skippedAsStale), evicted \(s.evicted), cancelled \(s.cancelled) "
        + "(of which failed \(p.failed)), pending \(s.pending), wasted renders \(p.wastedPreparations), "
        + "longest pass \(s.longestPassDuration * 1000) ms")
  }
}
