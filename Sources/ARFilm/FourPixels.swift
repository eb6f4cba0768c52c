import ARMath

/// Four pixels of a row as four vectors, one a channel (red, green, blue, alpha), for
/// pointwise stages: on channel vectors each step serves four pixels.
struct FourPixels {
  var red: SIMD4<Float>, green: SIMD4<Float>, blue: SIMD4<Float>, alpha: SIMD4<Float>

  /// Pixels `x … x + 3` of `row`.
  @inline(__always)
  init(_ row: FilmRow, _ x: Int) {
    red = loadFour(row.red, x)
    green = loadFour(row.green, x)
    blue = loadFour(row.blue, x)
    alpha = loadFour(row.alpha, x)
  }

  /// Writes the four pixels' colour back to `x … x + 3` (alpha is never changed).
  @inline(__always)
  func store(_ row: FilmRow, _ x: Int) {
    storeFour(red, row.red, x)
    storeFour(green, row.green, x)
    storeFour(blue, row.blue, x)
  }

  /// Adds `colour` (linear RGB) times each pixel's `amount` of it: light that a glow or a leak
  /// adds.
  @inline(__always)
  mutating func add(_ colour: SIMD3<Float>, times amount: SIMD4<Float>) {
    red += amount * colour.x
    green += amount * colour.y
    blue += amount * colour.z
  }

  /// Their Rec. 709 luminances.
  @inline(__always)
  var luminance: SIMD4<Float> { red * 0.2126 + green * 0.7152 + blue * 0.0722 }

  /// The first columns of each four pixels of a row, padding included: the loop of a pointwise
  /// stage, written as a plain loop rather than a closure so that its body is always inlined
  /// (a closure's body was left as a call per four pixels, its constants reloaded each time).
  @inline(__always)
  static func columns(_ row: FilmRow) -> StrideTo<Int> { stride(from: 0, to: row.paddedWidth, by: 4) }
}

/// Four values of a plane from `x` (which need not be a multiple of four).
@inline(__always)
func loadFour(_ plane: UnsafePointer<Float>, _ x: Int) -> SIMD4<Float> {
  UnsafeRawPointer(plane + x).loadUnaligned(as: SIMD4<Float>.self)
}

@inline(__always)
func loadFour(_ plane: UnsafeMutablePointer<Float>, _ x: Int) -> SIMD4<Float> {
  UnsafeRawPointer(plane + x).loadUnaligned(as: SIMD4<Float>.self)
}

/// Stores four values to a plane from `x`.
@inline(__always)
func storeFour(_ v: SIMD4<Float>, _ plane: UnsafeMutablePointer<Float>, _ x: Int) {
  UnsafeMutableRawPointer(plane + x).storeBytes(of: v, as: SIMD4<Float>.self)
}

extension ChannelTable {
  /// The table at four values, the index arithmetic done on all four at once.
  @inline(__always)
  static func look(four v: SIMD4<Float>, in e: UnsafePointer<Float>) -> SIMD4<Float> {
    let s = LaneMath.squareRoot(LaneMath.unitClamped(v)) * Float(size - 1)
    let i = LaneMath.truncated(LaneMath.min(s, SIMD4(repeating: Float(size - 2))))
    let f = s - LaneMath.float(i)
    let (a, b, c, d) = (Int(i.x), Int(i.y), Int(i.z), Int(i.w))
    let low = SIMD4(e[a], e[b], e[c], e[d]), high = SIMD4(e[a + 1], e[b + 1], e[c + 1], e[d + 1])
    return low + (high - low) * f
  }
}

extension Encoding {
  /// ``decodeFast(_:)`` of four values.
  @inline(__always)
  static func decodeFast(_ v: SIMD4<Float>, in t: UnsafePointer<Float>) -> SIMD4<Float> {
    let s = LaneMath.unitClamped(v) * 4096
    let i = LaneMath.truncated(LaneMath.min(s, SIMD4(repeating: 4095)))
    let f = s - LaneMath.float(i)
    let (a, b, c, d) = (Int(i.x), Int(i.y), Int(i.z), Int(i.w))
    let low = SIMD4(t[a], t[b], t[c], t[d]), high = SIMD4(t[a + 1], t[b + 1], t[c + 1], t[d + 1])
    return low + (high - low) * f
  }
}
