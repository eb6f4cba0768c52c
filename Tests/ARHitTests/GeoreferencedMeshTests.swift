import ARHit
import ARMath
import ARMesh
import ARTestSupport
import Foundation
import Testing

/// Site models as surveys and photogrammetry export them: in projected or Earth-centred
/// coordinates, where a `Float` keeps half a metre. Meshes keep a `Double` origin and `Float`
/// offsets; rays must hit where a `Double` brute-force test on the file's numbers says.
@Suite("Meshes far from the origin")
struct GeoreferencedMeshTests {
  /// A 40 × 40 m terrain patch: 21 × 21 vertices 2 m apart, jittered, at `corner` (x, y across
  /// the patch, z the height), written with centimetres as survey exports do; and the file's
  /// vertices read back in `Double` from the same text, for the oracle.
  static func terrain(at corner: SIMD3<Double>, seed: UInt64) -> (
    obj: String, vertices: [SIMD3<Double>], indices: [Int]
  ) {
    var rng = SplitMix64(seed: seed)
    var obj = "# terrain patch in projected coordinates\n"
    var vertices: [SIMD3<Double>] = []
    for j in 0...20 {
      for i in 0...20 {
        let x = corner.x + 2 * Double(i) + Double.random(in: -0.3...0.3, using: &rng)
        let y = corner.y + 2 * Double(j) + Double.random(in: -0.3...0.3, using: &rng)
        let z =
          corner.z + 3 * sin(Double(i) / 4) * cos(Double(j) / 5) + Double.random(in: -0.2...0.2, using: &rng)
        let line = String(format: "v %.2f %.2f %.2f", x, y, z)
        obj += line + "\n"
        let fields = line.split(separator: " ").dropFirst().map { Double($0)! }
        vertices.append(SIMD3(fields[0], fields[1], fields[2]))
      }
    }
    var indices: [Int] = []
    for j in 0..<20 {
      for i in 0..<20 {
        let a = j * 21 + i, b = a + 1, c = a + 21, d = c + 1
        indices += [a, b, d, a, d, c]
        obj += "f \(a + 1) \(b + 1) \(d + 1)\nf \(a + 1) \(d + 1) \(c + 1)\n"
      }
    }
    return (obj, vertices, indices)
  }

  /// The closest hit by testing every triangle in `Double` (Möller–Trumbore), or nil.
  static func bruteForce(
    _ origin: SIMD3<Double>, _ direction: SIMD3<Double>, _ v: [SIMD3<Double>], _ idx: [Int]
  )
    -> Double?
  {
    var best: Double? = nil
    for t in 0..<(idx.count / 3) {
      let (a, b, c) = (v[idx[3 * t]], v[idx[3 * t + 1]], v[idx[3 * t + 2]])
      // Relative to the first vertex, so the oracle itself keeps its digits.
      let o = origin - a, e1 = b - a, e2 = c - a
      let p = direction.cross(e2), det = e1.dot(p)
      guard abs(det) > 1e-12 else { continue }
      let u = o.dot(p) / det
      let q = o.cross(e1)
      let w = direction.dot(q) / det
      guard u >= 0, w >= 0, u + w <= 1 else { continue }
      let distance = e2.dot(q) / det
      if distance > 0, distance < (best ?? .infinity) { best = distance }
    }
    return best
  }

  static let places: [(String, SIMD3<Double>)] = [
    ("UTM 33N near Závist", [455_210.30, 5_535_210.30, 420]),
    ("S-JTSK (Křovák) near Prague", [-741_880.55, -1_052_330.45, 300]),
    ("ECEF at the equator", [6_378_137.00, 1_000.25, -2_000.75]),
  ]

  @Test("rays hit where a Double brute-force test says, t within 10 µm", arguments: places)
  func raysAgreeWithBruteForce(place: String, corner: SIMD3<Double>) throws {
    let (obj, vertices, indices) = Self.terrain(at: corner, seed: 31)
    let model = try OBJReader.parse(Array(obj.utf8), path: "\(place).obj")
    #expect(model.origin == vertices[0].rounded(.toNearestOrAwayFromZero))
    for (i, truth) in vertices.enumerated() {
      let p = model.positions[i]
      #expect((model.origin + SIMD3(Double(p.x), Double(p.y), Double(p.z)) - truth).maxMagnitude < 5e-6)
    }
    #expect(model.bounds.min.x == vertices.map(\.x).min() && model.bounds.max.y == vertices.map(\.y).max())
    let mesh = Mesh(obj: model)
    let hierarchy = try BoundingVolumeHierarchy(mesh: mesh)
    var rng = SplitMix64(seed: 32)
    var hits = 0
    for _ in 0..<500 {
      // From 30 m above the patch towards a random point of it (some rays leave past its edge).
      let target =
        corner + SIMD3(Double.random(in: -2...42, using: &rng), Double.random(in: -2...42, using: &rng), 0)
      let origin =
        target + SIMD3(Double.random(in: -10...10, using: &rng), Double.random(in: -10...10, using: &rng), 30)
      let direction = (target - origin).normalized()
      let expected = Self.bruteForce(origin, direction, vertices, indices)
      let found = hierarchy.closestHit(try HitRay(origin: origin, direction: direction))
      #expect((found == nil) == (expected == nil), "hit or miss at \(target)")
      if let found, let expected {
        hits += 1
        #expect(abs(found.t - expected) <= 1e-5, "t \(found.t) against \(expected)")
      }
    }
    #expect(hits > 400)
  }

  @Test("a ray through a triangle's middle hits it, at northings near 5,500 km")
  func middleOfATriangle() throws {
    let obj =
      "v 455210.30 5535210.30 420.10\nv 455210.90 5535210.30 420.10\nv 455210.30 5535210.90 420.10\nf 1 2 3\n"
    let mesh = Mesh(obj: try OBJReader.parse(Array(obj.utf8), path: "small.obj"))
    let hierarchy = try BoundingVolumeHierarchy(mesh: mesh)
    let middle = SIMD3<Double>(455_210.50, 5_535_210.50, 420.10)
    let hit = try #require(
      hierarchy.closestHit(try HitRay(origin: middle + [0, 0, 2], direction: [0, 0, -1])))
    #expect(abs(hit.t - 2) < 1e-6)
  }

  @Test("written and read again, a far mesh keeps its origin and its vertices")
  func roundTrip() throws {
    let (obj, _, _) = Self.terrain(at: [455_210.30, 5_535_210.30, 420], seed: 33)
    let mesh = Mesh(obj: try OBJReader.parse(Array(obj.utf8), path: "patch.obj"))
    #expect(mesh.origin != .zero)
    let again = Mesh(obj: try OBJReader.parse(Array(mesh.objText().utf8), path: "again.obj"))
    #expect(again.origin == mesh.origin && again.positions == mesh.positions)
  }
}
