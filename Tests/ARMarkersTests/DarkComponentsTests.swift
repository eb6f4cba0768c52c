import ARMath
import Testing

@testable import ARMarkers

/// The run-based components of thresholded images against a pixel-by-pixel flood fill, on
/// seeded random masks of every density (from scattered specks to one sprawling region), and
/// their outlines.
@Suite("Dark components")
struct DarkComponentsTests {
  /// Each pixel's component number (1-based, in the raster order of first pixels; 0 for light).
  static func floodFill(_ dark: [Bool], width: Int, height: Int) -> [Int] {
    var label = [Int](repeating: 0, count: dark.count), next = 0
    for start in dark.indices where dark[start] && label[start] == 0 {
      next += 1
      label[start] = next
      var stack = [start]
      while let i = stack.popLast() {
        let (x, y) = (i % width, i / width)
        for (nx, ny) in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
        where nx >= 0 && ny >= 0 && nx < width && ny < height && dark[ny * width + nx]
          && label[ny * width + nx] == 0
        {
          label[ny * width + nx] = next
          stack.append(ny * width + nx)
        }
      }
    }
    return label
  }

  /// Douglas–Peucker as first written: split at the farthest point, recursing on copies.
  static func simplifiedRecursively(_ points: [SIMD2<Double>], _ epsilon: Double) -> [SIMD2<Double>] {
    guard points.count > 2 else { return points }
    let (a, b) = (points[0], points[points.count - 1])
    // Squared distances, as the detector compares them (on a traced outline's lattice points
    // ties are common, and rounding a square root can break one differently).
    var (worst, index) = (0.0, 0)
    for k in 1..<(points.count - 1) {
      let d = GreyImage.squaredDistance(points[k], fromSegment: a, b)
      if d > worst { (worst, index) = (d, k) }
    }
    guard worst > epsilon * epsilon else { return [a, b] }
    return Array(simplifiedRecursively(Array(points[0...index]), epsilon).dropLast())
      + simplifiedRecursively(Array(points[index...]), epsilon)
  }

  @Test("outlines simplified over index spans keep the points the recursive split keeps")
  func simplifiedOutlines() {
    var random = SplitMix64(seed: 72)
    for _ in 0..<300 {
      let count = Int.random(in: 0...80, using: &random)
      // Walks of unit and diagonal steps, as traced outlines are, and some random points.
      var p = SIMD2<Double>(0, 0)
      let points = (0..<count).map { _ in
        p += SIMD2(
          Double(Int.random(in: -1...1, using: &random)), Double(Int.random(in: -1...1, using: &random)))
        return Bool.random(using: &random) ? p : p + SIMD2(Double.random(in: -3...3, using: &random), 0)
      }
      for epsilon in [0, 0.5, 1.5, 4] {
        #expect(GreyImage.simplify(points, epsilon) == Self.simplifiedRecursively(points, epsilon))
      }
    }
  }

  @Test(
    "the same components, boxes, counts and pixels as a flood fill",
    arguments: [0.03, 0.1, 0.45, 0.6, 0.9, 0.97])
  func againstFloodFill(density: Double) {
    var random = SplitMix64(seed: UInt64(density * 100))
    for _ in 0..<20 {
      // Rows of more than one 64-pixel word too, as the runs are found.
      let width = Int.random(in: 1...150, using: &random), height = Int.random(in: 1...40, using: &random)
      let dark = (0..<(width * height)).map { _ in Double.random(in: 0..<1, using: &random) < density }
      let expected = Self.floodFill(dark, width: width, height: height)
      let parts = DarkComponents(dark: dark, width: width, height: height)
      #expect(parts.components.count == (expected.max() ?? 0))
      var label = [Int32](repeating: 0, count: dark.count)
      for (c, part) in parts.components.enumerated() {
        let (mask, maskWidth, _) = parts.mask(of: c)
        for m in mask.indices where mask[m] {
          label[(m / maskWidth + part.minY - 1) * width + m % maskWidth + part.minX - 1] = Int32(c + 1)
        }
        // The outline runs along pixel corners of the box and encloses every pixel (holes too).
        let outline = parts.outline(of: c)
        var twiceArea = 0.0
        for (k, p) in outline.enumerated() {
          let q = outline[(k + 1) % outline.count]
          twiceArea += p.x * q.y - q.x * p.y
          #expect(p.x >= Double(part.minX) && p.x <= Double(part.maxX + 1))
          #expect(p.y >= Double(part.minY) && p.y <= Double(part.maxY + 1))
        }
        #expect(twiceArea / 2 >= Double(part.count))
        let pixels = expected.indices.filter { expected[$0] == c + 1 }
        let xs = pixels.map { $0 % width }, ys = pixels.map { $0 / width }
        #expect(part.count == pixels.count)
        #expect(part.minX == xs.min() && part.maxX == xs.max())
        #expect(part.minY == ys.min() && part.maxY == ys.max())
        let first = parts.runs[part.firstRun]
        #expect(Int(first.y) * width + Int(first.start) == pixels.first)
      }
      #expect(label.map(Int.init) == expected)
    }
  }
}

extension DarkComponentsTests {
  @Test("outlines hold only their turns: each side runs along a row or a column, and turns at each point")
  func outlinesHoldTurns() {
    var random = SplitMix64(seed: 7)
    for _ in 0..<60 {
      let (width, height) = (Int.random(in: 2...40, using: &random), Int.random(in: 2...30, using: &random))
      let dark = (0..<(width * height)).map { _ in Double.random(in: 0..<1, using: &random) < 0.55 }
      let parts = DarkComponents(dark: dark, width: width, height: height)
      for c in parts.components.indices {
        let outline = parts.outline(of: c)
        for (k, p) in outline.enumerated() {
          let (before, after) = (
            outline[(k + outline.count - 1) % outline.count], outline[(k + 1) % outline.count]
          )
          let (d0, d1) = (p - before, after - p)
          #expect((d0.x == 0) != (d0.y == 0) && (d1.x == 0) != (d1.y == 0), "a side along a row or column")
          #expect((d0.x == 0) != (d1.x == 0), "a turn at \(p)")
        }
        // Every unit step put back, the closed path's steps are all one pixel long.
        let steps = GreyImage.unitSteps(outline)
        for (k, p) in steps.enumerated() { #expect((steps[(k + 1) % steps.count] - p).length == 1) }
      }
    }
  }

  @Test("an axis-aligned square region is four turns, and a quadrilateral")
  func squareRegion() {
    let (width, height) = (30, 30)
    let dark = (0..<(width * height)).map { i in (5..<25).contains(i % width) && (5..<25).contains(i / width)
    }
    let parts = DarkComponents(dark: dark, width: width, height: height)
    let outline = parts.outline(of: 0)
    #expect(outline == [SIMD2(5, 5), SIMD2(25, 5), SIMD2(25, 25), SIMD2(5, 25)])
    let quad = GreyImage.quadrilateral(outline, minimumSide: 8)
    #expect(quad.map { Set($0) } == Set(outline))
  }
}
