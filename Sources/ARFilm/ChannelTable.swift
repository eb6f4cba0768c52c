import ARImage

/// A function of one channel's linear value, tabulated once for speed: 4,096 entries spaced
/// evenly in the square root of the value (dense in the shadows, as the eye's and the sRGB
/// curve's steps are), read with linear interpolation. Values are clamped to [0, 1] first.
struct ChannelTable: Sendable {
  static let size = 4096
  let entries: [Float]

  init(_ f: (Double) -> Double) {
    entries = (0..<Self.size).map { k in
      let s = Double(k) / Double(Self.size - 1)
      return Float(f(s * s))
    }
  }

  @inline(__always)
  func callAsFunction(_ v: Float) -> Float {
    entries.withUnsafeBufferPointer { Self.look(v, in: $0.baseAddress!) }
  }

  /// The table at `v`, read through `entries`' storage: for loops that fetch it once.
  @inline(__always)
  static func look(_ v: Float, in e: UnsafePointer<Float>) -> Float {
    let s = (min(max(v, 0), 1)).squareRoot() * Float(size - 1)
    let i = min(Int(s), size - 2), f = s - Float(i)
    return e[i] + (e[i + 1] - e[i]) * f
  }

  /// The table at a pixel's three colour channels (its alpha kept).
  @inline(__always)
  static func look(_ p: SIMD4<Float>, in e: UnsafePointer<Float>) -> SIMD4<Float> {
    SIMD4(look(p.x, in: e), look(p.y, in: e), look(p.z, in: e), p.w)
  }

  /// A step applying the table to each colour channel.
  var step: FilmStep {
    let entries = self.entries
    return .pointwise { row, _ in
      entries.withUnsafeBufferPointer { e in
        for x in FourPixels.columns(row) {
          var four = FourPixels(row, x)
          four.red = Self.look(four: four.red, in: e.baseAddress!)
          four.green = Self.look(four: four.green, in: e.baseAddress!)
          four.blue = Self.look(four: four.blue, in: e.baseAddress!)
          four.store(row, x)
        }
      }
    }
  }
}
