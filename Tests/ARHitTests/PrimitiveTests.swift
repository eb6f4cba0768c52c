import ARMath
import ARTestSupport
import Testing

@testable import ARHit

@Suite struct RaySphereTests {
  @Test("analytic entry and exit") func analyticEntryAndExit() throws {
    let sphere = Sphere(center: [0, 0, -10], radius: 2)
    let span = try #require(sphere.intersect(HitRay(origin: .zero, direction: [0, 0, -1])))
    #expect(span.entry == 8 && span.exit == 12)
    let inside = try #require(sphere.intersect(HitRay(origin: [0, 0, -10], direction: [0, 0, -2])))
    #expect(inside.entry == -1 && inside.exit == 1)  // t in units of the direction's length
    #expect(sphere.intersect(try HitRay(origin: .zero, direction: [0, 1, 0])) == nil)
    #expect(sphere.intersect(try HitRay(origin: [2.000001, 0, 0], direction: [0, 0, -1])) == nil)
  }

  @Test("a small far sphere keeps its precision") func aSmallFarSphereKeepsItsPrecision() throws {
    // A 5 mm acupressure point seen from 3 km (the textbook discriminant b² − ac cancels here).
    var rng = SplitMix64(seed: 4)
    var worst = 0.0
    for _ in 0..<2000 {
      let center = SIMD3<Double>(rng.scalar(-1...1), rng.scalar(-1...1), -3000)
      let target = center + 0.004 * SIMD3<Double>(rng.unitVector3() as SIMD3<Double>)
      let ray = try HitRay(origin: .zero, direction: target)
      guard let span = Sphere(center: center, radius: 0.005).intersect(ray) else {
        Issue.record("a ray aimed inside the sphere missed it")
        continue
      }
      // Reference in Float80: the entry point's distance from the centre is the radius.
      let p = ray.point(at: span.entry)
      let d = (p - center)
      let distance = Double(
        (Float80(d.x) * Float80(d.x) + Float80(d.y) * Float80(d.y) + Float80(d.z) * Float80(d.z)).squareRoot()
      )
      worst = max(worst, abs(distance - 0.005))
    }
    // Double at 3 km resolves 0.5 nm; the hit point is on the sphere to within a few of those.
    #expect(worst < 1e-8, "worst |p − c| − r = \(worst) m")
  }
}

@Suite struct RayTriangleTests {
  @Test("analytic hit and barycentrics") func analyticHitAndBarycentrics() throws {
    let ray = WatertightRay(try HitRay(origin: [0.25, 0.25, 5], direction: [0, 0, -1]))
    let hit = try #require(ray.intersect([0, 0, 0], [1, 0, 0], [0, 1, 0]))
    #expect(hit.t == 5 && hit.u == 0.25 && hit.v == 0.25)
    // Both windings hit.
    #expect(ray.intersect([0, 0, 0], [0, 1, 0], [1, 0, 0]) != nil)
    // Behind the origin and beyond tMax: no hit.
    #expect(ray.intersect([0, 0, 6], [1, 0, 6], [0, 1, 6]) == nil)
    #expect(ray.intersect([0, 0, 0], [1, 0, 0], [0, 1, 0], tMax: 4.5) == nil)
  }

  @Test("bad rays are refused") func badRaysAreRefused() {
    #expect(throws: HitError.invalidRay("direction has zero length")) {
      try HitRay(origin: .zero, direction: .zero)
    }
    expectError(HitError.self, "invalidRay") { try HitRay(origin: [.nan, 0, 0], direction: [0, 0, 1]) }
    expectError(HitError.self, "invalidRay") { try HitRay(origin: .zero, direction: [0, .infinity, 0]) }
    expectError(HitError.self, "invalidSphere") {
      try Sphere(center: .zero, radius: 0).validated(name: "LI4")
    }
    expectError(HitError.self, "invalidSphere") {
      try Sphere(center: .zero, radius: -1).validated(name: "LI4")
    }
    expectError(HitError.self, "invalidMesh") { try BoundingVolumeHierarchy(positions: [], indices: []) }
    expectError(HitError.self, "invalidMesh") {
      try BoundingVolumeHierarchy(positions: [[0, 0, .nan], [1, 0, 0], [0, 1, 0]], indices: [0, 1, 2])
    }
  }
}

@Suite struct FloatBracketTests {
  /// The box bounds and ray brackets round a `Double` to the neighbouring `Float`s by stepping
  /// bit patterns; held here to the definition (the largest `Float` ≤ x, the smallest ≥ x) at
  /// the edges (zeros, subnormals, beyond Float's range) and on a million seeded doubles of
  /// every magnitude.
  @Test("roundings are the neighbouring floats") func roundingsAreTheNeighbouringFloats() {
    func below(_ x: Double) -> Float {
      let f = Float(x)
      return Double(f) > x ? f.nextDown : f
    }
    func above(_ x: Double) -> Float {
      let f = Float(x)
      return Double(f) < x ? f.nextUp : f
    }
    var values: [Double] = [
      0, -0.0, 1e-50, -1e-50, Double(Float.leastNonzeroMagnitude), 1e300, -1e300,
      Double(Float.greatestFiniteMagnitude), -Double(Float.greatestFiniteMagnitude), 3.4028235677973366e38,
      0.1, -0.1, 1, -1, .infinity, -.infinity,
    ]
    var rng = SplitMix64(seed: 77)
    for _ in 0..<1_000_000 {
      let bits = rng.next()
      // Exponents across Float's whole range and a little beyond, either sign, any significand.
      let exponent = UInt64(1023 - 160 + Int(bits >> 56) % 320) << 52
      values.append(Double(bitPattern: bits & 0x800F_FFFF_FFFF_FFFF | exponent))
      values.append(Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits))))  // exact Floats
    }
    var wrong = 0
    for x in values where !x.isNaN {
      if x.floatBelow.bitPattern != below(x).bitPattern || x.floatAbove.bitPattern != above(x).bitPattern {
        wrong += 1
      }
    }
    #expect(wrong == 0)
  }
}
