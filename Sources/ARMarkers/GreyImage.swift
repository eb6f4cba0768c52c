import ARImage
import ARMath
import Dispatch
import Foundation

/// An image's luma (0…255, Rec. 601 weights of the encoded values, as OpenCV's `cvtColor`),
/// and what marker detection asks of it.
struct GreyImage: Sendable {
  let width: Int, height: Int
  let values: [Float]
  /// The 8-bit levels `values` hold, when they are whole levels (a JPEG's luma, not inverted):
  /// where window sums are exact in 32-bit integers (``threshold(window:)``).
  let levels: [UInt8]?

  /// Frame-sized arrays kept between detections (``recycle()``): room for the grey images and
  /// masks of two 1920×1440 detections at once, or one of a 12 MP photo.
  private static let keptValues = ScratchArrays<Float>(limit: 4, byteLimit: 64 << 20)
  static let keptMasks = ScratchArrays<Bool>(limit: 4, byteLimit: 16 << 20)

  init(_ image: RGBA8Image, inverted: Bool = false) {
    var values = Self.keptValues.take(count: image.pixels.count)
    image.pixels.withUnsafeBufferPointer { pixels in
      values.withUnsafeMutableBufferPointer { luma in
        // Rec. 601 luma, with the ARImage pixels' channels as floats; two halves on two cores
        // for frames large enough to pay for the second thread.
        let (source, out) = (UnsafeSendableBuffer(pixels), UnsafeSendableMutablePointer(luma.baseAddress!))
        let (n, parts) = (pixels.count, pixels.count >= 1 << 18 ? 2 : 1)
        let (sign, offset): (Float, Float) = inverted ? (-1, 255) : (1, 0)
        DispatchQueue.concurrentPerform(iterations: parts) { part in
          Self.luma(
            of: source.buffer.baseAddress!, range: n * part / parts..<n * (part + 1) / parts,
            into: out.pointer,
            sign: sign, offset: offset)
        }
      }
    }
    self.init(width: image.width, height: image.height, values: values)
  }

  /// The grey image of 8-bit `luma` (white-on-black markers' when `inverted`).
  init(luma: Image<UInt8>, inverted: Bool = false) {
    var values = Self.keptValues.take(count: luma.pixels.count)
    let (sign, offset): (Float, Float) = inverted ? (-1, 255) : (1, 0)
    luma.pixels.withUnsafeBufferPointer { source in
      values.withUnsafeMutableBufferPointer { out in
        for i in source.indices { out[i] = offset + sign * Float(source[i]) }
      }
    }
    self.init(width: luma.width, height: luma.height, values: values, levels: inverted ? nil : luma.pixels)
  }

  /// Hands this image's values to the next image of its size: call when done with it.
  func recycle() { Self.keptValues.give(values) }

  /// Half the size each way, each value the mean of a 2 × 2 block (an odd last row or column
  /// dropped): where large markers' outlines are found at a quarter of the cost.
  var halved: GreyImage {
    let (w, h) = (width / 2, height / 2)
    var half = Self.keptValues.take(count: w * h)
    values.withUnsafeBufferPointer { values in
      half.withUnsafeMutableBufferPointer { half in
        for y in 0..<h {
          for x in 0..<w {
            let i = 2 * y * width + 2 * x
            half[y * w + x] = (values[i] + values[i + 1] + values[i + width] + values[i + width + 1]) / 4
          }
        }
      }
    }
    return GreyImage(width: w, height: h, values: half)
  }

  private init(width: Int, height: Int, values: [Float], levels: [UInt8]? = nil) {
    self.width = width
    self.height = height
    self.values = values
    self.levels = levels
  }

  /// Bilinear between pixel centres (at +0.5), edges clamped.
  func sample(_ p: SIMD2<Double>) -> Double { bilinear(p) { $0 } }

  /// Bilinear between pixel centres of `level(value)`, edges clamped.
  @inline(__always)
  private func bilinear(_ p: SIMD2<Double>, _ level: (Float) -> Float) -> Double {
    let x = p.x - 0.5, y = p.y - 0.5
    let (x0, y0) = (Self.floor(x), Self.floor(y))
    let (fx, fy) = (Float(x - Double(x0)), Float(y - Double(y0)))
    // The four neighbours' rows and columns clamped once; read without bounds checks.
    let (left, right) = (min(max(x0, 0), width - 1), min(max(x0 + 1, 0), width - 1))
    let (upper, lower) = (min(max(y0, 0), height - 1) * width, min(max(y0 + 1, 0), height - 1) * width)
    return values.withUnsafeBufferPointer { v in
      let (a, b) = (level(v[upper + left]), level(v[upper + right]))
      let (c, d) = (level(v[lower + left]), level(v[lower + right]))
      let top = a + (b - a) * fx, bottom = c + (d - c) * fx
      return Double(top + (bottom - top) * fy)
    }
  }

