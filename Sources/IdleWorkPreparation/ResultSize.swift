import Foundation
import IdleWork

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
/// It counts the memory common result types hold (a decoded bitmap, a buffer's bytes): counting an image by its
/// reference would bound the cache only by memory warnings. Chosen once per task, where the type is known, so an
/// arrival costs one call and no casts.
enum ResultSize {
  /// How the cache sizes a `Value` by default: pixels for images, `count` for `Data`, UTF-8 bytes for `String`,
  /// otherwise `MemoryLayout<Value>.size` (at least 1; for a class, only its reference).
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

    /// A bitmap of `width × height` pixels at 4 bytes a pixel (8-bit RGBA, the default), for an image that does
    /// not say what it holds.
    private static func bitmapBytes(width: CGFloat, height: CGFloat) -> Int {
      let bytes = width.rounded(.up) * height.rounded(.up) * 4
      guard bytes.isFinite, bytes > 0 else { return 0 }
      return bytes < CGFloat(Int.max) ? Int(bytes) : Int.max
    }
  #endif

  #if canImport(UIKit)
    /// A `UIImage`'s bitmap: its `CGImage`'s bytes, its frames' if animated, else its pixel size at 4 bytes a pixel.
    static func bytes(of image: UIImage) -> Int {
      if let cgImage = image.cgImage { return bytes(of: cgImage) }
      if let frames = image.images, !frames.isEmpty { return frames.reduce(0) { $0 + bytes(of: $1) } }
      return bitmapBytes(width: image.size.width * image.scale, height: image.size.height * image.scale)
    }
  #elseif canImport(AppKit) && !targetEnvironment(macCatalyst)
    /// An `NSImage`'s bitmaps: every representation's pixels at 4 bytes a pixel; with no pixel size (a PDF), its
    /// points.
    static func bytes(of image: NSImage) -> Int {
      let pixels = image.representations.reduce(0) { $0 + max($1.pixelsWide, 0) * max($1.pixelsHigh, 0) }
      if pixels > 0 { return pixels * 4 }
      return bitmapBytes(width: image.size.width, height: image.size.height)
    }
  #endif
}
