import UIKit

/// The expensive part of a row: drawing one 85 × 85 pt picture out of a few thousand translucent circles, which
/// takes milliseconds on purpose, standing in for the large JPEG that DWURunLoopWorkDistribution's demo decoded.
/// Each row has its own hue, so a picture drawn into the wrong row would show.
///
/// Safe off the main thread: it draws into a `UIGraphicsImageRenderer`'s own bitmap context with `UIBezierPath`
/// and `UIColor`, and reads nothing of the screen, the traits or a view — the scale and the resolved background
/// colour are read on the main thread and passed in (see ``Artwork/Style``).
enum Artwork {
  static let size = CGSize(width: 85, height: 85)

  /// What a picture depends on besides its row and slot, read on the main thread from the table's traits: a
  /// worker's own traits are not the table's, so a dynamic colour is resolved here, not while drawing.
  struct Style: Hashable, Sendable {
    /// The screen scale (pixels per point).
    let scale: CGFloat
    /// Whether the appearance is dark.
    let isDark: Bool
    /// The background colour, resolved for this appearance (it follows `isDark`, so it takes no part in `==`).
    let background: UIColor

    /// The style of `traitCollection` (the table's, read on the main thread).
    init(_ traitCollection: UITraitCollection) {
      scale = traitCollection.displayScale > 0 ? traitCollection.displayScale : 2
      isDark = traitCollection.userInterfaceStyle == .dark
      background = UIColor.secondarySystemBackground.resolvedColor(with: traitCollection)
    }

    static func == (lhs: Style, rhs: Style) -> Bool {
      lhs.scale == rhs.scale && lhs.isDark == rhs.isDark
    }

    func hash(into hasher: inout Hasher) {
      hasher.combine(scale)
      hasher.combine(isDark)
    }
  }

  /// Draws the picture for image `slot` of `row`; the same arguments always give the same picture. Returns `nil`
  /// if `isCancelled` turned `true` meanwhile (it is asked every 500 circles).
  static func draw(row: Int, slot: Int, style: Style, isCancelled: () -> Bool = { false }) -> UIImage? {
    var generator = SplitMix64(state: UInt64(row * 3 + slot))
    let hue = CGFloat(row % 12) / 12
    let format = UIGraphicsImageRendererFormat()
    format.scale = style.scale
    format.opaque = true
    var cancelled = false
    let image = UIGraphicsImageRenderer(size: size, format: format).image { context in
      style.background.setFill()
      context.fill(CGRect(origin: .zero, size: size))
      for circle in 0..<circleCount {
        if circle % 500 == 0, isCancelled() {
          cancelled = true
          return
        }
        drawCircle(hue: hue, using: &generator)
      }
    }
    return cancelled ? nil : image
  }

  /// The picture for image `slot` of `row`, drawn a tile at a time: a main-thread task that draws one tile
  /// (500 circles over what is drawn so far) and more while the pass has time left, so a draw never holds the
  /// main thread for longer than a tile. It gives the same picture as ``draw(row:slot:style:isCancelled:)``.
  @MainActor
  final class TiledDrawing {
    static let circlesPerTile = 500
    private let row: Int
    private let style: Style
    private var generator: SplitMix64
    private var drawn = 0
    private var partial: UIImage?

    init(row: Int, slot: Int, style: Style) {
      self.row = row
      self.style = style
      generator = SplitMix64(state: UInt64(row * 3 + slot))
    }

    /// The finished picture, once ``drawNextTile()`` has drawn the last tile.
    var image: UIImage? { drawn == Artwork.circleCount ? partial : nil }

    /// Draws the next tile; returns whether the picture is finished.
    func drawNextTile() -> Bool {
      let format = UIGraphicsImageRendererFormat()
      format.scale = style.scale
      format.opaque = true
      let end = min(drawn + Self.circlesPerTile, Artwork.circleCount)
      partial = UIGraphicsImageRenderer(size: size, format: format).image { context in
        if let partial {
          partial.draw(at: .zero)
        } else {
          style.background.setFill()
          context.fill(CGRect(origin: .zero, size: size))
        }
        for _ in drawn..<end { Artwork.drawCircle(hue: CGFloat(row % 12) / 12, using: &generator) }
      }
      drawn = end
      return drawn == Artwork.circleCount
    }
  }

  /// Circles in a picture.
  static let circleCount = 3_000

  /// Draws one random circle into the current context.
  static func drawCircle(hue: CGFloat, using generator: inout SplitMix64) {
    let diameter = CGFloat.random(in: 2..<12, using: &generator)
    let origin = CGPoint(
      x: CGFloat.random(in: -6..<size.width, using: &generator),
      y: CGFloat.random(in: -6..<size.height, using: &generator))
    let brightness = CGFloat.random(in: 0.5..<1, using: &generator)
    UIColor(hue: hue, saturation: 0.8, brightness: brightness, alpha: 0.35).setFill()
    UIBezierPath(ovalIn: CGRect(origin: origin, size: CGSize(width: diameter, height: diameter))).fill()
  }

  /// A picture's size in bytes, for the result cache's limit.
  static func bytes(of image: UIImage) -> Int {
    image.cgImage.map { $0.bytesPerRow * $0.height } ?? 0
  }
}

/// A small seeded random number generator (SplitMix64), so every row draws the same picture each time.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
