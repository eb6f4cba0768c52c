import ARMath
import ARTestSupport
import Foundation
import Testing

@testable import ARMesh

/// The mesh a model's primitives are assembled into, written in pieces on every core, against
/// a plain one-vertex-at-a-time evaluation of the same rules; and USD's polygon fans with the
/// errors that name the first bad face.
@Suite("Mesh assembly")
struct MeshAssemblyTests {
  /// A primitive of `points` random points and `triangles` random triangles over them, with
  /// random normals unless `flat`.
  static func primitive(points: Int, triangles: Int, flat: Bool, using g: inout SplitMix64)
    -> GLTFPrimitiveAttributes
  {
    let unit = { (g: inout SplitMix64) in Double(g.next() >> 11) / Double(1 << 53) * 2 - 1 }
    let positions = (0..<points).map { _ in SIMD3(unit(&g), unit(&g), unit(&g)) }
    let corners = (0..<3 * triangles).map { _ in UInt32(g.below(points)) }
    var p = GLTFPrimitiveAttributes(positions: positions, triangles: corners)
    if !flat { p.normals = (0..<points).map { _ in SIMD3(unit(&g), unit(&g), unit(&g)) } }
    return p
  }

  /// The vertices, normals and indices the rules give, one placement and vertex after another.
  static func expected(_ placed: [(GLTFPrimitiveAttributes, Matrix4<Double>)]) -> (
    positions: [SIMD3<Double>], normals: [SIMD3<Double>], indices: [Int]
  ) {
    var positions: [SIMD3<Double>] = [], normals: [SIMD3<Double>] = [], indices: [Int] = []
    for (pending, world) in placed {
      let p = pending.withNormalsMade()
      let mirrored = world.linear.determinant < 0
      let base = positions.count
      let triangles = stride(from: 0, to: p.triangles.count, by: 3).map {
        (Int(p.triangles[$0]), Int(p.triangles[$0 + 1]), Int(p.triangles[$0 + 2]))
      }
      if let given = p.normals {
        let normalMatrix = world.linear.inverse!.transposed
        positions += p.positions.map(world.transformPoint)
        normals += given.map { n in
          let m = normalMatrix * n
          return m / (m * m).sum().squareRoot()
        }
        for (a, b, c) in triangles {
          indices += mirrored ? [base + a, base + c, base + b] : [base + a, base + b, base + c]
        }
      } else {
        for (k, (a, b, c)) in triangles.enumerated() {
          let corners = [a, b, c].map { world.transformPoint(p.positions[$0]) }
          var n = (corners[1] - corners[0]).cross(corners[2] - corners[0])
          n = (mirrored ? -n : n) / (n * n).sum().squareRoot()
          positions += corners
          normals += [n, n, n]
          let first = base + 3 * k
          indices += mirrored ? [first, first + 2, first + 1] : [first, first + 1, first + 2]
        }
      }
    }
    return (positions, normals, indices)
  }