  /// `x` rounded down, as an integer: truncated, then one less where that rounded up (a
  /// negative fraction). The portable x86-64 build has no SSE4.1 rounding instruction, so
  /// `rounded(.down)` is a call into libm, twice a sample of every profile and cell.
  @inline(__always)
  static func floor(_ x: Double) -> Int {
    let truncated = Int(x)
    return Double(truncated) > x ? truncated - 1 : truncated
  }

  /// Linear light (0…255) from an encoded luma by the sRGB curve, a sixteenth of a level apart.
  private static let linearLevels: [Float] = (0...(255 * 16)).map {
    SRGB.decode(Float($0) / (255 * 16)) * 255
  }

  /// Bilinear samples between pixel centres in linear light (the luma decoded by the sRGB curve
  /// first, as a camera's tone curve roughly encodes it), edges clamped, at `origin + direction
  /// * t` for each `t` of `offsets` (at least six): a profile across an edge. Blur and
  /// anti-aliasing average light, so an edge's true place is halfway between its sides' levels
  /// here, not in the encoded values, where a blurred black square would look smaller than it
  /// is. Returns how much darker, in encoded levels, its first three samples are than its last
  /// three (``sample(_:)`` at each, summed): the same four pixels give both. (The sRGB table is
  /// reached once a profile: a static array read four times a sample paid its lazy
  /// initialisation check each time.)
  func linearProfile(
    from origin: SIMD2<Double>, along direction: SIMD2<Double>, at offsets: [Double],
    into light: UnsafeMutableBufferPointer<Double>
  ) -> Double {
    Self.linearLevels.withUnsafeBufferPointer { table in
      // Whole 8-bit levels index the table directly (a sixteenth of a level apart: level·16),
      // with no clamping or rounding of a float: the same light.
      if let levels {
        return levels.withUnsafeBufferPointer { bytes in
          profile(from: origin, along: direction, at: offsets, into: light) { i in
            (Float(bytes[i]), table[Int(bytes[i]) &* 16])
          }
        }
      }
      return values.withUnsafeBufferPointer { v in
        profile(from: origin, along: direction, at: offsets, into: light) { i in
          (v[i], Self.linear(v[i], table))
        }
      }
    }
  }

  /// ``linearProfile(from:along:at:into:)`` with each pixel's encoded level and linear light
  /// from `level(index)`.
  @inline(__always)
  private func profile(
    from origin: SIMD2<Double>, along direction: SIMD2<Double>, at offsets: [Double],
    into light: UnsafeMutableBufferPointer<Double>, _ level: (Int) -> (encoded: Float, linear: Float)
  ) -> Double {
    let n = offsets.count
    var ends = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    // Samples a quarter pixel apart mostly fall between the same four pixels as the one
    // before: their light is looked up once for the run of samples between them.
    var cell = (x: Int.min, y: Int.min)
    var (a, b, c, d): (Float, Float, Float, Float) = (0, 0, 0, 0)
    var (ea, eb, ec, ed): (Float, Float, Float, Float) = (0, 0, 0, 0)
    for (k, t) in offsets.enumerated() {
      let p = origin + direction * t
      let x = p.x - 0.5, y = p.y - 0.5
      let (x0, y0) = (Self.floor(x), Self.floor(y))
      if (x0, y0) != cell {
        cell = (x0, y0)
        let (left, right) = (min(max(x0, 0), width - 1), min(max(x0 + 1, 0), width - 1))
        let (upper, lower) = (min(max(y0, 0), height - 1) * width, min(max(y0 + 1, 0), height - 1) * width)
        (ea, a) = level(upper + left)
        (eb, b) = level(upper + right)
        (ec, c) = level(lower + left)
        (ed, d) = level(lower + right)
      }
      let (fx, fy) = (Float(x - Double(x0)), Float(y - Double(y0)))
      let top = a + (b - a) * fx, bottom = c + (d - c) * fx
      light[k] = Double(top + (bottom - top) * fy)
      guard k < 3 || k >= n - 3 else { continue }
      // The encoded level here, as ``sample(_:)`` interpolates it.
      let encodedTop = ea + (eb - ea) * fx, encodedBottom = ec + (ed - ec) * fx
      let encoded = Double(encodedTop + (encodedBottom - encodedTop) * fy)
      switch k {
      case 0: ends.0 = encoded
      case 1: ends.1 = encoded
      case 2: ends.2 = encoded
      case n - 3: ends.3 = encoded
      case n - 2: ends.4 = encoded
      default: ends.5 = encoded
      }
    }
    // Summed in the order the refinement summed its own samples of the ends.
    return ends.0 + ends.1 + ends.2 - ends.5 - ends.4 - ends.3
  }

