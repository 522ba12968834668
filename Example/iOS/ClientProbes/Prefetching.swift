// Issue 25: prefetching and asynchronous preparation as the article "Preparing off the main thread" writes them —
// a `Preparation` said once, a table view with index paths, a collection view with a diffable data source's item
// identifiers, and an `async` preparation (a URLSession download, then an ImageIO thumbnail). `../shared/ios-check/run`
// type-checks this file against the iOS SDK as a client module of IdleWork.
import Foundation
import IdleWork
import IdleWorkPreparation
import ImageIO
import UIKit

// MARK: What the article's snippets assume

/// A photo of the feed: plain values a worker may hold; equal photos share one preparation and one cached image.
struct Photo: Hashable, Sendable {
  let id: UUID
  let url: URL
}

/// A post whose picture is downloaded.
struct Post: Hashable, Sendable {
  let id: UUID
  let imageURL: URL
}

enum Thumbnails {
  struct Unreadable: Error {}

  /// Decodes and downsamples the image at `url` (ImageIO: safe off the main thread).
  static func decode(_ url: URL, maxPixels: Int) throws -> CGImage {
    guard let source = CGImageSourceCreateWithURL(url as CFURL, nil),
      let image = CGImageSourceCreateThumbnailAtIndex(
        source, 0,
        [kCGImageSourceCreateThumbnailFromImageAlways: true, kCGImageSourceThumbnailMaxPixelSize: maxPixels]
          as CFDictionary)
    else { throw Unreadable() }
    return image
  }
}

final class PhotoCell: UITableViewCell {
  let photoView = UIImageView()
}

final class PhotoItemCell: UICollectionViewCell {
  let photoView = UIImageView()
}

// MARK: A table view with index paths

final class PhotosViewController: UITableViewController, UITableViewDataSourcePrefetching {
  var photos: [Photo] = []

  let queue = IdleQueue(configuration: .scrollingFeed())  // a 32 MB result cache: prefetching needs one
  lazy var preparer = Preparer(queue: queue)  // the queue's workers and result cache
  let thumbnail = Preparation { (photo: Photo, isCancelled) in
    let decoded = try Thumbnails.decode(photo.url, maxPixels: 400)  // ImageIO, on a worker
    if isCancelled() { throw CancellationError() }
    return UIImage(cgImage: decoded)
  }

  override func viewDidLoad() {
    super.viewDidLoad()
    tableView.prefetchDataSource = self
  }

  override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
    let cell = tableView.dequeueReusableCell(withIdentifier: "photo", for: indexPath) as! PhotoCell
    queue.bind(cell, to: indexPath)
    cell.photoView.image = nil
    preparer.addTask(for: cell, at: indexPath, prepare: thumbnail, from: photos[indexPath.row]) { cell, image in
      cell.photoView.image = image
    }
    return cell
  }

  func tableView(_ tableView: UITableView, prefetchRowsAt indexPaths: [IndexPath]) {
    preparer.prefetch(thumbnail, from: indexPaths.map { photos[$0.row] })
  }

  func tableView(_ tableView: UITableView, cancelPrefetchingForRowsAt indexPaths: [IndexPath]) {
    preparer.cancelPrefetching(thumbnail, from: indexPaths.map { photos[$0.row] })
  }
}

// MARK: A collection view with a diffable data source

final class GalleryViewController: UIViewController, UICollectionViewDataSourcePrefetching {
  var library: [UUID: Photo] = [:]
  var dataSource: UICollectionViewDiffableDataSource<Int, UUID>!
  let queue = IdleQueue(configuration: .scrollingFeed())
  lazy var preparer = Preparer(queue: queue)  // the queue's workers and result cache
  let thumbnail = Preparation { (photo: Photo, _) in
    UIImage(cgImage: try Thumbnails.decode(photo.url, maxPixels: 400))
  }

  func collectionView(_ collectionView: UICollectionView, prefetchItemsAt indexPaths: [IndexPath]) {
    preparer.prefetch(
      thumbnail, from: indexPaths.compactMap { dataSource.itemIdentifier(for: $0).flatMap { library[$0] } })
  }

  func collectionView(_ collectionView: UICollectionView, cancelPrefetchingForItemsAt indexPaths: [IndexPath]) {
    preparer.cancelPrefetching(
      thumbnail, from: indexPaths.compactMap { dataSource.itemIdentifier(for: $0).flatMap { library[$0] } })
  }

  func configure(_ cell: PhotoItemCell, at indexPath: IndexPath) {
    guard let item = dataSource.itemIdentifier(for: indexPath), let photo = library[item] else { return }
    queue.bind(cell, to: item)
    preparer.addTask(for: cell, at: item, prepare: thumbnail, from: photo) { cell, image in
      cell.photoView.image = image
    }
  }
}

// MARK: Asynchronous preparation

@MainActor
func asynchronousPreparationExample(preparer: Preparer, cell: PhotoCell, indexPath: IndexPath, post: Post) {
  let remoteThumbnail = Preparation { (url: URL, _) in
    let (data, _) = try await URLSession.shared.data(from: url)  // cancelled with the task
    try Task.checkCancellation()
    guard let source = CGImageSourceCreateWithData(data as CFData, nil),
      let image = CGImageSourceCreateThumbnailAtIndex(
        source, 0,
        [kCGImageSourceCreateThumbnailFromImageAlways: true, kCGImageSourceThumbnailMaxPixelSize: 400] as CFDictionary)
    else { throw CocoaError(.fileReadCorruptFile) }
    return UIImage(cgImage: image)
  }
  preparer.addTask(for: cell, at: indexPath, prepare: remoteThumbnail, from: post.imageURL) { cell, image in
    cell.photoView.image = image
  }
}

@MainActor
func cacheHitsExample(preparer: Preparer) -> Int {
  preparer.statistics.cacheHits
}
