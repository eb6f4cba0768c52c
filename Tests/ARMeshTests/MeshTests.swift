import ARMath
import ARMesh
import ARTestSupport
import Foundation
import Testing

@Suite("Meshes from OBJ")
struct MeshTests {
  func mesh(_ name: String) throws -> Mesh { try OBJAsset.load(path: Fixtures.path("obj/\(name)")).mesh }

  /// Twice the signed area vector of triangle `t`.
  func areaVector(_ m: Mesh, _ t: Int) -> SIMD3<Float> {
    let (a, b, c) = m.triangle(t)
    return (m.positions[b] - m.positions[a]).cross(m.positions[c] - m.positions[a])
  }

  @Test("a concave hexagon triangulates into 4 counter-clockwise triangles covering its area")
  func concave() throws {
    let m = try mesh("concave_ngon.obj")
    #expect(m.triangleCount == 4)
    var area: Float = 0
    for t in 0..<4 {
      let v = areaVector(m, t)
      #expect(v.z > 0, "triangle \(t) must keep the polygon's winding")
      area += v.z / 2
    }
    #expect(abs(area - 3) < 1e-6)  // the L shape: 2×2 minus a 1×1 corner
  }

  @Test("flat faces get outward unit normals; triangles keep their winding")
  func cubeNormals() throws {
    let m = try mesh("cube_quads.obj")
    #expect(m.triangleCount == 12 && m.vertexCount == 24)  // flat: 4 vertices per face
    let centre = SIMD3<Float>(0.5, 0.5, 0.5)
    for t in 0..<12 {
      let (a, b, c) = m.triangle(t)
      let faceCentre = (m.positions[a] + m.positions[b] + m.positions[c]) / 3
      for v in [a, b, c] {
        #expect(abs(m.normals[v].length - 1) < 1e-6)
        #expect(m.normals[v].isApproximatelyEqual(to: areaVector(m, t).normalized(), absoluteTolerance: 1e-6))
      }
      #expect(areaVector(m, t).dot(faceCentre - centre) > 0, "triangle \(t) faces outward")
    }
  }

  @Test("a smoothing group shares averaged normals at the ridge; smoothing off keeps them flat")
  func smoothingGroups() throws {
    let m = try mesh("smoothing.obj")
    // Ridge vertices at x = 1: smooth copies have the average normal (0, 1, 0).
    let ridge = (0..<m.vertexCount).filter { m.positions[$0].x == 1 }
    let upward = ridge.filter { m.normals[$0].isApproximatelyEqual(to: [0, 1, 0], absoluteTolerance: 1e-6) }
    let slanted = ridge.filter { abs(abs(m.normals[$0].x) - 0.70710677) < 1e-6 }
    #expect(upward.count == 2)  // the two smooth ridge vertices, shared by both faces
    #expect(slanted.count == 4)  // the flat copy: each face its own
  }

  @Test("index forms and negative indices resolve to the same corners")
  func indexForms() throws {
    let model = try OBJReader.read(path: Fixtures.path("obj/index_forms.obj"))
    #expect(model.face(4).map(\.position) == [0, 2, 3])
    #expect(model.face(4).map(\.texcoord) == [0, 2, 3])
    #expect(model.face(4).map(\.normal) == [0, 0, 0])
    #expect(model.face(2).map(\.texcoord) == [-1, -1, -1])
  }

  @Test("numbers in odd formats parse exactly; vertex colours and 3-component vt are kept")
  func numbersAndColors() throws {
    let numbers = try OBJReader.read(path: Fixtures.path("obj/numbers.obj"))
    #expect(numbers.positions == [[0.001, 0.5, 1], [-0.0, 5, 200], [-0.15, 1e-7, 1.2345679e23]])
    #expect(numbers.positions[1].x.sign == .minus)
    let colors = try mesh("vertex_colors.obj")
    #expect(colors.colors.count == 3 && colors.colors.contains([0, 1, 0]))
    let vt = try OBJReader.read(path: Fixtures.path("obj/texcoords3.obj"))
    #expect(vt.texcoords == [[0.5, 0, 0], [0.25, 0.75, 0], [0.1, 0.2, 0.3]])
  }

