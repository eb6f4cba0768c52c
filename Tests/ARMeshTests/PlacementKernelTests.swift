import ARMath
import Testing

@testable import ARMesh

/// The AVX2 loops a model's placement runs where the CPU has them (`CVectorKernels`), against
/// the portable Swift loops they stand for: the same bits, so that a model loads to the same
/// mesh on every machine. On a CPU without AVX2 there is nothing to compare.
@Suite("Placement kernels", .enabled(if: GLTFPlacementLayout.wideKernels, "this CPU has no AVX2"))
struct PlacementKernelTests {
  /// A grid's quads as fans (as USD's are cut), random triangles over its points with corners
  /// repeated, and points no triangle touches (zero sums, whose normal is (0, 1, 0)).
  static func awkwardPrimitive(scale: Double, using g: inout SplitMix64) -> GLTFPrimitiveAttributes {
    let side = 23
    let unit = { (g: inout SplitMix64) in Double(g.next() >> 11) / Double(1 << 53) * 2 - 1 }
    var points: [SIMD3<Double>] = []
    for y in 0...side {
      for x in 0...side { points.append(scale * SIMD3(Double(x), Double(y), unit(&g))) }
    }
    var corners: [UInt32] = []
    for y in 0..<side {
      for x in 0..<side {
        let a = UInt32(y * (side + 1) + x), b = a + 1, c = a + UInt32(side) + 2, d = a + UInt32(side) + 1
        // Both of USD's fan orders: (a, b, c)(a, c, d), and turned left-handed (a, c, b)(a, d, c).
        corners += (x + y).isMultiple(of: 2) ? [a, b, c, a, c, d] : [a, c, b, a, d, c]
      }
    }
    // Random triangles, some with a corner twice (no area), and fans whose next triangle shares
    // only its first corner.
    for _ in 0..<200 {
      let a = UInt32(g.below(points.count)), b = UInt32(g.below(points.count))
      corners += g.below(4) == 0 ? [a, a, b] : [a, b, UInt32(g.below(points.count))]
    }
    // Unused points, and one far off (a huge sum squared past Float's range).
    points += [.zero, SIMD3(1, 2, 3), scale * SIMD3(repeating: 1e18)]
    corners += [UInt32(points.count - 1), 0, 1]
    return GLTFPrimitiveAttributes(positions: points, triangles: corners)
  }

  /// Whether two arrays hold the same bits in their three lanes (the fourth is padding).
  static func sameBits<Scalar: BinaryFloatingPoint>(_ a: [SIMD3<Scalar>], _ b: [SIMD3<Scalar>]) -> Bool {
    a.count == b.count
      && zip(a, b).allSatisfy { p, q in
        (0..<3).allSatisfy { p[$0].isNaN ? q[$0].isNaN : p[$0] == q[$0] && p[$0].sign == q[$0].sign }
      }
  }

  @Test(
    "smooth normals summed: the portable loop's bits, fans, repeated corners and unused points included",
    arguments: [1.0, 1e-17, 1e150])
  func smoothNormalSums(scale: Double) {
    var g = SplitMix64(seed: 0x5EED)
    let p = Self.awkwardPrimitive(scale: scale, using: &g)
    let portable = GLTFPrimitiveAttributes.smoothNormals(p.positions, p.triangles, wide: false)
    let wide = GLTFPrimitiveAttributes.smoothNormals(p.positions, p.triangles, wide: true)
    let same = Self.sameBits(portable, wide)
    #expect(same)
    #expect(portable.contains { $0 != .zero } && portable.contains(.zero))
  }

  @Test(
    "placed with AVX2 and without: the same positions, normals, indices and bounds, given and smooth normals, mirrored, far off",
    arguments: [SIMD3<Double>(0, 0, 0), SIMD3<Double>(4_100_000, 350_000, 4_800_000)])
  func placementsAgree(offset: SIMD3<Double>) {
    var g = SplitMix64(seed: 68)
    let turn = Quaternion<Double>(angle: Angle(radians: 0.7), axis: SIMD3(0, 0.6, 0.8)).matrix
    let worlds: [Matrix4<Double>] = [
      Matrix4(linear: turn, translation: offset),
      Matrix4(linear: turn * Matrix3(diagonal: SIMD3(-1, 2, 0.5)), translation: offset + SIMD3(3, 0, 0)),
      Matrix4(linear: Matrix3(diagonal: SIMD3(1e-9, 1e9, 1)), translation: offset),
    ]
    var placements: [GLTFGeometry.Placement] = []
    for (k, world) in worlds.enumerated() {
      var smooth = Self.awkwardPrimitive(scale: [1, 1e-17, 1e150][k], using: &g)
      smooth.smoothNormalsPending = true
      let given = MeshAssemblyTests.primitive(points: 1_003, triangles: 1_500, flat: false, using: &g)
      // Given normals with zero, tiny and huge ones among them.
      var odd = given
      odd.normals![0] = .zero
      odd.normals![1] = SIMD3(1e-200, 0, 0)
      odd.normals![2] = SIMD3(1e200, -1e200, 3)
      odd.normals![3] = SIMD3(.infinity, 0, 0)
      for p in [smooth, given, odd] {
        placements.append(GLTFGeometry.Placement(attributes: p, world: world, material: 0))
      }
    }
    let layout = GLTFPlacementLayout(placements)
    for origin in [SIMD3<Double>.zero, offset] {
      let portable = layout.write(placements, origin: origin, wide: false)
      let wide = layout.write(placements, origin: origin, wide: true)
      // Compared first: an expectation on the call would print both arrays.
      let (positions, normals) = (
        Self.sameBits(portable.positions, wide.positions), Self.sameBits(portable.normals, wide.normals)
      )
      #expect(positions && normals, "origin \(origin): positions \(positions), normals \(normals)")
      let sameIndices = portable.indices == wide.indices
      #expect(sameIndices)
      #expect(portable.bounds?.0 == wide.bounds?.0 && portable.bounds?.1 == wide.bounds?.1)
      #expect(portable.normals.contains(SIMD3(0, 1, 0)), "a zero normal's stand-in was not reached")
    }
  }

