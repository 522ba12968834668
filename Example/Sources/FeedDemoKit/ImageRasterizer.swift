import Foundation

/// Rasterises one feed image: 85×85 pt at 3× scale (255×255 px) by default, or any square size (the `photos`
/// profile's 512×512 px), into an RGBA8 buffer, with a procedural "photo", rounded-corner clipping with
/// anti-aliased edges, and source-over blending onto the cell's background — the work a
/// `UIGraphicsImageRenderer` draw of a clipped thumbnail does, its cost proportional to the pixels. Real work,
/// about 1–3 ms per 255 px image in release builds (four times that at 512 px); it never sleeps.
enum ImageRasterizer {
  /// Image side in points.
  static let pointSize = 85
  /// Screen scale.
  static let scale = 3
  /// Image side in pixels (the default size).
  static let pixelSize = pointSize * scale
  /// Bytes in one RGBA8 image buffer of the default size.
  static let byteCount = byteCount(pixels: pixelSize)

  /// Bytes in one RGBA8 image buffer `pixels` pixels square.
  static func byteCount(pixels: Int) -> Int { pixels * pixels * 4 }
  /// Corner radius in pixels (12 pt).
  static let cornerRadius: Float = 12 * Float(scale)

  /// Draws the image for `seed`, `size` pixels square, into `buffer` (resized if needed) and returns a checksum
  /// of the pixels, which the caller keeps so the work cannot be optimised away.
  static func draw(seed: UInt64, size: Int = pixelSize, into buffer: inout [UInt8]) -> UInt32 {
    draw(seed: seed, size: size, rows: 0..<size, into: &buffer)
  }

  /// Draws pixel rows `rows` of the image for `seed`, `size` pixels square, into `buffer` (resized if needed):
  /// one tile of a draw sliced into horizontal bands. The bands of `0..<size` together are the whole draw, at
  /// the same cost per pixel.
  @inline(never)
  static func draw(seed: UInt64, size: Int = pixelSize, rows: Range<Int>, into buffer: inout [UInt8]) -> UInt32 {
    precondition(rows.lowerBound >= 0 && rows.upperBound <= size, "rows must lie in 0..<\(size)")
    let byteCount = byteCount(pixels: size)
    if buffer.count != byteCount { buffer = [UInt8](repeating: 0, count: byteCount) }
    var rng = SplitMix(seed: seed)
    let fx = 0.01 + Float(rng.unit()) * 0.05
    let fy = 0.01 + Float(rng.unit()) * 0.05
    let fxy = 0.005 + Float(rng.unit()) * 0.03
    let phase = Float(rng.unit()) * 6.28
    let tint = (Float(rng.unit()), Float(rng.unit()), Float(rng.unit()))
    let radius = cornerRadius
    let extent = Float(size)
    var checksum: UInt32 = 0
    buffer.withUnsafeMutableBufferPointer { pixels in
      for y in rows {
        let py = Float(y) + 0.5
        let waveY = sinf(py * fy + phase)
        for x in 0..<size {
          let px = Float(x) + 0.5
          // Procedural photo: three interfering waves, tinted.
          let w1 = sinf(px * fx + phase)
          let w2 = sinf((px + py) * fxy)
          let w3 = cosf(sqrtf(px * px + py * py) * fxy * 2)
          let luminance = 0.5 + 0.166 * (w1 + w2 + w3 * waveY)
          let sr = min(1, luminance * (0.6 + 0.4 * tint.0))
          let sg = min(1, luminance * (0.6 + 0.4 * tint.1))
          let sb = min(1, luminance * (0.6 + 0.4 * tint.2))
          // Rounded-corner clip: coverage from the distance to the corner circle.
          let cx = min(max(px, radius), extent - radius)
          let cy = min(max(py, radius), extent - radius)
          let dx = px - cx
          let dy = py - cy
          let distance = sqrtf(dx * dx + dy * dy)
          let coverage = min(1, max(0, radius + 0.5 - distance))
          let alpha = 0.92 * coverage
          // Source-over onto the cell background (light grey), premultiplied.
          let i = (y * size + x) * 4
          let background: Float = 0.94
          let r = sr * alpha + background * (1 - alpha)
          let g = sg * alpha + background * (1 - alpha)
          let b = sb * alpha + background * (1 - alpha)
          pixels[i] = UInt8(r * 255)
          pixels[i + 1] = UInt8(g * 255)
          pixels[i + 2] = UInt8(b * 255)
          pixels[i + 3] = 255
          checksum = checksum &* 31 &+ UInt32(pixels[i + 1])
        }
      }
    }
    return checksum
  }
}

/// A small seeded generator (SplitMix64): the same seed gives every strategy the same feed.
struct SplitMix {
  private var state: UInt64

  /// Creates a generator for `seed`.
  init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniform value in `0..<1`.
  mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