  @Test("groups, objects and materials with spaces, mid-file")
  func names() throws {
    let asset = try OBJAsset.load(path: Fixtures.path("obj/groups_materials.obj"))
    #expect(asset.model.objectNames == ["Celtic gate", "Roof"])
    #expect(asset.model.groupNames == ["left post", "right post"])
    #expect(asset.model.materialNames == ["oak wood", "thatch"])
    #expect(asset.mesh.submeshes.map(\.triangles) == [0..<2, 2..<3, 3..<4])
    #expect(
      asset.mesh.submeshes.map { asset.mesh.materials[$0.material].name } == [
        "oak wood", "thatch", "oak wood",
      ])
    #expect(
      asset.libraryMaterials[0].diffuse == [0.55, 0.35, 0.2] && asset.libraryMaterials[0].shininess == 20)
  }

  @Test("MTL texture options and Tr")
  func textureOptions() throws {
    let asset = try OBJAsset.load(path: Fixtures.path("obj/textured.obj"))
    let material = asset.libraryMaterials[0]
    let map = try #require(material.diffuseTexture)
    #expect(map.path == Fixtures.path("obj/textures/checker board.png"))
    #expect(map.scale == [2, 2, 1] && map.clamp)
    #expect(material.bumpTexture?.bumpMultiplier == 0.5)
    #expect(material.opacity == 0.75 && material.shininess == 50)
  }

  @Test("lines, points, continuations and CRLF")
  func otherStatements() throws {
    let lines = try OBJReader.read(path: Fixtures.path("obj/lines_points.obj"))
    #expect(lines.lines.map { $0.map(\.position) } == [[0, 1, 2], [0, 1]])
    #expect(lines.lines[1].map(\.texcoord) == [0, 1])
    #expect(lines.points.map(\.position) == [0, 1, 2])
    let joined = try OBJReader.read(path: Fixtures.path("obj/continuation.obj"))
    #expect(joined.faceCount == 1 && joined.face(0).count == 4)
    let crlf = try OBJReader.read(path: Fixtures.path("obj/crlf_no_newline.obj"))
    #expect(crlf.faceCount == 1 && crlf.normals == [[0, 0, 1]])
  }

  @Test(
    "a model loaded as a model (read once) equals the OBJ asset, with a byte-order mark and its materials")
  func modelLoad() throws {
    for name in ["textured.obj", "groups_materials.obj", "crlf_no_newline.obj"] {
      let path = Fixtures.path("obj/" + name)
      let asset = try OBJAsset.load(path: path)
      let model = try ModelAsset.load(path: path)
      #expect(model.format == .obj && model.mesh.positions == asset.mesh.positions, "\(name)")
      #expect(
        model.mesh.indices == asset.mesh.indices && model.mesh.materials == asset.mesh.materials, "\(name)")
    }
    // The mark before the first statement is no part of it.
    let folder = try TemporaryFolder()
    let plain = try String(contentsOfFile: Fixtures.path("obj/cube_quads.obj"), encoding: .utf8)
    let marked = try folder.write("\u{FEFF}" + plain, to: "marked.obj")
    let mesh = try ModelAsset.load(path: marked).mesh
    #expect(mesh.positions == (try ModelAsset.load(path: Fixtures.path("obj/cube_quads.obj")).mesh.positions))
    #expect(mesh.triangleCount == 12)
  }

  @Test(
    "read → write → read gives the same mesh",
    arguments: [
      "cube_quads.obj", "textured.obj", "smoothing.obj", "vertex_colors.obj", "groups_materials.obj",
    ])
  func roundTrip(_ name: String) throws {
    let first = try mesh(name)
    let text = first.objText()
    let model = try OBJReader.parse(Array(text.utf8), path: "round-trip.obj")
    let second = Mesh(obj: model, materials: first.materials)
    #expect(second.positions == first.positions)
    #expect(second.normals == first.normals)
    #expect(second.texcoords == first.texcoords)
    #expect(second.colors == first.colors)
    #expect(second.indices == first.indices)
    #expect(second.submeshes == first.submeshes)
  }

  @Test("seeded random meshes survive the round trip bit for bit")
  func randomRoundTrip() throws {
    var rng = SplitMix64(seed: 401)
    for i in 0..<50 {
      let n = Int.random(in: 3...200, using: &rng)
      // Within ``OBJModel/originDistance`` of the origin: read back, the positions are the
      // same `Float`s. (Farther, the reader keeps offsets from the first vertex: same model
      // positions to the offsets' rounding; GeoreferencedMeshTests covers those.)
      let positions: [SIMD3<Float>] = (0..<n).map { _ in rng.vector3(-1e3...1e3) }
      let normals: [SIMD3<Float>] = (0..<n).map { _ in rng.unitVector3() }
      let texcoords = (0..<n).map { _ in SIMD2<Float>(rng.scalar(0...1), rng.scalar(0...1)) }
      let indices = (0..<(3 * n)).map { _ in UInt32.random(in: 0..<UInt32(n), using: &rng) }
      let mesh = Mesh(positions: positions, normals: normals, texcoords: texcoords, indices: indices)
      let back = Mesh(obj: try OBJReader.parse(Array(mesh.objText().utf8), path: "r.obj"))
      // Vertices are re-unified in first-use order, so compare per triangle corner.
      for c in 0..<indices.count {
        let a = Int(mesh.indices[c]), b = Int(back.indices[c])
        #expect(mesh.positions[a] == back.positions[b] && mesh.texcoords[a] == back.texcoords[b], "case \(i)")
        #expect(
          back.normals[b].isApproximatelyEqual(to: mesh.normals[a], absoluteTolerance: 1e-6), "case \(i)")
      }
    }
  }

  @Test("welding merges vertices equal within tolerance and drops collapsed triangles")
  func welding() {
    let p: [SIMD3<Float>] = [
      [0, 0, 0], [1, 0, 0], [0, 1, 0], [1e-7, 0, 0], [1, 1e-7, 0], [1, 1, 0], [0, 0, 1e-7],
    ]
    let n = [SIMD3<Float>](repeating: [0, 0, 1], count: p.count)
    let mesh = Mesh(positions: p, normals: n, indices: [0, 1, 2, 3, 5, 4, 0, 6, 2])
    let welded = mesh.welded(positionTolerance: 1e-6)
    #expect(welded.vertexCount == 4)
    #expect(welded.triangleCount == 2)  // the third collapses (0 and 6 merge)
    #expect(welded.submeshes == [Mesh.Submesh(triangles: 0..<2, material: 0)])
    // Found by fuzzing: a coordinate of 1e23 trapped converting its grid cell to an integer.
    let far = Mesh(
      positions: [[1.2345679e23, 0, 0], [1.2345679e23, 0, 0], [-1e30, .infinity, 0]],
      normals: [[0, 0, 1], [0, 0, 1], [0, 0, 1]], indices: [0, 1, 2])
    #expect(far.welded().vertexCount == 2)
    let differentNormals = Mesh(
      positions: [[0, 0, 0], [0, 0, 0]], normals: [[0, 0, 1], [0, 1, 0]], indices: [])
    #expect(differentNormals.welded().vertexCount == 2)
  }
}