  /// The linear light of encoded luma `value` from `table` (``linearLevels``).
  @inline(__always)
  private static func linear(_ value: Float, _ table: UnsafeBufferPointer<Float>) -> Float {
    // Rounded by adding a half and truncating (the same for values ≥ 0, and no call to roundf).
    table[Int(min(max(value, 0), 255) * 16 + 0.5)]
  }

  // MARK: Candidates

  /// Convex quadrilaterals outlining dark regions, corners clockwise on the image (y down),
  /// at pixel boundaries: the candidates for markers' outer borders.
  /// A region cut off at a corner by the image's edge gives the quadrilateral with that corner
  /// outside the image (``cutCornerQuadrilateral(_:width:height:minimumSide:finer:)``), found
  /// first at the tolerance a whole outline is simplified at (the outline's own quadrilateral
  /// would put that corner on the edge), then at finer ones when the outline gives none.
  /// With `hulls`, a region whose outline is not a quadrilateral may give its convex hull's
  /// (``hullQuadrilateral(_:pixels:minimumSide:)``): for images halved before thresholding,
  /// where a marker's thin border breaks.
  func quads(_ rule: DarkRule, minimumSide: Double, hulls: Bool = false) -> [[SIMD2<Double>]] {
    let dark: [Bool]
    switch rule {
    case .windowMean(let window): dark = threshold(window: window)
    case .tileMidpoint: dark = midpointThreshold()
    }
    return Self.quads(dark: dark, width: width, height: height, minimumSide: minimumSide, hulls: hulls)
  }

  /// ``quads(_:minimumSide:hulls:)`` of this image halved (``halved``) by each of `rules` at half
  /// the resolution (`DarkRule.halved`: the same reach in the scene), in the halved image's
  /// pixels. Window rules on whole 8-bit levels are decided from the 2 × 2 blocks' sums, with no
  /// halved image made.
  func halvedQuads(_ rules: [DarkRule], minimumSide: Double, hulls: Bool) -> [[[SIMD2<Double>]]] {
    var half: GreyImage?
    defer { half?.recycle() }
    return rules.map { rule in
      if let levels, case .windowMean(let window) = rule.halved,
        let dark = wholeLevelThreshold(levels, window: window, halved: true)
      {
        return Self.quads(
          dark: dark, width: width / 2, height: height / 2, minimumSide: minimumSide, hulls: hulls)
      }
      let image = half ?? halved
      half = image
      return image.quads(rule.halved, minimumSide: minimumSide, hulls: hulls)
    }
  }

  /// ``quads(_:minimumSide:hulls:)`` of the dark pixels `dark` of an image `width` × `height`,
  /// whose mask is handed back to be kept (``keptMasks``).
  private static func quads(
    dark: [Bool], width: Int, height: Int, minimumSide: Double, hulls: Bool
  ) -> [[SIMD2<Double>]] {
    let parts = DarkComponents(dark: dark, width: width, height: height)
    keptMasks.give(dark)
    var quads: [[SIMD2<Double>]] = []
    for (c, part) in parts.components.enumerated() {
      let span = Double(max(part.maxX - part.minX, part.maxY - part.minY) + 1)
      // Regions touching the image's edge too (a marker there may be cut by it), up to three
      // quarters of the image across: larger ones are background, each a long outline to trace.
      let inside = part.minX > 0 && part.minY > 0 && part.maxX < width - 1 && part.maxY < height - 1
      guard span >= minimumSide, part.count >= 16, inside || 4 * span <= 3 * Double(min(width, height)) else {
        continue
      }
      let outline = parts.outline(of: c)
      func cutCorner(finer: Bool) -> [SIMD2<Double>]? {
        inside
          ? nil
          : cutCornerQuadrilateral(
            outline, width: width, height: height, minimumSide: minimumSide, finer: finer)
      }
      guard
        let quad = cutCorner(finer: false)
          ?? quadrilateral(outline, minimumSide: minimumSide)
          ?? cutCorner(finer: true)
          ?? (hulls ? hullQuadrilateral(outline, pixels: part.count, minimumSide: minimumSide) : nil)
      else { continue }
      quads.append(quad)
    }
    return quads
  }