  @Test(
    "primitives large enough to be cut into pieces, flat and smooth, mirrored, far from the origin: the same mesh as one vertex at a time",
    arguments: [SIMD3<Double>(0, 0, 0), SIMD3<Double>(4_100_000, 350_000, 4_800_000)])
  func piecesAgree(offset: SIMD3<Double>) throws {
    var g = SplitMix64(seed: 71)
    let turn = Quaternion<Double>(angle: Angle(radians: 0.7), axis: SIMD3(0, 0.6, 0.8)).matrix
    let worlds: [Matrix4<Double>] = [
      Matrix4(linear: turn, translation: offset),
      Matrix4(linear: turn * Matrix3(diagonal: SIMD3(-1, 2, 0.5)), translation: offset + SIMD3(3, 0, 0)),
      Matrix4(linear: Matrix3(diagonal: SIMD3(1, 1, 1)), translation: offset - SIMD3(0, 2, 0)),
    ]
    // 70k points and 140k triangles: several pieces; 50k flat triangles: 150k vertices, three
    // pieces; small ones between them.
    let placed: [(GLTFPrimitiveAttributes, Matrix4<Double>)] = [
      (Self.primitive(points: 70_000, triangles: 140_000, flat: false, using: &g), worlds[0]),
      (Self.primitive(points: 5, triangles: 3, flat: false, using: &g), worlds[1]),
      (Self.primitive(points: 30_000, triangles: 50_000, flat: true, using: &g), worlds[1]),
      (Self.primitive(points: 4, triangles: 0, flat: false, using: &g), worlds[2]),
      (Self.primitive(points: 90_000, triangles: 100_000, flat: false, using: &g), worlds[1]),
      (Self.primitive(points: 10, triangles: 7, flat: true, using: &g), worlds[2]),
      // Smooth normals made as they are placed: a mesh of one piece, mirrored, and one larger
      // (kept in one piece, its normals summed over all its triangles once).
      (Self.smoothPending(Self.primitive(points: 3_000, triangles: 6_000, flat: true, using: &g)), worlds[1]),
      (
        Self.smoothPending(Self.primitive(points: 40_000, triangles: 80_000, flat: true, using: &g)),
        worlds[0]
      ),
    ]
    var geometry = GLTFGeometry()
    geometry.materials = [.fallback, .fallback]
    for (k, (p, world)) in placed.enumerated() { geometry.append(p, world: world, mode: 4, material: k % 2) }
    let mesh = geometry.mesh()
    let expected = Self.expected(placed)
    #expect(mesh.vertexCount == expected.positions.count && geometry.vertexCount == mesh.vertexCount)
    #expect(mesh.indices.map { Int($0) } == expected.indices)
    let low = expected.positions.reduce(expected.positions[0], pointwiseMin)
    let high = expected.positions.reduce(expected.positions[0], pointwiseMax)
    #expect(mesh.origin == (offset == .zero ? .zero : (low + high) / 2))
    // The bounds the assembly found give the model's geometry bounds a pass over the vertices
    // finds, bit for bit (the far model's vertices are offsets from its centre).
    let assembled = geometry.assembled()
    #expect(Self.boundsAgree(assembled.mesh, assembled.bounds))
    // Surveyed without the mesh (`model stats`): the same counts, bounds and origin.
    let survey = geometry.surveyed()
    #expect(survey.vertices == mesh.vertexCount && survey.triangles == mesh.triangleCount)
    #expect(survey.bounds?.min == assembled.bounds?.min && survey.bounds?.max == assembled.bounds?.max)
    #expect(GLTFGeometry.origin(for: survey.bounds) == mesh.origin)
    var worst = (position: 0.0, normal: 0.0)
    for v in 0..<mesh.vertexCount {
      worst.position = max(worst.position, (mesh.modelPosition(v) - expected.positions[v]).length)
      let n = mesh.normals[v]
      worst.normal = max(
        worst.normal, (SIMD3<Double>(Double(n.x), Double(n.y), Double(n.z)) - expected.normals[v]).length)
    }
    #expect(worst.position < 1e-6 && worst.normal < 1e-6, "\(worst)")
    // A submesh a primitive with triangles, in order, with its material.
    #expect(mesh.submeshes.map(\.material) == [0, 1, 0, 0, 1, 0, 1])
    #expect(mesh.submeshes.map(\.triangles.count) == [140_000, 3, 50_000, 100_000, 7, 6_000, 80_000])
  }

  /// `p` with its normals to be made smooth where it is placed.
  static func smoothPending(_ p: GLTFPrimitiveAttributes) -> GLTFPrimitiveAttributes {
    var p = p
    p.smoothNormalsPending = true
    return p
  }

  @Test(
    "OBJ faces triangulated in bands on every core, quads and triangles by their own path: the polygon triangulator's triangles and normals, face by face"
  )
  func objBands() throws {
    var g = SplitMix64(seed: 72)
    let unit = { (g: inout SplitMix64) in Double(g.next() >> 11) / Double(1 << 53) * 2 - 1 }
    var text = ""
    for _ in 0..<2_000 { text += "v \(unit(&g)) \(unit(&g)) \(0.3 * unit(&g))\n" }
    // 70,000 faces (three bands): triangles, quads (concave and convex, some degenerate with a
    // repeated point), pentagons.
    for f in 0..<70_000 {
      let n = [3, 4, 4, 5][f % 4]
      var corners = (0..<n).map { _ in 1 + g.below(2_000) }
      if f % 97 == 0 { corners[1] = corners[0] }
      text += "f " + corners.map(String.init).joined(separator: " ") + "\n"
    }
    let model = try OBJReader.parse(Array(text.utf8), path: "bands.obj")
    let (corners, normals) = MeshBuilder(obj: model, library: []).triangulate()
    var expected: [Int] = []
    for f in 0..<model.faceCount {
      let start = model.faceStarts[f], end = model.faceStarts[f + 1]
      let points = (start..<end).map { model.positions[Int(model.corners[$0].position)] }
      #expect(normals[f] == Triangulation.newellNormal(points))
      for (a, b, c) in Triangulation.triangulate(points) { expected += [start + a, start + b, start + c] }
    }
    #expect(corners == expected)
  }

