import Foundation

#if canImport(CoreGraphics)
  import CoreGraphics
#endif
#if canImport(UIKit)
  import UIKit
#elseif canImport(AppKit) && !targetEnvironment(macCatalyst)
  import AppKit
#endif

/// The size a prepared result counts against the cache's limit when its task gives no `resultBytes`.
///
/// The cache is bounded by what its results count, so a default that counts an image as the few bytes of its
/// reference (`MemoryLayout.size(ofValue:)` of an `any Sendable` is the existential's 32 bytes, whatever it
/// holds) leaves a feed's image cache bounded only by memory warnings. The default counts the memory the common
/// result types hold — a decoded image's bitmap, a buffer's bytes — and the true inline size of any other type.
/// It is chosen once per task, in the generic context where the result's type is known, so that an arrival on
/// the main thread costs one call and no search through casts.
enum ResultSize {
  /// How the cache sizes a `Value` by default: by its pixels for `CGImage` and `UIImage` (or `NSImage`), its
  /// `count` for `Data`, its UTF-8 bytes for `String`, and `MemoryLayout<Value>.size` (at least 1) for any
  /// other type — which for a class, or a struct that holds an image, is the size of its references only.
  static func counting<Value: Sendable>(_: Value.Type) -> @Sendable (any Sendable) -> Int {
    #if canImport(CoreGraphics)
      if Value.self == CGImage.self { return { bytes(of: $0 as! CGImage) } }
    #endif
    #if canImport(UIKit)
      if Value.self is UIImage.Type { return { bytes(of: $0 as! UIImage) } }
    #elseif canImport(AppKit) && !targetEnvironment(macCatalyst)
      if Value.self is NSImage.Type { return { bytes(of: $0 as! NSImage) } }
    #endif
    if Value.self == Data.self { return { ($0 as! Data).count } }
    if Value.self == String.self { return { ($0 as! String).utf8.count } }
    let size = max(MemoryLayout<Value>.size, 1)
    return { _ in size }
  }

  #if canImport(CoreGraphics)
    /// A bitmap's bytes: its rows (padding included) times its height.
    static func bytes(of image: CGImage) -> Int {
      image.bytesPerRow * image.height
    }

    /// A bitmap of `width × height` pixels at 4 bytes a pixel (8-bit RGBA, what decoding and
    /// `UIGraphicsImageRenderer` make by default), for an image that does not say what it holds.
    private static func bitmapBytes(width: CGFloat, height: CGFloat) -> Int {
      let bytes = width.rounded(.up) * height.rounded(.up) * 4
      guard bytes.isFinite, bytes > 0 else { return 0 }
      return bytes < CGFloat(Int.max) ? Int(bytes) : Int.max
    }
  #endif

  #if canImport(UIKit)
    /// A `UIImage`'s bitmap: its `CGImage`'s bytes; for an animated image, its frames'; otherwise (an image
    /// backed by a `CIImage`, say) its size in pixels — points × `scale` — at 4 bytes a pixel.
    static func bytes(of image: UIImage) -> Int {
      if let cgImage = image.cgImage { return bytes(of: cgImage) }
      if let frames = image.images, !frames.isEmpty { return frames.reduce(0) { $0 + bytes(of: $1) } }
      return bitmapBytes(width: image.size.width * image.scale, height: image.size.height * image.scale)
    }
  #elseif canImport(AppKit) && !targetEnvironment(macCatalyst)
    /// An `NSImage`'s bitmaps: every representation's pixels at 4 bytes a pixel (an image may keep several,
    /// 1x and 2x); for one with no pixel size (a PDF), its size in points at 4 bytes a point.
    static func bytes(of image: NSImage) -> Int {
      let pixels = image.representations.reduce(0) { $0 + max($1.pixelsWide, 0) * max($1.pixelsHigh, 0) }
      if pixels > 0 { return pixels * 4 }
      return bitmapBytes(width: image.size.width, height: image.size.height)
    }
  #endif
}