  /// Dark pixels: below the mean of the window around them by more than 7 levels (the window
  /// cut at the image's edges).
  ///
  /// The window sums slide: a row of column sums over the window's rows, updated as one row
  /// enters and one leaves, and that row's running sums across, so a window's sum is two
  /// lookups and no table of the image's size is built (a table of sums in Double was 22 MB a
  /// 1920 × 1440 frame, its page faults and zeroing a sixth of a detection).
  func threshold(window: Int) -> [Bool] {
    if let levels, let dark = wholeLevelThreshold(levels, window: window) { return dark }
    let r = window / 2
    // Every pixel is decided below: a kept mask's old values are all overwritten.
    var dark = Self.keptMasks.take(count: width * height)
    let columns = UnsafeMutableBufferPointer<Double>.allocate(capacity: width)
    let across = UnsafeMutableBufferPointer<Double>.allocate(capacity: width + 1)  // columns[0..<x] summed
    defer {
      columns.deallocate()
      across.deallocate()
    }
    columns.initialize(repeating: 0)
    across.initialize(repeating: 0)
    values.withUnsafeBufferPointer { values in
      dark.withUnsafeMutableBufferPointer { dark in
        let (sums, luma) = (columns.baseAddress!, values.baseAddress!)
        for y in 0..<min(r, height) { Self.add(luma + y * width, times: 1, to: sums, width) }
        for y in 0..<height {
          if y + r < height { Self.add(luma + (y + r) * width, times: 1, to: sums, width) }
          if y - r - 1 >= 0 { Self.add(luma + (y - r - 1) * width, times: -1, to: sums, width) }
          Self.runningSums(of: sums, width, into: across.baseAddress!)
          decideRow(y, r, Double(min(height, y + r + 1) - max(0, y - r)), values, across, dark)
        }
      }
    }
    return dark
  }

  /// `sums[x] += sign · row[x]` for x below `width`: a loop the compiler vectorises, its
  /// pointers plain arguments (captured buffers were reloaded at every pixel).
  @inline(__always)
  private static func add(
    _ row: UnsafePointer<Float>, times sign: Double, to sums: UnsafeMutablePointer<Double>, _ width: Int
  ) {
    for x in 0..<width { sums[x] += sign * Double(row[x]) }
  }

  /// `out[x]` = `values[0..<x]` summed, for x up to `width`. Four quarters of the row are summed
  /// side by side, then each is offset by the totals before it: four independent chains of
  /// additions instead of one, whose latency bound the single chain.
  @inline(__always)
  private static func runningSums(
    of values: UnsafeMutablePointer<Double>, _ width: Int, into out: UnsafeMutablePointer<Double>
  ) {
    let quarter = width / 4
    var running = SIMD4<Double>.zero
    for i in 0..<quarter {
      let v = SIMD4(values[i], values[quarter + i], values[2 * quarter + i], values[3 * quarter + i])
      (out[i], out[quarter + i], out[2 * quarter + i], out[3 * quarter + i]) =
        (running[0], running[1], running[2], running[3])
      running += v
    }
    var last = running[3]
    for i in (4 * quarter)..<width {
      out[i] = last
      last += values[i]
    }
    let offsets = (running[0], running[0] + running[1], running[0] + running[1] + running[2])
    for i in 0..<quarter {
      out[quarter + i] += offsets.0
      out[2 * quarter + i] += offsets.1
    }
    for i in (3 * quarter)..<width { out[i] += offsets.2 }
    out[width] = last + offsets.2
  }

  /// Row `y`'s dark pixels from `across`, the running sums of its window's column sums, for a
  /// window of `rows` rows and 2r + 1 columns (cut at the edges). Value < mean − 7 is decided
  /// without dividing by the window's area; away from the edges four pixels at a time.
  @inline(__always)
  private func decideRow(
    _ y: Int, _ r: Int, _ rows: Double, _ values: UnsafeBufferPointer<Float>,
    _ across: UnsafeMutableBufferPointer<Double>, _ dark: UnsafeMutableBufferPointer<Bool>
  ) {
    let row = y * width
    func decide(_ x: Int) {
      let (x0, x1) = (max(0, x - r), min(width, x + r + 1))
      dark[row + x] = (Double(values[row + x]) + 7) * rows * Double(x1 - x0) < across[x1] - across[x0]
    }
    let (inner0, inner1) = (min(r, width), max(min(r, width), width - r - 1))
    for x in 0..<inner0 { decide(x) }
    let area = rows * Double(2 * r + 1)
    let sums = UnsafeRawPointer(across.baseAddress!), luma = UnsafeRawPointer(values.baseAddress!)
    let out = dark.baseAddress! + row
    var x = inner0
    while x &+ 4 <= inner1 {
      let right = sums.loadUnaligned(fromByteOffset: (x &+ r &+ 1) &* 8, as: SIMD4<Double>.self)
      let left = sums.loadUnaligned(fromByteOffset: (x &- r) &* 8, as: SIMD4<Double>.self)
      let v = SIMD4<Double>(luma.loadUnaligned(fromByteOffset: (row &+ x) &* 4, as: SIMD4<Float>.self))
      let isDark = (v + 7) * area .< right - left
      for k in 0..<4 { out[x &+ k] = isDark[k] }
      x &+= 4
    }
    while x < inner1 {
      decide(x)
      x += 1
    }
    for x in inner1..<width { decide(x) }
  }