  /// Whether a model of `mesh` with the assembly's `bounds` reports the geometry bounds a
  /// pass over its vertices does, bit for bit.
  static func boundsAgree(_ mesh: Mesh, _ bounds: (min: SIMD3<Double>, max: SIMD3<Double>)?) -> Bool {
    var model = ModelAsset(
      path: "m", format: .glb, mesh: mesh, namedNodes: [], embeddedImages: [:], warnings: [],
      counts: (0, 0, 0, 0),
      assembledBounds: bounds)
    let given = model.geometryBounds
    model.mesh.origin += SIMD3<Double>.zero  // a change to the mesh: the assembly's bounds are dropped
    guard model.assembledBounds == nil, let given, let passed = model.geometryBounds else {
      return model.geometryBounds == nil && given == nil
    }
    func bits(_ box: (min: SIMD3<Double>, max: SIMD3<Double>)) -> [UInt64] {
      (0..<3).flatMap { [box.min[$0].bitPattern, box.max[$0].bitPattern] }
    }
    return bits(given) == bits(passed)
  }

  @Test(
    "every glTF, GLB and USD fixture: the bounds its assembly found are the geometry bounds a pass over its vertices finds, bit for bit"
  )
  func assembledBoundsOfFixtures() throws {
    let root = Fixtures.path("")
    let files = try FileManager.default.subpathsOfDirectory(atPath: root).filter {
      ["glb", "gltf", "usdz", "usdc", "usda"].contains(($0 as NSString).pathExtension.lowercased())
    }
    var checked = 0
    for file in files.sorted() {
      guard let asset = try? ModelAsset.load(path: root + "/" + file), asset.assembledBounds != nil else {
        continue
      }
      #expect(Self.boundsAgree(asset.mesh, asset.assembledBounds), "\(file)")
      checked += 1
    }
    #expect(checked >= 20, "\(checked) models checked")
  }

  @Test(
    "smooth normals: each point's sum of its triangles' cross products, for fans of either hand and triangles in any order (seeded)"
  )
  func smoothNormalSums() throws {
    var g = SplitMix64(seed: 73)
    let unit = { (g: inout SplitMix64) in Double(g.next() >> 11) / Double(1 << 53) * 2 - 1 }
    let points = (0..<40).map { _ in SIMD3(unit(&g), unit(&g), unit(&g)) }
    for leftHanded in [false, true] {
      // Polygons of 0 to 6 corners (fans), then loose triangles, repeated corners among them.
      var counts: [Int64] = [], indices: [Int64] = []
      for _ in 0..<60 {
        let n = g.below(7)
        counts.append(Int64(n))
        indices += (0..<n).map { _ in Int64(g.below(points.count)) }
      }
      var triangles = try USDFaceFans(
        counts: counts, indices: indices, pointCount: points.count, leftHanded: leftHanded,
        keepCorners: false,
        prim: "/M", path: "f"
      ).triangles
      triangles += (0..<30).map { _ in UInt32(g.below(points.count)) }
      var expected = [SIMD3<Double>](repeating: .zero, count: points.count)
      for t in stride(from: 0, to: triangles.count, by: 3) {
        let (a, b, c) = (Int(triangles[t]), Int(triangles[t + 1]), Int(triangles[t + 2]))
        let n = (points[b] - points[a]).cross(points[c] - points[a])
        for k in [a, b, c] { expected[k] += n }
      }
      let sums = GLTFPrimitiveAttributes.smoothNormals(Vector3Array(points), triangles)
      let worst = zip(sums, expected).map { ($0 - $1).length }.max()!
      #expect(worst < 1e-12, "left-handed \(leftHanded): \(worst)")
    }
  }

