import UIKit

/// The expensive part of a row: drawing one 85 × 85 pt picture out of a few thousand translucent circles, which
/// takes milliseconds on purpose, standing in for the large JPEG that DWURunLoopWorkDistribution's demo decoded.
/// Each row has its own hue, so a picture drawn into the wrong row would show.
@MainActor
enum Artwork {
  static let size = CGSize(width: 85, height: 85)

  /// Draws the picture for image `slot` of `row`; the same arguments always give the same picture.
  static func draw(row: Int, slot: Int) -> UIImage {
    var generator = SplitMix64(state: UInt64(row * 3 + slot))
    let hue = CGFloat(row % 12) / 12
    return UIGraphicsImageRenderer(size: size).image { context in
      UIColor.secondarySystemBackground.setFill()
      context.fill(CGRect(origin: .zero, size: size))
      for _ in 0..<3_000 {
        let diameter = CGFloat.random(in: 2..<12, using: &generator)
        let origin = CGPoint(
          x: CGFloat.random(in: -6..<size.width, using: &generator),
          y: CGFloat.random(in: -6..<size.height, using: &generator))
        let brightness = CGFloat.random(in: 0.5..<1, using: &generator)
        UIColor(hue: hue, saturation: 0.8, brightness: brightness, alpha: 0.35).setFill()
        UIBezierPath(ovalIn: CGRect(origin: origin, size: CGSize(width: diameter, height: diameter))).fill()
      }
    }
  }
}

/// A small seeded random number generator (SplitMix64), so every row draws the same picture each time.
private struct SplitMix64: RandomNumberGenerator {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
