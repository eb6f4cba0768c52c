import ARImage

/// A shadow catcher's shadow on a camera's pixels, kept only over the box of pixels its map
/// can reach: outside the box nothing is shadowed. A frame reads it while its background is
/// written, so the darkened background is never an image of its own (at 1920×1440 that image
/// was 44 MB of `Float` colour, written and read once a frame).
struct ShadowLayer: Sendable {
  /// The box of pixels the layer covers.
  let columns: Range<Int>
  let rows: Range<Int>
  /// How much of the real surface's light is removed, 0…1, row by row over the box (0 where
  /// the plane is lit or not seen).
  var opacity: [Float]
  /// The distance along the view axis to the plane, metres, where a shadow falls on it; +∞
  /// elsewhere. Row by row over the box.
  var depth: [Float]

  /// A layer of `columns × rows` with no shadow yet.
  init(columns: Range<Int>, rows: Range<Int>) {
    self.columns = columns
    self.rows = rows
    opacity = [Float](repeating: 0, count: columns.count * rows.count)
    depth = [Float](repeating: .infinity, count: columns.count * rows.count)
  }

  /// The layer as whole images of `width × height` pixels (see
  /// ``ShadowCatcher/shadowLayer(casting:camera:threads:)``).
  func images(width: Int, height: Int) -> (opacity: DepthImage, depth: DepthImage) {
    var fullOpacity = [Float](repeating: 0, count: width * height)
    var fullDepth = [Float](repeating: .infinity, count: width * height)
    for (row, y) in rows.enumerated() {
      let from = row * columns.count, to = y * width + columns.lowerBound
      fullOpacity[to..<(to + columns.count)] = opacity[from..<(from + columns.count)]
      fullDepth[to..<(to + columns.count)] = depth[from..<(from + columns.count)]
    }
    return (
      DepthImage(width: width, height: height, pixels: fullOpacity),
      DepthImage(width: width, height: height, pixels: fullDepth)
    )
  }

  /// Black at opacity `s` over the straight-alpha colour `p`: alpha s + a(1 − s), and the
  /// colour's premultiplied rgb·a·(1 − s) divided by it. A transparent `p` gets black at `s`.
  @inline(__always)
  static func darken(_ p: SIMD4<Float>, by s: Float) -> SIMD4<Float> {
    let alpha = s + p.w * (1 - s)
    let rgb = alpha > 0 ? SIMD3(p.x, p.y, p.z) * (p.w * (1 - s) / alpha) : .zero
    return SIMD4(rgb, alpha)
  }

  /// Runs `body` with the layer's storage as plain pointers, for the frame's workers to read.
  func withView<R>(_ body: (View) throws -> R) rethrows -> R {
    try opacity.withUnsafeBufferPointer { o in
      try depth.withUnsafeBufferPointer { d in
        try body(View(columns: columns, rows: rows, opacity: o.baseAddress!, depth: d.baseAddress!))
      }
    }
  }

  /// The layer's storage, valid inside ``withView(_:)``: what the frame's workers read.
  struct View: @unchecked Sendable {
    let columns: Range<Int>, rows: Range<Int>
    let opacity: UnsafePointer<Float>, depth: UnsafePointer<Float>

    /// The box's columns among `pixels` in row `y`, and the index of the first of them in the
    /// layer's storage; nil when the row misses the box.
    @inline(__always)
    func span(row y: Int, pixels: ClosedRange<Int>) -> (columns: Range<Int>, start: Int)? {
      guard rows.contains(y) else { return nil }
      let first = Swift.max(pixels.lowerBound, columns.lowerBound)
      let end = Swift.min(pixels.upperBound + 1, columns.upperBound)
      guard first < end else { return nil }
      return (first..<end, (y - rows.lowerBound) * columns.count + first - columns.lowerBound)
    }

    /// The plane's distance at pixel `(x, y)` where a shadow falls on it, +∞ elsewhere.
    @inline(__always)
    func depth(x: Int, y: Int) -> Float {
      guard rows.contains(y), columns.contains(x) else { return .infinity }
      return depth[(y - rows.lowerBound) * columns.count + x - columns.lowerBound]
    }
  }
}