  @Test("polygons as fans: triangles, quads, a pentagon, faces of fewer than three corners, left-handed")
  func fans() throws {
    let counts: [Int64] = [3, 4, 2, 0, 5]
    let indices: [Int64] = [0, 1, 2, 2, 1, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6]
    let right = try USDFaceFans(
      counts: counts, indices: indices, pointCount: 7, leftHanded: false, keepCorners: true, prim: "/M",
      path: "f")
    #expect(right.triangles == [0, 1, 2, 2, 1, 3, 2, 3, 4, 0, 1, 2, 0, 2, 3, 0, 3, 4])
    #expect(right.corners.map(\.face) == [0, 0, 0, 1, 1, 1, 1, 1, 1, 4, 4, 4, 4, 4, 4, 4, 4, 4])
    #expect(
      right.corners.map(\.faceVertex) == [0, 1, 2, 3, 4, 5, 3, 5, 6, 9, 10, 11, 9, 11, 12, 9, 12, 13])
    let left = try USDFaceFans(
      counts: counts, indices: indices, pointCount: 7, leftHanded: true, keepCorners: false, prim: "/M",
      path: "f")
    #expect(left.triangles == [0, 2, 1, 2, 3, 1, 2, 4, 3, 0, 2, 1, 0, 3, 2, 0, 4, 3])
    #expect(left.corners.isEmpty)
    // Empty faces after the last index: nothing read past it.
    let trailing = try USDFaceFans(
      counts: [3, 0, 0], indices: [0, 1, 2], pointCount: 3, leftHanded: false, keepCorners: false, prim: "/M",
      path: "f")
    #expect(trailing.triangles == [0, 1, 2])
  }

  @Test(
    "a face that runs past the indices, or names a point past the points, is an error naming the first such face"
  )
  func badFaces() {
    func fault(_ counts: [Int64], _ indices: [Int64], points: Int) -> USDError? {
      do {
        _ = try USDFaceFans(
          counts: counts, indices: indices, pointCount: points, leftHanded: false, keepCorners: false,
          prim: "/Mesh", path: "model.usdc")
        return nil
      } catch { return error }
    }
    let pastIndices = fault([3, 3, 4], [0, 1, 2, 0, 1, 2, 0, 1], points: 3)
    #expect(pastIndices?.place == "/Mesh.faceVertexCounts")
    #expect(pastIndices?.reason == "face 2's 4 corners run past the 8 faceVertexIndices")
    #expect(
      fault([3, -1], [0, 1, 2], points: 3)?.reason == "face 1's -1 corners run past the 3 faceVertexIndices")
    // Face 1 names point 3 of 3 before face 2 runs past the indices: face 1 is named.
    let pastPoints = fault([3, 3, 9], [0, 1, 2, 0, 3, 2], points: 3)
    #expect(pastPoints?.place == "/Mesh.faceVertexIndices")
    #expect(pastPoints?.reason == "face 1 names a point past the 3 points")
    #expect(fault([3], [0, -1, 2], points: 3)?.reason == "face 0 names a point past the 3 points")
    // Indices past those the faces use are not read, so not checked.
    #expect(fault([3], [0, 1, 2, 99], points: 3) == nil)
  }

  @Test(
    "a model 1.3 km from its origin (tinyusdz's translated-cube-001, a Blender export) is kept to a micrometre"
  )
  func recentredNearby() throws {
    let folder = try TemporaryFolder()
    let path = try folder.write(
      """
      #usda 1.0
      (
          metersPerUnit = 1
          upAxis = "Z"
      )
      def Xform "Cube"
      {
          matrix4d xformOp:transform = ( (2, 0, 0, 0), (0, 3, 0, 0), (0, 0, 4, 0), (-1.1853550672531128, 0, 1.9550952911376953, 1) )
          uniform token[] xformOpOrder = ["xformOp:transform"]
          def Mesh "Cube"
          {
              matrix4d xformOp:transform = ( (1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (100, 200, 300, 1) )
              uniform token[] xformOpOrder = ["xformOp:transform"]
              int[] faceVertexCounts = [4, 4, 4, 4, 4, 4]
              int[] faceVertexIndices = [0, 4, 6, 2, 3, 2, 6, 7, 7, 6, 4, 5, 5, 1, 3, 7, 1, 0, 2, 3, 5, 4, 0, 1]
              point3f[] points = [(1, 1, 1), (1, 1, -1), (1, -1, 1), (1, -1, -1), (-1, 1, 1), (-1, 1, -1), (-1, -1, 1), (-1, -1, -1)]
              uniform token subdivisionScheme = "none"
          }
      }
      """, to: "translated-cube.usda")
    let mesh = try ModelAsset.load(path: path).mesh
    // Every corner in Double, through both transforms, +Z up turned to +Y up: (x, z, -y).
    let (scale, shift) = (SIMD3<Double>(2, 3, 4), SIMD3(-1.1853550672531128, 0, 1.9550952911376953))
    for i in mesh.positions.indices {
      let p = mesh.modelPosition(i)
      let corner = SIMD3(p.x, -p.z, p.y)  // back to the stage's +Z up
      let local = (corner - shift) / scale - SIMD3(100, 200, 300)
      let snapped = SIMD3(local.x < 0 ? -1.0 : 1, local.y < 0 ? -1.0 : 1, local.z < 0 ? -1.0 : 1)
      let exact = (snapped + SIMD3(100, 200, 300)) * scale + shift
      let error = corner - exact
      #expect(max(abs(error.x), abs(error.y), abs(error.z)) < 1e-6, "vertex \(i): \(corner) against \(exact)")
    }
  }
}
