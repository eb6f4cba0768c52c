/// A screen-space triangle ready to rasterize: vertices in fixed point, edge-function constants
/// and the per-vertex values interpolated across it.
struct SetupTriangle {
  /// Sub-pixel precision: 8 bits, so positions snap to 1/256 pixel, as GPUs do.
  static let subpixelBits: Int64 = 8
  static let one: Int64 = 1 << subpixelBits

  /// Fixed-point vertex positions (pixels × 256, y down).
  var x: SIMD3<Int64>, y: SIMD3<Int64>
  /// Pixel bounding box, inclusive, clamped to the target.
  var minX: Int, minY: Int, maxX: Int, maxY: Int
  /// Twice the signed area in fixed point (> 0 after setup) and its reciprocal.
  var area: Int64
  var inverseArea: Float
  /// Bias per edge: 0 for top and left edges, −1 otherwise (the top-left fill rule).
  var bias: SIMD3<Int64>
  /// NDC depth and 1/w of the three vertices.
  var z: SIMD3<Float>, inverseW: SIMD3<Float>
  /// The vertices' attributes.
  var v0: ClipVertex, v1: ClipVertex, v2: ClipVertex
  /// Index of the draw call and of its material.
  var draw: Int32, material: Int32
  /// Whether the triangle faces away from the camera (drawn only when culling is off).
  var backFacing: Bool
  /// Whether setup swapped v1 and v2 to make the area positive (front faces).
  var swapped: Bool

  /// Sets up the triangle `a b c` (clip space, counter-clockwise = front), or returns `nil`
  /// when it covers no pixel centre's neighbourhood (zero area, off the target) or is culled.
  init?(
    _ a: ClipVertex, _ b: ClipVertex, _ c: ClipVertex, width: Int, height: Int, cullBackFaces: Bool,
    draw: Int32, material: Int32
  ) {
    // Perspective divide and viewport: NDC x −1…1 → 0…width, y 1…−1 → 0…height (y down).
    func screen(_ v: ClipVertex) -> (Int64, Int64, Float, Float) {
      let iw = 1 / v.clip.w
      let sx = (v.clip.x * iw + 1) * 0.5 * Float(width)
      let sy = (1 - v.clip.y * iw) * 0.5 * Float(height)
      return (
        Int64((sx * Float(Self.one)).rounded()), Int64((sy * Float(Self.one)).rounded()), v.clip.z * iw, iw
      )
    }
    let (x0, y0, z0, w0) = screen(a)
    var (x1, y1, z1, w1) = screen(b)
    var (x2, y2, z2, w2) = screen(c)
    let p0 = a
    var (p1, p2) = (b, c)
    var area = (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0)
    guard area != 0 else { return nil }
    // Counter-clockwise in NDC (y up) is clockwise in y-down pixels, where this edge function is
    // negative: front faces have area < 0. Rasterization wants area > 0, so front faces swap two
    // vertices (`swapped` remembers it for the face normal).
    backFacing = area > 0
    if backFacing && cullBackFaces { return nil }
    swapped = area < 0
    if swapped {
      swap(&x1, &x2)
      swap(&y1, &y2)
      swap(&z1, &z2)
      swap(&w1, &w2)
      swap(&p1, &p2)
      area = -area
    }
    x = SIMD3(x0, x1, x2)
    y = SIMD3(y0, y1, y2)
    // Pixel centres (i + 0.5) inside the fixed-point bounding box.
    let half = Self.one / 2
    minX = Swift.max(0, Int((x.min() - half + Self.one - 1) >> Self.subpixelBits))
    minY = Swift.max(0, Int((y.min() - half + Self.one - 1) >> Self.subpixelBits))
    maxX = Swift.min(width - 1, Int((x.max() - half) >> Self.subpixelBits))
    maxY = Swift.min(height - 1, Int((y.max() - half) >> Self.subpixelBits))
    guard minX <= maxX, minY <= maxY else { return nil }
    self.area = area
    inverseArea = 1 / Float(area)
    // Edge k runs from vertex k+1 to k+2 (edge 0: v1→v2, 1: v2→v0, 2: v0→v1). With positive
    // area, a top edge is horizontal going right (dy = 0, dx > 0) and a left edge goes up (dy < 0).
    func bias(_ ax: Int64, _ ay: Int64, _ bx: Int64, _ by: Int64) -> Int64 {
      let dx = bx - ax, dy = by - ay
      return (dy < 0 || (dy == 0 && dx > 0)) ? 0 : -1
    }
    self.bias = SIMD3(bias(x1, y1, x2, y2), bias(x2, y2, x0, y0), bias(x0, y0, x1, y1))
    z = SIMD3(z0, z1, z2)
    inverseW = SIMD3(w0, w1, w2)
    v0 = p0
    v1 = p1
    v2 = p2
    self.draw = draw
    self.material = material
  }

  /// The three edge functions at the fixed-point point `(px, py)`: `e.k` is twice the area of
  /// the triangle the point makes with edge `k`, so `e / area` are the barycentric weights.
  @inline(__always)
  func edges(_ px: Int64, _ py: Int64) -> SIMD3<Int64> {
    let ax = SIMD3(x.y, x.z, x.x), ay = SIMD3(y.y, y.z, y.x)  // edge starts: v1, v2, v0
    let bx = SIMD3(x.z, x.x, x.y), by = SIMD3(y.z, y.x, y.y)  // edge ends: v2, v0, v1
    return (bx &- ax) &* (SIMD3(repeating: py) &- ay) &- (by &- ay) &* (SIMD3(repeating: px) &- ax)
  }
}
