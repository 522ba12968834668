/// The image cache the `DispatchWorkItem` users write, bounded as an `NSCache` with a `totalCostLimit` would be:
/// images by content, the oldest dropped first once their bytes pass the limit.
struct OldestFirstImageCache {
  let limit: Int
  private var images: [DrawContent: RenderedImage] = [:]
  private var order: [DrawContent] = []
  private var bytes = 0

  init(limit: Int) { self.limit = limit }

  subscript(content: DrawContent) -> RenderedImage? { images[content] }

  /// Keeps `image`, dropping the oldest images beyond the limit.
  mutating func insert(_ image: RenderedImage, for content: DrawContent) {
    if let old = images.updateValue(image, forKey: content) {
      bytes -= old.byteCount
    } else {
      order.append(content)
    }
    bytes += image.byteCount
    while bytes > limit, !order.isEmpty {
      let oldest = order.removeFirst()
      if let gone = images.removeValue(forKey: oldest) { bytes -= gone.byteCount }
    }
  }

  mutating func removeAll() {
    images.removeAll()
    order.removeAll()
    bytes = 0
  }
}