  /// `p` with its points rounded to floats, held as doubles and held as floats.
  static func roundedAndHeldAsFloats(_ p: GLTFPrimitiveAttributes) -> (
    doubles: GLTFPrimitiveAttributes, floats: GLTFPrimitiveAttributes
  ) {
    let floats = p.positions.flatMap { [Float($0.x), Float($0.y), Float($0.z)] }
    var (asDoubles, asFloats) = (p, p)
    asDoubles.positions = Vector3Array(p.positions.map { SIMD3<Double>(SIMD3<Float>($0)) })
    asFloats.positions = Vector3Array(
      floats: ArraySlice(floats.withUnsafeBytes { Array($0) }), offset: 0, count: p.positions.count)
    return (asDoubles, asFloats)
  }

  @Test(
    "points held as the file's floats: the smooth-normal sums and the placement of the same points held as doubles, bit for bit",
    arguments: [1.0, 1e-17, 1e19])
  func floatPointsAgree(scale: Double) {
    var g = SplitMix64(seed: 71)
    let (doubles, floats) = Self.roundedAndHeldAsFloats(Self.awkwardPrimitive(scale: scale, using: &g))
    guard case .floats = floats.positions.storage else {
      Issue.record("the points are not held as floats")
      return
    }
    let sums = [
      GLTFPrimitiveAttributes.smoothNormals(doubles.positions, doubles.triangles, wide: false),
      GLTFPrimitiveAttributes.smoothNormals(floats.positions, floats.triangles, wide: false),
      GLTFPrimitiveAttributes.smoothNormals(floats.positions, floats.triangles, wide: true),
    ]
    let sameSums = sums.dropFirst().allSatisfy { Self.sameBits(sums[0], $0) }
    #expect(sameSums)
    let given = Self.roundedAndHeldAsFloats(
      MeshAssemblyTests.primitive(points: 1_003, triangles: 1_500, flat: false, using: &g))
    var flat = given
    (flat.doubles.normals, flat.floats.normals) = (nil, nil)
    let world = Matrix4<Double>(
      linear: Quaternion<Double>(angle: Angle(radians: 0.7), axis: SIMD3(0, 0.6, 0.8)).matrix
        * Matrix3(diagonal: SIMD3(-1, 2, 0.5)),
      translation: SIMD3(4_100_000, 350_000, 4_800_000))
    func placed(_ parts: [GLTFPrimitiveAttributes], wide: Bool) -> (
      positions: [SIMD3<Float>], normals: [SIMD3<Float>], indices: [UInt32],
      bounds: (SIMD3<Double>, SIMD3<Double>)?
    ) {
      var parts = parts
      parts[0].smoothNormalsPending = true
      let placements = parts.map { GLTFGeometry.Placement(attributes: $0, world: world, material: 0) }
      return GLTFPlacementLayout(placements).write(
        placements, origin: SIMD3(4_100_000, 350_000, 4_800_000), wide: wide)
    }
    let portable = placed([doubles, given.doubles, flat.doubles], wide: false)
    for wide in [false, true] {
      let held = placed([floats, given.floats, flat.floats], wide: wide)
      let (positions, normals) = (
        Self.sameBits(portable.positions, held.positions), Self.sameBits(portable.normals, held.normals)
      )
      #expect(positions && normals, "wide \(wide): positions \(positions), normals \(normals)")
      #expect(portable.indices == held.indices && portable.bounds?.0 == held.bounds?.0)
    }
  }

  @Test("a point that is not a number makes the box say so, with AVX2 as without")
  func unorderedBox() {
    var p = GLTFPrimitiveAttributes(
      positions: [SIMD3(0, 0, 0), SIMD3(1, .nan, 0), SIMD3(0, 1, 0)], triangles: [0, 1, 2])
    p.normals = [SIMD3(0, 0, 1), SIMD3(0, 0, 1), SIMD3(0, 0, 1)]
    let placements = [GLTFGeometry.Placement(attributes: p, world: .identity, material: 0)]
    let layout = GLTFPlacementLayout(placements)
    for wide in [false, true] {
      let box = layout.write(placements, origin: .zero, wide: wide).bounds
      #expect(box?.0.x.isNaN == true && box?.1.z.isNaN == true, "wide \(wide)")
    }
  }
}