  /// A convex quadrilateral approximating a closed outline (Douglas–Peucker at 3% of its
  /// perimeter, as OpenCV's marker detector), corners clockwise, sides at least `minimumSide`
  /// /4; nil for anything else. The outline may hold only the points where it turns (a traced
  /// outline's straight stretches simplify to their ends whatever lies between).
  static func quadrilateral(_ outline: [SIMD2<Double>], minimumSide: Double) -> [SIMD2<Double>]? {
    let n = outline.count
    guard n >= 4 else { return nil }
    var perimeter = (outline[0] - outline[n - 1]).length
    for i in 1..<n { perimeter += (outline[i] - outline[i - 1]).length }
    guard perimeter >= 8 else { return nil }
    let epsilon = 0.03 * perimeter
    // Split the ring at two points far apart, which are corners of any convex outline (the
    // first point in raster order need not be: a marker's top side can run almost level),
    // and simplify each half. (Every outline of every rule passes here: squared distances, no
    // division a point.)
    let start = Self.farthest(from: outline[0], among: n) { outline[$0] }
    /// The outline's points from `start` round: the ring the halves are cut from, not copied
    /// (`k` ≤ n, so one wrap at most).
    @inline(__always) func ring(_ k: Int) -> SIMD2<Double> {
      let i = start &+ k
      return outline[i >= n ? i &- n : i]
    }
    let far = Self.farthest(from: ring(0), among: n, ring)
    func simplified(_ tolerance: Double) -> [SIMD2<Double>] {
      var corners: [SIMD2<Double>] = []
      corners.reserveCapacity(16)  // a marker's four, a tail's few more: one allocation
      Self.simplify(count: far + 1, ring, tolerance, into: &corners, droppingLast: true)
      Self.simplify(count: n - far + 1, { ring(far + $0) }, tolerance, into: &corners, droppingLast: true)
      return corners
    }
    var corners = simplified(epsilon)
    if (5...7).contains(corners.count), perimeter >= 4 * max(28, minimumSide / 4) {
      // A marker whose dark region runs on into something dark beside it (a shadow, the pole
      // a sign stands on): the four of the corners whose quadrilateral the outline follows,
      // holding most of the region. Only for sides of 28 px and more: smaller regions with
      // tails are texture far more often than markers (seeded textures gave false ids), and
      // each such quadrilateral costs a reading of its cells. The corners are taken again at a
      // finer tolerance when the coarse ones hide the marker's own corner in the tail's line.
      // (An outline shorter than four such sides holds none: it passes through a
      // quadrilateral's corners in turn, so it is no shorter than its perimeter.)
      let (tolerance, shortest) = (max(2, epsilon / 3), max(28, minimumSide / 4))
      // Every pixel step of the outline, made once and only for a choice worth following.
      var everyStep: [SIMD2<Double>]?
      let steps = {
        if everyStep == nil { everyStep = Self.unitSteps(outline) }
        return everyStep!
      }
      guard
        let four = Self.quadrilateral(
          among: corners, following: steps, within: tolerance, shortestSide: shortest)
          ?? Self.quadrilateral(
            among: simplified(tolerance), following: steps, within: tolerance, shortestSide: shortest)
      else { return nil }
      corners = four
    }
    guard corners.count == 4 else { return nil }
    return convexClockwise(corners, minimumSide: minimumSide)
  }

  /// `corners` (four) clockwise on the image (y down), when they make a convex quadrilateral
  /// with sides at least `minimumSide` / 4; nil otherwise.
  static func convexClockwise(_ corners: [SIMD2<Double>], minimumSide: Double) -> [SIMD2<Double>]? {
    // Clockwise on the image (y down) is the cross products positive.
    var signs: [Double] = []
    for i in 0..<4 {
      let p = corners[i], q = corners[(i + 1) % 4], r = corners[(i + 2) % 4]
      guard (q - p).length >= minimumSide / 4 else { return nil }
      signs.append((q - p).x * (r - q).y - (q - p).y * (r - q).x)
    }
    guard signs.allSatisfy({ $0 > 0 }) || signs.allSatisfy({ $0 < 0 }) else { return nil }
    return signs[0] > 0 ? corners : corners.reversed()
  }

  /// The closed `outline` with a point at every whole pixel along each of its straight
  /// stretches (sides between its points that run along a row or a column), as it was traced:
  /// where how much of an outline a shape follows is counted.
  static func unitSteps(_ outline: [SIMD2<Double>]) -> [SIMD2<Double>] {
    var points: [SIMD2<Double>] = []
    for (k, p) in outline.enumerated() {
      let q = outline[(k + 1) % outline.count], d = q - p
      // (Rounded by adding a half and truncating: no libm call, the same for lengths ≥ 0.)
      let steps = Int(max(abs(d.x), abs(d.y)) + 0.5)
      let alongAxis =
        (d.x == 0 || d.y == 0) && steps > 1 && d.x == Double(Int(d.x)) && d.y == Double(Int(d.y))
      points.append(p)
      guard alongAxis else { continue }
      for s in 1..<steps { points.append(p + d * (Double(s) / Double(steps))) }
    }
    return points
  }

  /// The first of the `count` points `point(k)` farthest from `p`.
  @inline(__always)
  static func farthest(from p: SIMD2<Double>, among count: Int, _ point: (Int) -> SIMD2<Double>) -> Int {
    var (best, index) = (-1.0, 0)
    for k in 0..<count {
      let d = point(k) - p
      let squared = (d * d).sum()
      if squared > best { (best, index) = (squared, k) }
    }
    return index
  }

  /// Four of `corners` (in order) whose quadrilateral at least four fifths of `outline` lies
  /// within `tolerance` of, the one it follows most closely, with sides of at least
  /// `shortestSide` pixels and at least 80% of the corners' polygon's area; nil when none is.
  /// The rest of the outline is a tail or a bump the quadrilateral leaves out. `outline` is
  /// asked for only when some four corners pass the area and side tests.
  static func quadrilateral(
    among corners: [SIMD2<Double>], following outline: () -> [SIMD2<Double>], within tolerance: Double,
    shortestSide: Double
  ) -> [SIMD2<Double>]? {
    let n = corners.count, whole = area(corners)
    guard (5...9).contains(n) else { return nil }
    var choices: [(quad: [SIMD2<Double>], area: Double)] = []
    for i in 0..<n {
      for j in (i + 1)..<n {
        for k in (j + 1)..<n {
          for l in (k + 1)..<n {
            // Judged from its corners before it is made an array (most choices fail).
            let (a, b, c, d) = (corners[i], corners[j], corners[k], corners[l])
            let size = area(a, b, c, d)
            guard size >= 0.8 * whole, (b - a).length >= shortestSide, (c - b).length >= shortestSide,
              (d - c).length >= shortestSide, (a - d).length >= shortestSide
            else { continue }
            choices.append(([a, b, c, d], size))
          }
        }
      }
    }
    // The one the outline follows best (the largest of equals): the largest alone can take a
    // tail's tip for a corner.
    // (Misses are counted only until they pass the bound, which only falls as better choices
    // are found; distances compared squared.)
    guard !choices.isEmpty else { return nil }
    let outline = outline()
    var best: (quad: [SIMD2<Double>], misses: Int)?
    let squaredTolerance = tolerance * tolerance
    for choice in choices.sorted(by: { $0.area > $1.area }) {
      let q = choice.quad, bound = min(outline.count / 5, (best?.misses ?? .max) - 1)
      guard bound >= 0 else { break }
      var misses = 0
      for p in outline {
        guard Self.squaredDistance(p, fromSegment: q[0], q[1]) > squaredTolerance,
          Self.squaredDistance(p, fromSegment: q[1], q[2]) > squaredTolerance,
          Self.squaredDistance(p, fromSegment: q[2], q[3]) > squaredTolerance,
          Self.squaredDistance(p, fromSegment: q[3], q[0]) > squaredTolerance
        else { continue }
        misses += 1
        if misses > bound { break }
      }
      if misses <= bound { best = (q, misses) }
    }
    return best?.quad
  }

  /// The square of the distance from `p` to the segment `a`–`b` (to `a` when they coincide),
  /// pixels².
  @inline(__always)
  static func squaredDistance(_ p: SIMD2<Double>, fromSegment a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double
  {
    let ab = b - a, ap = p - a, lengthSquared = (ab * ab).sum()
    let t = lengthSquared > 0 ? min(1, max(0, (ap * ab).sum() / lengthSquared)) : 0
    let off = ap - ab * t
    return (off * off).sum()
  }

  /// A simple polygon's area (the shoelace formula), pixels².
  static func area(_ polygon: [SIMD2<Double>]) -> Double {
    var twice = 0.0
    for m in polygon.indices {
      let (p, q) = (polygon[m], polygon[(m + 1) % polygon.count])
      twice += p.x * q.y - q.x * p.y
    }
    return abs(twice) / 2
  }

  /// The area of quadrilateral `a b c d`, as ``area(_:)`` sums it.
  @inline(__always)
  static func area(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ c: SIMD2<Double>, _ d: SIMD2<Double>) -> Double {
    var twice = 0.0
    twice += a.x * b.y - b.x * a.y
    twice += b.x * c.y - c.x * b.y
    twice += c.x * d.y - d.x * c.y
    twice += d.x * a.y - a.x * d.y
    return abs(twice) / 2
  }

  /// Douglas–Peucker on an open polyline, keeping its ends.
  static func simplify(_ points: [SIMD2<Double>], _ epsilon: Double) -> [SIMD2<Double>] {
    var simplified: [SIMD2<Double>] = []
    simplify(count: points.count, { points[$0] }, epsilon, into: &simplified)
    return simplified
  }

  /// Douglas–Peucker on the open polyline of `count` points `point(k)`, keeping its ends: the
  /// points kept appended to `out` in order, but the last when `droppingLast`. Every outline of
  /// every rule is simplified, so nothing is copied and the work lists live on the stack.
  static func simplify(
    count: Int, _ point: (Int) -> SIMD2<Double>, _ epsilon: Double, into out: inout [SIMD2<Double>],
    droppingLast: Bool = false
  ) {
    let end = droppingLast ? count - 1 : count
    guard count > 2 else {
      for k in 0..<Swift.max(0, end) { out.append(point(k)) }
      return
    }
    withUnsafeTemporaryAllocation(of: Bool.self, capacity: count) { kept in
      kept.initialize(repeating: false)
      (kept[0], kept[count - 1]) = (true, true)
      // The spans still to split (at most one a point kept): each span's farthest point from
      // its chord, when farther than epsilon, is kept and splits it.
      withUnsafeTemporaryAllocation(of: (Int, Int).self, capacity: count) { spans in
        spans[0] = (0, count - 1)
        var pending = 1
        while pending > 0 {
          pending -= 1
          let (first, last) = spans[pending]
          let (a, b) = (point(first), point(last))
          var (worst, index) = (0.0, first)
          for k in (first + 1)..<last {
            let d = squaredDistance(point(k), fromSegment: a, b)
            if d > worst { (worst, index) = (d, k) }
          }
          guard worst > epsilon * epsilon, index > first else { continue }
          kept[index] = true
          if index - first > 1 {
            spans[pending] = (first, index)
            pending += 1
          }
          if last - index > 1 {
            spans[pending] = (index, last)
            pending += 1
          }
        }
      }
      for k in 0..<end where kept[k] { out.append(point(k)) }
    }
  }

  // MARK: Corners

  /// The quad's corners moved onto the image's edges: along each side, where the light
  /// crosses halfway between the two sides' levels at sixteen points (interpolated to a fraction
  /// of a pixel), a line fitted through them, and the corners where neighbouring lines meet. A
  /// side whose edge cannot be found keeps its corners. `sigma` is the corners' 1-σ uncertainty
  /// per coordinate (pixels, root mean square over the four) from the edge points' scatter
  /// about the lines; nil when a corner was kept.
  ///
  /// Twice: from the outline's corners (a few pixels off at worst) looking ±4 pixels across
  /// each side (a cell where that is less, but ±1.5 at least; a third of a cell, up to 12, where
  /// that is more), then from the first estimate over the edge's own width (a blurred edge is
  /// wider), at least ±1.5 pixels and at most 0.9 `cell` (pixels), so that the next cell's
  /// level stays out of the profile.
  func refinedCorners(_ quad: [SIMD2<Double>], cell: Double) -> (
    corners: [SIMD2<Double>], sigma: Double?, edgeWidth: Double
  ) {
    // A small marker's quiet zone is narrower than 4 pixels: looking that far, the first pass
    // took a cube face's own edge for the border's (3-6 px off on a competition field's
    // 18 px tags; 2-3.5 px looking a cell and a half). A cell, at least 1.5 px, does not.
    // A large marker's outline strays further: on a sheet bent over a curve (a tag of 280 px,
    // 35 px cells) its corners sat 13-19 px from the edges' meeting points. Its quiet zone is as
    // wide as a cell, so a third of a cell (at most 12 px) looks no further than the border.
    let first = refineOnce(
      quad, reach: Array(repeating: min(max(4, cell / 3), max(1.5, cell), 12), count: 4))
    let reach = first.widths.map { min(max(1.5, 0.5 + $0), max(1.5, 0.9 * cell)) }
    let second = refineOnce(first.corners, reach: reach)
    return (second.corners, second.sigma, second.widths.reduce(0, +) / 4)
  }

  /// One refinement looking `reach[i]` pixels either side of side i (from corner i to i + 1);
  /// with each side's edge width (pixels over which the light changes, the median over its
  /// points; 1 where unknown).
  private func refineOnce(_ quad: [SIMD2<Double>], reach: [Double]) -> (
    corners: [SIMD2<Double>], sigma: Double?, widths: [Double]
  ) {
    var lines: [EdgeLine?] = [], widths: [Double] = []
    for i in 0..<4 {
      let a = quad[i], b = quad[(i + 1) % 4]
      let along = (b - a).normalizedOrNil() ?? SIMD2(1, 0)
      let normal = SIMD2(-along.y, along.x)
      var points: [SIMD2<Double>] = [], sideWidths: [Double] = []
      points.reserveCapacity(16)
      sideWidths.reserveCapacity(16)
      let offsets = Array(stride(from: -reach[i], through: reach[i], by: 0.25))
      let n = offsets.count
      // One profile's light at a time, in one buffer for the side's sixteen.
      let light = UnsafeMutableBufferPointer<Double>.allocate(capacity: n)
      defer { light.deallocate() }
      for k in 1...16 {
        let base = a + (b - a) * (0.12 + 0.76 * Double(k - 1) / 15)
        // Not where the side runs outside the image (a marker cut at its corner): there the
        // profile would read the edge's pixels again and again.
        guard Self.isInside(base, width: Double(width), height: Double(height)) else { continue }
        // The normal points into the marker (the corners run clockwise, y down), so the
        // outside must be at least 20 encoded levels lighter than the inside. A profile lighter
        // inside has crossed the one-cell border into a white cell: its steepest edge would be
        // the border's inner one, and would pull the side inwards by a cell. (The ends' three
        // samples a side, encoded, read with the profile's light from the same pixels.)
        let darkerInside = linearProfile(from: base, along: normal, at: offsets, into: light)
        guard darkerInside > 60 else { continue }
        var (steepest, at) = (0.0, -1)
        for j in 1..<(n - 1) {
          // Only edges that darken inwards: the outer edge of the border.
          let g = light[j - 1] - light[j + 1]
          if g > steepest { (steepest, at) = (g, j) }
        }
        guard at > 1, at < n - 2 else { continue }
        // Where the light crosses the middle of its two sides' levels, between samples: for an
        // edge averaged over the pixels it cuts, or blurred, exactly the edge.
        let low = (light[0] + light[1] + light[2]) / 3
        let high = (light[n - 1] + light[n - 2] + light[n - 3]) / 3
        let middle = (low + high) / 2
        let width = abs(high - low) / (steepest / 0.5)
        let window = max(3, Int(width / 0.25))
        var crossing: Double?
        for j in max(0, at - window)..<min(n - 1, at + window) {
          let (u, v) = (light[j] - middle, light[j + 1] - middle)
          if u == 0 || (u < 0) != (v < 0) {
            let t = u == v ? 0 : u / (u - v)
            let candidate = offsets[j] + t * 0.25
            if crossing.map({ abs(candidate - offsets[at]) < abs($0 - offsets[at]) }) ?? true {
              crossing = candidate
            }
          }
        }
        guard let crossing else { continue }
        points.append(base + normal * crossing)
        sideWidths.append(width)
      }
      lines.append(EdgeLine(fitting: points))
      widths.append(sideWidths.isEmpty ? 1 : sideWidths.sorted()[sideWidths.count / 2])
    }
    var corners: [SIMD2<Double>] = [], variance = 0.0, allRefined = true
    for i in 0..<4 {
      guard let l1 = lines[(i + 3) % 4], let l2 = lines[i], let meeting = l1.intersection(l2),
        (meeting.point - quad[i]).length < Self.cornerShift(reach[(i + 3) % 4], reach[i], l1, l2, quad, i)
      else {
        corners.append(quad[i])
        allRefined = false
        continue
      }
      corners.append(meeting.point)
      variance += meeting.variance / 4
    }
    return (corners, allRefined ? variance.squareRoot() : nil, widths)
  }

  /// How far corner `i` of `quad` may move when the sides before and after it move across
  /// themselves by up to `before` and `after` pixels onto the lines `l1` and `l2`: their sum
  /// (and 2 px) where the sides meet square, divided by the sine of the angle between the lines
  /// where it is acute or obtuse (moving a line by d moves its meeting point by d / sin θ
  /// along the other). A sliver's tip, a tag seen edge-on at 10-15°, is where a threshold
  /// rounds its outline off most, 15-20 px short of the edges' meeting point; the bound stays
  /// within a quarter of the shorter side, so near-parallel lines meeting far away are refused.
  static func cornerShift(
    _ before: Double, _ after: Double, _ l1: EdgeLine, _ l2: EdgeLine, _ quad: [SIMD2<Double>], _ i: Int
  ) -> Double {
    let square = before + after + 2
    let sine = abs(l1.direction.x * l2.direction.y - l1.direction.y * l2.direction.x)
    let shorter = min((quad[i] - quad[(i + 3) % 4]).length, (quad[(i + 1) % 4] - quad[i]).length)
    return max(square, min(square / max(sine, 1e-3), shorter / 4))
  }
}
