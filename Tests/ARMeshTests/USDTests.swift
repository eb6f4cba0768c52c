import ARMath
import ARTestSupport
import Foundation
import Testing

@testable import ARMesh

/// USDZ packages with binary and text layers, and references between them, against Pixar's
/// usd-core: files it wrote (`Tools/generate-usd-fixtures`) and its own evaluation of their
/// transforms and units, and the Blender-exported cube of the shared samples.
@Suite("USDZ")
struct USDTests {
  struct Expected: Decodable {
    var triangles: Int
    var min: [Double], max: [Double]
    var points: [[Double]]
  }

  @Test(
    "usd-core's packages: triangles, bounds and every point in metres with +Y up",
    arguments: [
      "nested-zup-metres.usdz", "nested-yup-centimetres.usdz", "triangle-millimetres.usdz",
      "textured-quad.usdz", "nested-zup-metres-text.usdz", "textured-quad-text.usdz", "referenced-parts.usdz",
      "smooth-normals.usdz", "mapped-quad.usdz", "transform-ops.usdz", "transform-ops-text.usdz",
      "nested-package.usdz", "subset-materials.usdz", "subset-materials-text.usdz",
    ])
  func usdCore(_ name: String) throws {
    let all = try JSONDecoder().decode(
      [String: Expected].self,
      from: Data(contentsOf: URL(fileURLWithPath: Fixtures.path("usd/expected.json"))))
    let expected = try #require(all[name])
    let asset = try ModelAsset.load(path: Fixtures.path("usd/" + name))
    #expect(asset.format == .usdz && asset.mesh.triangleCount == expected.triangles)
    let scale = Swift.max(1e-3, (0..<3).map { expected.max[$0] - expected.min[$0] }.max()!)
    let bounds = asset.mesh.bounds
    for k in 0..<3 {
      #expect(abs(Double(bounds.min[k]) + asset.mesh.origin[k] - expected.min[k]) < 1e-6 * scale, "\(name)")
      #expect(abs(Double(bounds.max[k]) + asset.mesh.origin[k] - expected.max[k]) < 1e-6 * scale, "\(name)")
    }
    let ours = (0..<asset.mesh.vertexCount).map { asset.mesh.modelPosition($0) }
    for p in expected.points {
      let q = SIMD3(p[0], p[1], p[2])
      let nearest = ours.map { (($0 - q) * ($0 - q)).sum() }.min()!.squareRoot()
      #expect(nearest < 1e-6 * scale, "\(name): \(p)")
    }
  }

  @Test("a bound UsdPreviewSurface: its diffuse colour and opacity")
  func previewSurface() throws {
    let asset = try ModelAsset.load(path: Fixtures.path("usd/triangle-millimetres.usdz"))
    let material = try #require(asset.mesh.materials[safe: asset.mesh.submeshes[0].material])
    #expect(material.name == "Ochre" && material.opacity == 0.5)
    #expect(material.diffuse == SIMD3(0.7, 0.45, 0.1))
  }

  @Test(
    "Blender's cube.usdz: 12 triangles; bounds as usd-core's BBoxCache (its stale extent, ±100 m), points ±1 m",
    .enabled(if: RealData.available, Comment(rawValue: RealData.absent)))
  func blenderCube() throws {
    let asset = try ModelAsset.load(path: RealData.path("models3d/usdz_tinyusdz/cube.usdz"))
    let stats = ModelStatistics(asset)
    #expect(stats.triangles == 12 && stats.format == "usdz")
    // usd-core 26.11: UsdGeom.BBoxCache(default, [default, render]).ComputeWorldBound(root)
    // .ComputeAlignedRange() = ±(10000, 10000.000437113886, 10000.000437113886) stage units, at
    // the fallback metersPerUnit of 0.01. Blender wrote the mesh's extent ±100 around points ±1.
    let usdCore = SIMD3(10000, 10000.000437113886, 10000.000437113886) * 0.01
    let bounds = try #require(stats.bounds), points = try #require(stats.geometryBounds)
    for k in 0..<3 {
      #expect(abs(bounds.min[k] + usdCore[k]) < 1e-9 && abs(bounds.max[k] - usdCore[k]) < 1e-9, "\(bounds)")
      #expect(abs(points.min[k] + 1) < 1e-6 && abs(points.max[k] - 1) < 1e-6, "\(points)")
    }
    #expect(asset.warnings.contains { $0.contains("authored extents") && $0.contains("disagree") })
  }

  @Test(
    "broken packages are errors naming the file, the layer and where: a compressed entry, truncations, a missing or cyclic reference, a bad unit"
  )
  func broken() throws {
    let good = try [UInt8](
      Data(contentsOf: URL(fileURLWithPath: Fixtures.path("usd/triangle-millimetres.usdz"))))
    var compressed = good
    compressed[8] = 8  // the first entry's method: deflate
    let truncated = Self.zip([("root.usda", "#usda 1.0\ndef Mesh \"M\" {\n  point3f[] points = [(0, 0, 0)")])
    let unclosed = Self.zip([("root.usda", "#usda 1.0\ndef Mesh \"M\" {\n")])
    let missing = Self.zip([("root.usda", "#usda 1.0\ndef Xform \"A\" (references = @parts/b.usda@) {}\n")])
    let cycle = Self.zip([
      ("root.usda", "#usda 1.0\ndef Xform \"A\" (references = @b.usda@) {}\n"),
      ("b.usda", "#usda 1.0\n(\n  defaultPrim = \"B\"\n)\ndef Xform \"B\" (references = @c.usda@) {}\n"),
      ("c.usda", "#usda 1.0\n(\n  defaultPrim = \"C\"\n)\ndef Xform \"C\" (references = @b.usda@) {}\n"),
    ])
    let badValue = Self.zip([("root.usda", "#usda 1.0\n(\n  metersPerUnit = -1\n)\n")])
    for (bytes, message) in [
      (compressed, "zip: 'triangle-millimetres.usdc' is compressed (method 8)"),
      (Array(good.prefix(200)), "zip: entry at byte 0 runs past"),
      (truncated, "t.usdz[root.usda]: line 3: the layer ends early (a truncated file?)"),
      (unclosed, "t.usdz[root.usda]: line 2: prim /M is not closed (a truncated file?)"),
      (missing, "t.usdz[root.usda]: /A: references parts/b.usda, which the package does not hold"),
      (cycle, "more than eight layers deep"),
      (badValue, "t.usdz[root.usda]: line 3: metersPerUnit -1.0 is not a positive length"),
      (Array(good.prefix(40)) + [UInt8](repeating: 0, count: 60), "zip: entry at byte 0 runs past"),
    ] {
      #expect { _ = try USDAsset(bytes: bytes, path: "t.usdz") } throws: { error in
        "\(error)".hasPrefix("t.usdz") && "\(error)".contains(message)
      }
    }
  }

  /// A stored zip of `entries` (names and texts), in order.
  static func zip(_ entries: [(name: String, text: String)]) -> [UInt8] {
    zip(files: entries.map { ($0.name, Array($0.text.utf8)) })
  }

  /// A stored zip of `files` (names and bytes: a nested package, an image), in order.
  static func zip(files: [(name: String, bytes: [UInt8])]) -> [UInt8] {
    var out: [UInt8] = []
    for (name, data) in files {
      out += [0x50, 0x4B, 0x03, 0x04, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
      func u32(_ x: Int) {
        out += [UInt8(x & 0xFF), UInt8(x >> 8 & 0xFF), UInt8(x >> 16 & 0xFF), UInt8(x >> 24)]
      }
      u32(data.count)
      u32(data.count)
      out += [UInt8(name.utf8.count), 0, 0, 0]
      out += Array(name.utf8) + data
    }
    return out
  }

  @Test(
    "a referenced layer's material binding moves with its prims: the plate draws teal",
    arguments: ["referenced-parts.usdz", "referenced-parts-binary.usdz"])
  func referencedMaterial(_ file: String) throws {
    let asset = try ModelAsset.load(path: Fixtures.path("usd/" + file))
    let diffuse = asset.mesh.submeshes.map { asset.mesh.materials[$0.material].diffuse }
    #expect(diffuse.contains(SIMD3(0.1, 0.6, 0.6)), "\(diffuse)")
  }

  @Test(
    "a transform op that cannot be applied is an error naming the prim and the op, never skipped",
    arguments: [
      ("float xformOp:shear = 2", "xformOp:shear", "xformOp:shear"),
      ("float3 xformOp:rotateZ = (1, 2, 3)", "xformOp:rotateZ", "the wrong type"),
      ("float3 xformOp:scale = (0, 1, 1)", "!invert!xformOp:scale", "no inverse"),
      ("float xformOp:rotateZ = 90", "xformOp:rotateZ\", \"!resetXformStack!", "not the first entry"),
    ])
  func unreadableTransformOps(_ attribute: String, _ order: String, _ message: String) throws {
    let folder = try TemporaryFolder()
    let path = try folder.write(
      """
      #usda 1.0
      def Xform "Root"
      {
          \(attribute)
          uniform token[] xformOpOrder = ["\(order)"]
          def Mesh "T"
          {
              int[] faceVertexCounts = [3]
              int[] faceVertexIndices = [0, 1, 2]
              point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]
          }
      }
      """, to: "ops.usda")
    #expect(throws: ModelError.self) { _ = try ModelAsset.load(path: path) }
    do { _ = try ModelAsset.load(path: path) } catch {
      #expect("\(error)".contains("/Root") && "\(error)".contains(message), "\(error)")
    }
  }

  @Test("a .usda file on its own is a model, told by its header")
  func textLayerFile() throws {
    let folder = try TemporaryFolder()
    let path = try folder.write(
      """
      #usda 1.0
      (
          metersPerUnit = 0.5
          upAxis = "Z"
      )
      # A comment, then a triangle whose corners are given in time samples only.
      def Mesh "T" (
          doc = \"\"\"a "quoted"
          doc string\"\"\"
      )
      {
          int[] faceVertexCounts = [3]
          int[] faceVertexIndices = [0, 1, 2]
          point3f[] points.timeSamples = {
              1: [(0, 0, 0), (2, 0, 0), (0, 2, 0)],
              0: [(0, 0, 0), (4, 0, 0), (0, 0, 4)],
          }
      }
      """, to: "t.usda")
    // At the default time the points have no value, as USD reads them: nothing drawn, and said.
    let still = try ModelAsset.load(path: path)
    #expect(still.format == .usda && still.mesh.triangleCount == 0)
    #expect(still.warnings.contains { $0.contains("points only in time samples") && $0.hasSuffix("/T") })
    let asset = try ModelAsset.load(path: path, time: 0)
    #expect(asset.format == .usda && asset.mesh.triangleCount == 1)
    // The time-0 sample, half-metre units, Z up turned Y up: (4, 0, 0) → (2, 0, 0), (0, 0, 4) → (0, 2, 0).
    let b = asset.mesh.bounds
    #expect(b.min == SIMD3(0, 0, 0) && b.max == SIMD3(2, 2, 0), "\(b)")
  }
}

extension USDTests {
  /// usd-core's BBoxCache for `file` (Tests/Fixtures/usd/bboxcache.json): the prims it bounds
  /// and their boxes together, metres, +Y up.
  static func bboxCache(_ file: String) throws -> (prims: Set<String>, min: SIMD3<Double>, max: SIMD3<Double>)
  {
    let prims = try usdCoreBoxes("bboxcache.json", file)
    var low = SIMD3<Double>(repeating: .infinity), high = SIMD3<Double>(repeating: -.infinity)
    for box in prims.values {
      let (a, b) = (try #require(box["min"]), try #require(box["max"]))
      low = pointwiseMin(low, SIMD3(a[0], a[1], a[2]))
      high = pointwiseMax(high, SIMD3(b[0], b[1], b[2]))
    }
    return (Set(prims.keys), low, high)
  }

  /// The boxes usd-core wrote under `key` in fixture `json` (Tools/generate-usd-fixtures): each
  /// prim's, or each time's, `min` and `max`.
  static func usdCoreBoxes(_ json: String, _ key: String) throws -> [String: [String: [Double]]] {
    let all = try JSONDecoder().decode(
      [String: [String: [String: [Double]]]].self,
      from: Data(contentsOf: URL(fileURLWithPath: Fixtures.path("usd/" + json))))
    return try #require(all[key])
  }

  struct ExpectedNormals: Decodable {
    /// Each authored point and its normal in metres, +Y up: x, y, z, nx, ny, nz.
    var normals: [[Double]]
  }

  @Test("authored per-point normals, through a rotation and a non-uniform scale, equal usd-core's")
  func smoothNormals() throws {
    let all = try JSONDecoder().decode(
      [String: ExpectedNormals].self,
      from: Data(contentsOf: URL(fileURLWithPath: Fixtures.path("usd/expected.json"))))
    let expected = try #require(all["smooth-normals.usdz"]?.normals)
    #expect(expected.count == 6)
    let mesh = try ModelAsset.load(path: Fixtures.path("usd/smooth-normals.usdz")).mesh
    #expect(mesh.triangleCount == 8 && mesh.normals.count == mesh.vertexCount)
    for v in 0..<mesh.vertexCount {
      let p = mesh.modelPosition(v)
      let row = try #require(
        expected.min { a, b in
          ((SIMD3(a[0], a[1], a[2]) - p) * (SIMD3(a[0], a[1], a[2]) - p)).sum()
            < ((SIMD3(b[0], b[1], b[2]) - p) * (SIMD3(b[0], b[1], b[2]) - p)).sum()
        })
      let n = SIMD3<Double>(mesh.normals[v])
      #expect(
        ((n - SIMD3(row[3], row[4], row[5])) * (n - SIMD3(row[3], row[4], row[5]))).sum() < 1e-10, "\(v)")
    }
  }
}

/// Per-face materials through GeomSubsets, as usd-core's `CreateMaterialBindSubset` writes them.
@Suite("USD GeomSubset materials")
struct USDSubsetMaterialTests {
  @Test(
    "faces 0 and 1 red, face 2 blue, face 3 the mesh's own green; every point where usd-core puts it",
    arguments: ["subset-materials.usdz", "subset-materials-text.usdz"])
  func perFaceMaterials(_ name: String) throws {
    let asset = try ModelAsset.load(path: Fixtures.path("usd/" + name))
    var triangles: [String: Int] = [:]
    for submesh in asset.mesh.submeshes {
      let material = try #require(asset.mesh.materials[safe: submesh.material])
      triangles[material.name, default: 0] += submesh.triangles.count
      let expected: SIMD3<Float>? = ["Red": [1, 0, 0], "Blue": [0, 0, 1], "Green": [0, 1, 0]][material.name]
      #expect(material.diffuse == expected, "\(material.name): \(material.diffuse)")
    }
    #expect(triangles == ["Red": 4, "Blue": 2, "Green": 2], "\(triangles)")
  }
}

/// USD's implicit surfaces (Cube, Sphere, Cylinder, Cone, Capsule, Plane, Cylinder_1, Capsule_1) made meshes.
@Suite("USD implicit shapes")
struct USDImplicitShapeTests {
  @Test("a stage of every implicit shape: its bounds are usd-core's BBoxCache's, to 1e-9 m")
  func stageBounds() throws {
    let (prims, low, high) = try USDTests.bboxCache("implicit-shapes.usdz")
    #expect(prims.count == 12)
    let asset = try ModelAsset.load(path: Fixtures.path("usd/implicit-shapes.usdz"))
    let stats = ModelStatistics(asset)
    #expect(stats.meshes == 12 && stats.triangles > 12 * 2)
    let bounds = try #require(stats.bounds)
    for k in 0..<3 {
      #expect(
        abs(bounds.min[k] - low[k]) < 1e-9 && abs(bounds.max[k] - high[k]) < 1e-9,
        "\(bounds) vs \(low) \(high)")
    }
  }

  @Test(
    "Cylinder_1 and Capsule_1 (ends of two radii, a capsule's caps tangent to its leaning side, one of no height): each one's bounds are usd-core's BBoxCache's, to 1e-9 m"
  )
  func twoRadii() throws {
    let boxes = try USDTests.usdCoreBoxes("bboxcache.json", "implicit-two-radii.usdz")
    // Tools/generate-usd-fixtures's shapes, each translated to (4 (k mod 4), 4 (k div 4), 0).
    let shapes: [(String, [String: Double], String)] = [
      ("Cylinder_1", [:], "Z"), ("Cylinder_1", ["radiusBottom": 1, "radiusTop": 0.25, "height": 1.5], "Z"),
      ("Cylinder_1", ["radiusBottom": 0, "radiusTop": 0.5, "height": 0.5], "X"),
      ("Capsule_1", [:], "Z"), ("Capsule_1", ["radiusBottom": 1, "radiusTop": 0.25, "height": 1], "Z"),
      ("Capsule_1", ["radiusBottom": 0.25, "radiusTop": 1, "height": 1], "Y"),
      ("Capsule_1", ["radiusBottom": 0.5, "radiusTop": 0.25, "height": 0], "X"),
    ]
    #expect(boxes.count == shapes.count)
    for (k, (type, numbers, axis)) in shapes.enumerated() {
      let box = try #require(boxes["/Shapes/\(type)_\(k)"])
      let mesh = try USDImplicitShapes.mesh(
        type, number: { numbers[$0] }, token: { $0 == "axis" ? axis : nil }, place: "/S", path: "test")
      let shift = SIMD3<Double>(Double(4 * (k % 4)), Double(4 * (k / 4)), 0)
      let (low, high) = mesh.positionBounds
      let (a, b) = (try #require(box["min"]), try #require(box["max"]))
      for i in 0..<3 {
        #expect(
          abs(low[i] + shift[i] - a[i]) < 1e-9 && abs(high[i] + shift[i] - b[i]) < 1e-9,
          "\(type) \(numbers) \(axis): \(low) \(high) vs \(a) \(b)")
      }
    }
    let asset = try ModelAsset.load(path: Fixtures.path("usd/implicit-two-radii.usdz"))
    #expect(ModelStatistics(asset).meshes == shapes.count && asset.warnings.isEmpty, "\(asset.warnings)")
  }

  @Test(
    "a size declared float where the schema says double: the fallback, as usd-core's BBoxCache, with a warning",
    arguments: ["float-sizes.usdz", "float-sizes-text.usdz"])
  func floatSizes(_ file: String) throws {
    let (prims, low, high) = try USDTests.bboxCache(file)
    #expect(prims.count == 3)
    let asset = try ModelAsset.load(path: Fixtures.path("usd/" + file))
    let bounds = try #require(ModelStatistics(asset).bounds)
    for k in 0..<3 {
      #expect(
        abs(bounds.min[k] - low[k]) < 1e-9 && abs(bounds.max[k] - high[k]) < 1e-9,
        "\(bounds) vs \(low) \(high)")
    }
    for attribute in ["/Shapes/FloatRadius.radius", "/Shapes/FloatHeight.height"] {
      #expect(
        asset.warnings.contains { $0.contains("\(attribute) is declared float where") }, "\(asset.warnings)")
    }
    #expect(asset.warnings.count == 2, "\(asset.warnings)")
  }

  @Test(
    "each shape's mesh reaches the schema's extent exactly, faces outward, and has no degenerate triangle",
    arguments: [
      ("Cube", [String: Double](), "Z", SIMD3<Double>(1, 1, 1)),
      ("Cube", ["size": 0.5], "Z", SIMD3(0.25, 0.25, 0.25)),
      ("Sphere", [:], "Z", SIMD3(1, 1, 1)),
      ("Cylinder", ["radius": 0.2, "height": 1.5], "X", SIMD3(0.75, 0.2, 0.2)),
      ("Cone", [:], "Z", SIMD3(1, 1, 1)),
      ("Cone", ["radius": 0.4, "height": 0.8], "Y", SIMD3(0.4, 0.4, 0.4)),
      ("Capsule", [:], "Z", SIMD3(0.5, 0.5, 1)),
      ("Capsule", ["radius": 0.25, "height": 2], "Y", SIMD3(0.25, 1.25, 0.25)),
      ("Cylinder_1", ["radiusBottom": 1, "radiusTop": 0.25], "Z", SIMD3(1, 1, 1)),
      ("Cylinder_1", ["radiusBottom": 0.5, "radiusTop": 0.5, "height": 3], "X", SIMD3(1.5, 0.5, 0.5)),
      ("Capsule_1", ["radiusBottom": 0.3, "radiusTop": 0.3], "Z", SIMD3(0.3, 0.3, 0.8)),
      ("Plane", ["width": 3, "length": 0.5], "Z", SIMD3(1.5, 0.25, 0)),
    ])
  func shape(_ type: String, _ numbers: [String: Double], _ axis: String, _ half: SIMD3<Double>) throws {
    let mesh = try USDImplicitShapes.mesh(
      type, number: { numbers[$0] }, token: { $0 == "axis" ? axis : nil }, place: "/S", path: "test")
    let (low, high) = mesh.positionBounds
    #expect(
      ((low + half) * (low + half)).sum() < 1e-24 && ((high - half) * (high - half)).sum() < 1e-24,
      "\(low) \(high)")
    for t in stride(from: 0, to: mesh.triangles.count, by: 3) {
      let (a, b, c) = (
        mesh.positions[Int(mesh.triangles[t])], mesh.positions[Int(mesh.triangles[t + 1])],
        mesh.positions[Int(mesh.triangles[t + 2])]
      )
      let n = (b - a).cross(c - a), centroid = (a + b + c) / 3
      #expect((n * n).sum() > 0, "\(type): a degenerate triangle")
      // Convex shapes about the origin: each front face looks away from it (a plane: along +axis).
      if type != "Plane" { #expect((n * centroid).sum() > 0, "\(type): an inward triangle at \(centroid)") }
    }
  }

  @Test(
    "round shapes are cut finely enough that no chord strays past the tolerance, and no finer than twice that needs",
    arguments: [(1.0, 0.001), (0.05, 0.001), (2.5, 0.0001), (0.3, 0.01)])
  func tolerance(radius: Double, tolerance: Double) throws {
    let n = USDImplicitShapes.segments(radius: radius, tolerance: tolerance)
    let sagitta = { (k: Int) in radius * (1 - cos(Double.pi / Double(k))) }
    #expect(n % 4 == 0 && sagitta(n) <= tolerance, "\(n) segments")
    #expect(n == 8 || sagitta(n - 4) > tolerance, "\(n) segments where \(n - 4) would do")
    let sphere = try USDImplicitShapes.mesh(
      "Sphere", number: { $0 == "radius" ? radius : nil }, token: { _ in nil }, place: "/S", path: "t",
      tolerance: tolerance)
    // Every triangle's centroid lies within the tolerance (and a little, for the rings) of the sphere.
    for t in stride(from: 0, to: sphere.triangles.count, by: 3) {
      let c = (0..<3).map { sphere.positions[Int(sphere.triangles[t + $0])] }.reduce(.zero, +) / 3
      #expect(radius - (c * c).sum().squareRoot() <= 2 * tolerance)
    }
  }

  @Test("a negative size or an unknown axis is an error naming the attribute")
  func badAttributes() throws {
    #expect(throws: USDError.self) {
      _ = try USDImplicitShapes.mesh(
        "Sphere", number: { _ in -1 }, token: { _ in nil }, place: "/S", path: "t")
    }
    #expect(throws: USDError.self) {
      _ = try USDImplicitShapes.mesh(
        "Cone", number: { _ in nil }, token: { _ in "W" }, place: "/S", path: "t")
    }
  }
}

/// What is on a USD stage: variant sets at their selections, classes, inactive, invisible and
/// guide prims, against usd-core (Tests/Fixtures/usd/bboxcache.json, Tools/generate-usd-fixtures).
@Suite("USD stage composition")
struct USDCompositionTests {
  @Test(
    "variant sets at their selections (nested, beside local opinions, referencing a class): bounds equal usd-core's BBoxCache, binary and text",
    arguments: ["variants.usdz", "variants-text.usdz"])
  func variants(file: String) throws {
    let (prims, low, high) = try USDTests.bboxCache(file)
    #expect(prims == ["/Root/Shape", "/Other/Box", "/Other/Plate"])
    let asset = try ModelAsset.load(path: Fixtures.path("usd/" + file))
    let stats = ModelStatistics(asset)
    #expect(stats.meshes == 3)
    let bounds = try #require(stats.bounds)
    for k in 0..<3 {
      #expect(
        abs(bounds.min[k] - low[k]) < 1e-9 && abs(bounds.max[k] - high[k]) < 1e-9,
        "\(bounds) vs \(low) \(high)")
    }
    // The class and the inactive prim are not on the stage; the hidden ones are, undrawn.
    let names = Set(asset.namedNodes.map(\.name))
    #expect(!names.contains("Proto") && !names.contains("Off") && names.contains("Hidden"))
    for (prim, why) in [("/Hidden", "invisible"), ("/Guide", "purpose guide"), ("/Proxy", "purpose proxy")] {
      #expect(asset.warnings.contains { $0.contains(why) && $0.hasSuffix(prim) }, "\(asset.warnings)")
    }
  }

  @Test(
    "a stage's fallbackPrimTypes: prims of types it defines drawn as their first known fallback (a mesh, a sphere), a Mesh kept; bounds equal usd-core's, text and binary",
    arguments: ["fallback-prim-types.usda", "fallback-prim-types.usdc"])
  func fallbackPrimTypes(file: String) throws {
    let (_, low, high) = try USDTests.bboxCache(file)
    let asset = try ModelAsset.load(path: Fixtures.path("usd/" + file))
    let stats = ModelStatistics(asset)
    let bounds = try #require(stats.bounds)
    for k in 0..<3 {
      #expect(
        abs(bounds.min[k] - low[k]) < 1e-9 && abs(bounds.max[k] - high[k]) < 1e-9,
        "\(bounds) vs \(low) \(high)")
    }
    // The quad (2 triangles) and the triangle are meshes still; the ball is a tessellated sphere.
    #expect(stats.meshes == 3 && stats.triangles > 3 + 100, "\(stats.meshes) \(stats.triangles)")
    #expect(asset.warnings.isEmpty, "\(asset.warnings)")
  }

  @Test("a referencing prim's variant selection is stronger than the referenced layer's own, text and binary")
  func selectionsWhereReferenced() throws {
    let (prims, low, high) = try USDTests.bboxCache("variant-selections.usdz")
    #expect(prims == ["/Room/A/Seat", "/Room/B/Seat", "/Room/C/Seat"])
    let bounds = try #require(
      ModelStatistics(try ModelAsset.load(path: Fixtures.path("usd/variant-selections.usdz"))).bounds)
    for k in 0..<3 {
      #expect(
        abs(bounds.min[k] - low[k]) < 1e-9 && abs(bounds.max[k] - high[k]) < 1e-9,
        "\(bounds) vs \(low) \(high)")
    }
  }

  @Test(
    "a PointInstancer draws its prototypes once an instance (half-precision orientations, scales, a hidden id), not in place: bounds equal usd-core's BBoxCache",
    arguments: ["point-instancer.usdz", "point-instancer-text.usdz"])
  func pointInstancer(file: String) throws {
    let box = try #require(try USDTests.usdCoreBoxes("bboxcache.json", file)["/"])
    let (a, b) = (try #require(box["min"]), try #require(box["max"]))
    let stats = ModelStatistics(try ModelAsset.load(path: Fixtures.path("usd/" + file)))
    // Five instances drawn (the sixth hidden), each of a prototype of one surface.
    #expect(stats.meshes == 5)
    let bounds = try #require(stats.bounds)
    for k in 0..<3 {
      // usd-core composes the half-precision orientations in single precision.
      #expect(
        abs(bounds.min[k] - a[k]) < 1e-4 && abs(bounds.max[k] - b[k]) < 1e-4, "\(bounds) vs \(a) \(b)")
    }
  }

  @Test(
    "a MaterialX material ARScene does not read (a Disney principled surface) draws grey with a warning naming it"
  )
  func materialXOnly() throws {
    let folder = try TemporaryFolder()
    let path = try folder.write(
      """
      #usda 1.0
      def Xform "Root" {
          def Cube "Box" (prepend apiSchemas = ["MaterialBindingAPI"]) {
              rel material:binding = </Root/Looks/Glow>
          }
          def Scope "Looks" {
              def Material "Glow" {
                  token outputs:mtlx:surface.connect = </Root/Looks/Glow/PBR.outputs:out>
                  def Shader "PBR" {
                      uniform token info:id = "ND_disney_principled"
                      token outputs:out
                  }
              }
          }
      }
      """, to: "glow.usda")
    let asset = try ModelAsset.load(path: path)
    #expect(asset.mesh.triangleCount == 12)
    #expect(
      asset.warnings.contains {
        $0.contains("material /Root/Looks/Glow, bound to /Root/Box")
          && $0.contains("ND_disney_principled")
      }, "\(asset.warnings)")
  }

  @Test(
    "without authored normals a subdividing mesh (USD's fallback catmullClark) is shaded smooth, a none or bilinear one faceted, as Hydra shades them",
    arguments: [
      (nil as String?, true), ("catmullClark", true), ("loop", true), ("none", false), ("bilinear", false),
    ])
  func normalsByScheme(scheme: String?, smooth: Bool) throws {
    let folder = try TemporaryFolder()
    let authored = scheme.map { "uniform token subdivisionScheme = \"\($0)\"" } ?? ""
    // A square pyramid without its base: four triangles meeting at the apex.
    let path = try folder.write(
      """
      #usda 1.0
      (
          metersPerUnit = 1
      )
      def Mesh "Pyramid" {
          \(authored)
          int[] faceVertexCounts = [3, 3, 3, 3]
          int[] faceVertexIndices = [0, 4, 1, 1, 4, 2, 2, 4, 3, 3, 4, 0]
          point3f[] points = [(-1, 0, -1), (1, 0, -1), (1, 0, 1), (-1, 0, 1), (0, 1, 0)]
      }
      """, to: "pyramid.usda")
    let mesh = try ModelAsset.load(path: path).mesh
    #expect(mesh.vertexCount == (smooth ? 5 : 12))
    if smooth {
      // The apex's normal is the four faces' sum: straight up.
      let apex = try #require(mesh.positions.firstIndex { $0.y > 0.5 })
      let n = mesh.normals[apex]
      #expect(abs(n.x) < 1e-6 && abs(n.y - 1) < 1e-6 && abs(n.z) < 1e-6, "\(n)")
    }
  }

  @Test("a smooth mesh whose faces GeomSubsets bind to two materials: its normals the whole mesh's")
  func smoothNormalsAcrossSubsets() throws {
    let folder = try TemporaryFolder()
    // The pyramid again, its two front faces red and its two back faces blue.
    let path = try folder.write(
      """
      #usda 1.0
      (
          metersPerUnit = 1
      )
      def Mesh "Pyramid" (prepend apiSchemas = ["MaterialBindingAPI"]) {
          int[] faceVertexCounts = [3, 3, 3, 3]
          int[] faceVertexIndices = [0, 4, 1, 1, 4, 2, 2, 4, 3, 3, 4, 0]
          point3f[] points = [(-1, 0, -1), (1, 0, -1), (1, 0, 1), (-1, 0, 1), (0, 1, 0)]
          uniform token subsetFamily:materialBind:familyType = "partition"
          def GeomSubset "Front" (prepend apiSchemas = ["MaterialBindingAPI"]) {
              uniform token elementType = "face"
              uniform token familyName = "materialBind"
              int[] indices = [0, 1]
              rel material:binding = </Looks/Red>
          }
          def GeomSubset "Back" (prepend apiSchemas = ["MaterialBindingAPI"]) {
              uniform token elementType = "face"
              uniform token familyName = "materialBind"
              int[] indices = [2, 3]
              rel material:binding = </Looks/Blue>
          }
      }
      def Scope "Looks" {
          def Material "Red" {
              token outputs:surface.connect = </Looks/Red/Surface.outputs:surface>
              def Shader "Surface" {
                  uniform token info:id = "UsdPreviewSurface"
                  color3f inputs:diffuseColor = (1, 0, 0)
                  token outputs:surface
              }
          }
          def Material "Blue" {
              token outputs:surface.connect = </Looks/Blue/Surface.outputs:surface>
              def Shader "Surface" {
                  uniform token info:id = "UsdPreviewSurface"
                  color3f inputs:diffuseColor = (0, 0, 1)
                  token outputs:surface
              }
          }
      }
      """, to: "subsets.usda")
    let mesh = try ModelAsset.load(path: path).mesh
    #expect(mesh.submeshes.count == 2)
    // Every copy of the apex has the four faces' sum: straight up (a part's own two faces
    // would lean it to their side).
    let apexes = mesh.positions.indices.filter { mesh.positions[$0].y > 0.5 }
    #expect(!apexes.isEmpty)
    for apex in apexes {
      let n = mesh.normals[apex]
      #expect(abs(n.x) < 1e-6 && abs(n.y - 1) < 1e-6 && abs(n.z) < 1e-6, "\(n)")
    }
  }

  @Test("a stage that draws nothing says which prims it has; drawing or converting it is refused")
  func nothingDrawn() throws {
    let folder = try TemporaryFolder()
    let path = try folder.write(
      """
      #usda 1.0
      def Xform "Root" {
          def Mesh "Hidden" {
              token visibility = "invisible"
              int[] faceVertexCounts = [3]
              int[] faceVertexIndices = [0, 1, 2]
              point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]
          }
          def Scope "Looks" {}
      }
      """, to: "empty.usda")
    let asset = try ModelAsset.load(path: path)
    #expect(asset.mesh.triangleCount == 0)
    let said = "its 3 prims (/Root (Xform), /Root/Hidden (Mesh), /Root/Looks (Scope)) include no mesh"
    #expect(asset.warnings.contains { $0.contains(said) }, "\(asset.warnings)")
    #expect(throws: ModelError.self) { _ = try asset.requiringGeometry() }
  }
}

/// USD's time samples: transforms and points read at `--time`, against usd-core's BBoxCache at that time
/// code (Tests/Fixtures/usd/animated.json, Tools/generate-usd-fixtures).
@Suite("USD time samples")
struct USDTimeSampleTests {
  /// Expects the stage bounds of fixture `file` at each time usd-core's entry for it has (the
  /// default time and `t=<seconds>`; `count` of them) to equal usd-core's within `tolerance`.
  private func expectUSDCoreBoundsInTime(_ file: String, count: Int, tolerance: Double) throws {
    let times = try USDTests.usdCoreBoxes("animated.json", file + "#stage")
    #expect(times.count == count)
    for (key, box) in times {
      let time = key == "default" ? nil : Double(key.dropFirst(2))
      let asset = try ModelAsset.load(path: Fixtures.path("usd/" + file), time: time)
      let bounds = try #require(ModelStatistics(asset).bounds)
      let (a, b) = (try #require(box["min"]), try #require(box["max"]))
      for k in 0..<3 {
        #expect(
          abs(bounds.min[k] - a[k]) < tolerance && abs(bounds.max[k] - b[k]) < tolerance,
          "\(file) at \(key): \(bounds) vs \(a) \(b)")
      }
    }
  }

  @Test(
    "a translate, rotateZ, orient and scale, and a mesh's points, in time samples, binary (24 a second) and text (30): bounds equal usd-core's at every time",
    arguments: ["animated.usdz", "animated-text.usdz"])
  func boundsInTime(file: String) throws {
    // usd-core slerps a quatf orient in single precision (GfQuatf): 2e-6 from the double slerp
    // here between samples; everything else agrees to 1e-9.
    try expectUSDCoreBoundsInTime(file, count: 8, tolerance: 1e-5)
  }

  @Test(
    "a stage at 48 time codes a second bringing animations at 24 and 30 (framesPerSecond only) through a sublayer, a reference, a payload and an internal reference, each with a layer offset, binary and text: times mapped by offset and scale and the ratio of the rates, bounds equal usd-core's at every time",
    arguments: ["layer-rates.usdz", "layer-rates-text.usdz"])
  func layerRates(file: String) throws {
    try expectUSDCoreBoundsInTime(file, count: 9, tolerance: 1e-9)
    let asset = try ModelAsset.load(path: Fixtures.path("usd/" + file), time: 0.5)
    #expect(!asset.warnings.contains { $0.contains("layer offset") }, "\(asset.warnings)")
  }

  @Test(
    "quaternions off unit in time samples (a point instancer's half-precision orientations, a skeleton's rotations, orient ops from a zero quaternion): bounds equal usd-core's at every time, blended as GfSlerp blends them and turned without being made unit"
  )
  func offUnitQuaternions() throws {
    // usd-core blends half and float quaternions in their own precision: 2·10⁻⁷ here.
    try expectUSDCoreBoundsInTime("off-unit-quaternions.usdz", count: 7, tolerance: 1e-6)
  }
}

/// UsdSkel blend shapes at `--time`, against usd-core's `UsdSkel.BakeSkinning`
/// (Tests/Fixtures/usd/blend-shapes.json, Tools/generate-usd-fixtures).
@Suite("USD blend shapes")
struct USDBlendShapeTests {
  @Test(
    "a skinned face's sparse shape (with in-betweens) and dense one and a badge moved by shapes alone, binary and text: every point equals usd-core's baked one at each time and at the default time",
    arguments: ["blend-shapes.usdz", "blend-shapes-text.usdz"])
  func bakedInTime(file: String) throws {
    let all = try JSONDecoder().decode(
      [String: [String: [String: [String: [[Double]]]]]].self,
      from: Data(contentsOf: URL(fileURLWithPath: Fixtures.path("usd/blend-shapes.json"))))
    let times = try #require(all[file])
    #expect(times.count == 4)
    for (key, expected) in times {
      let time = key == "default" ? nil : Double(key.dropFirst(2))
      let asset = try ModelAsset.load(path: Fixtures.path("usd/" + file), time: time)
      #expect(!asset.warnings.contains { $0.contains("blend shape") }, "\(asset.warnings)")
      let drawn = (0..<asset.mesh.vertexCount).map { asset.mesh.modelPosition($0) }
      for (prim, points) in try #require(expected["points"]) {
        for p in points.map({ SIMD3($0[0], $0[1], $0[2]) }) {
          let nearest = drawn.map { (($0 - p) * ($0 - p)).sum() }.min() ?? .infinity
          // usd-core deforms in single precision.
          #expect(
            nearest.squareRoot() < 2e-6,
            "\(file) \(key) \(prim): \(p) is \(nearest.squareRoot()) m from a vertex")
        }
      }
    }
  }

  /// A quad under a `SkelRoot` whose one blend shape `Up` (of text `shape`) is weighted 1, with
  /// `extra` lines on the mesh.
  static func load(_ shape: String, mesh extra: String = "", weight: Double = 1) throws -> ModelAsset {
    try load(
      animated: #"["Up"]"#, weights: "[\(weight)]", named: #"["Up"]"#, targets: "</Rig/Quad/Up>",
      shapes: "def BlendShape \"Up\" {\n\(shape)\n}", mesh: extra)
  }

  /// A quad under a `SkelRoot`: its skeleton's animation weighs shapes `animated` by `weights`,
  /// the mesh names shapes `named` that target `targets`, its `BlendShape` prims `shapes`, with
  /// `extra` lines on the mesh (USD text each).
  static func load(
    animated: String, weights: String, named: String, targets: String, shapes: String, mesh extra: String = ""
  ) throws -> ModelAsset {
    let folder = try TemporaryFolder()
    let path = try USDTestText.write(
      """
      def SkelRoot "Rig" {
          def Skeleton "Skel" (prepend apiSchemas = ["SkelBindingAPI"]) {
              uniform token[] joints = ["A"]
              uniform matrix4d[] bindTransforms = [((1,0,0,0),(0,1,0,0),(0,0,1,0),(0,0,0,1))]
              uniform matrix4d[] restTransforms = [((1,0,0,0),(0,1,0,0),(0,0,1,0),(0,0,0,1))]
              rel skel:animationSource = </Rig/Skel/Anim>
              def SkelAnimation "Anim" {
                  uniform token[] blendShapes = \(animated)
                  float[] blendShapeWeights = \(weights)
              }
          }
          def Mesh "Quad" (prepend apiSchemas = ["SkelBindingAPI"]) {
              point3f[] points = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)]
              int[] faceVertexCounts = [4]
              int[] faceVertexIndices = [0, 1, 2, 3]
              rel skel:skeleton = </Rig/Skel>
              uniform token[] skel:blendShapes = \(named)
              rel skel:blendShapeTargets = [\(targets)]
              \(extra)
              \(shapes)
          }
      }
      """, as: "shapes.usda", in: folder)
    return try ModelAsset.load(path: path)
  }

  @Test(
    "a shape named twice (Blender's usd_blendshapes_duplicate.usda) takes the weight usd-core's UsdSkelAnimMapper hands it",
    arguments: [
      // The animation's names, its weights, the mesh's targets in order; usd-core's BakeSkinning
      // moved every point by 0.5 along x (Right) or z (Up).
      (
        #"["Right", "Right", "Right"]"#, "[0.25, 0.125, 0.5]", "</Rig/Quad/Right>, </Rig/Quad/Up>",
        SIMD3<Float>(0, 0, 0.5)
      ),
      (
        #"["Right", "Right", "Right"]"#, "[0.25, 0.125, 0.5]", "</Rig/Quad/Up>, </Rig/Quad/Right>",
        SIMD3(0.5, 0, 0)
      ),
      (#"["Right"]"#, "[0.5]", "</Rig/Quad/Right>, </Rig/Quad/Up>", SIMD3(0.5, 0, 0)),
    ])
  func namedTwice(animated: String, weights: String, targets: String, moved: SIMD3<Float>) throws {
    let mesh = try Self.load(
      animated: animated, weights: weights, named: #"["Right", "Right"]"#, targets: targets,
      shapes: """
        def BlendShape "Right" {
            uniform vector3f[] offsets = [(1, 0, 0), (1, 0, 0), (1, 0, 0), (1, 0, 0)]
        }
        def BlendShape "Up" {
            uniform vector3f[] offsets = [(0, 0, 1), (0, 0, 1), (0, 0, 1), (0, 0, 1)]
        }
        """
    ).mesh
    let rest: [SIMD3<Float>] = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]]
    for v in 0..<mesh.vertexCount {
      let p = SIMD3<Float>(mesh.modelPosition(v))
      #expect(rest.contains { ((p - $0 - moved) * (p - $0 - moved)).sum() < 1e-12 }, "\(p)")
    }
  }

  @Test(
    "UsdSkelAnimMapper's rule: names in order inside the target's from its first, else each to its last place"
  )
  func animMapper() {
    // In order, at an offset: the values land in place.
    #expect(
      USDAnimMapper.remap([1, 2], from: ["b", "c"], to: ["a", "b", "c", "d"], fallback: 0) == [0, 1, 2, 0])
    // Out of order: each name to its place; a name the target lists twice to its last place, a
    // name the source lists twice its last value.
    #expect(USDAnimMapper.remap([1, 2], from: ["c", "a"], to: ["a", "b", "c"], fallback: 0) == [2, 0, 1])
    #expect(USDAnimMapper.remap([1, 2, 3], from: ["a", "a", "a"], to: ["a", "a"], fallback: 0) == [0, 3])
    #expect(USDAnimMapper.remap([5], from: ["a"], to: ["a", "a"], fallback: 0) == [5, 0])
    // Names the target does not hold, and values that do not match their names, give nothing.
    #expect(USDAnimMapper.remap([1], from: ["z"], to: ["a"], fallback: 0) == [0])
    #expect(USDAnimMapper.remap([1, 2], from: ["a"], to: ["a"], fallback: 0) == [0])
  }

  @Test(
    "shapes ARScene cannot apply (an in-between without its weight, offsets that do not fit) are drawn without, named in a warning"
  )
  func refusedShapes() throws {
    let applied = try Self.load("uniform vector3f[] offsets = [(0, 0, 1), (0, 0, 1), (0, 0, 1), (0, 0, 1)]")
    #expect(!applied.warnings.contains { $0.contains("blend shape") }, "\(applied.warnings)")
    #expect((0..<applied.mesh.vertexCount).allSatisfy { applied.mesh.modelPosition($0).z == 1 })
    for (shape, reason) in [
      (
        "uniform vector3f[] offsets = [(0, 0, 1), (0, 0, 1), (0, 0, 1), (0, 0, 1)]\n"
          + "uniform vector3f[] inbetweens:half = [(0, 0, 2), (0, 0, 2), (0, 0, 2), (0, 0, 2)]",
        "without a weight of its own"
      ),
      ("uniform vector3f[] offsets = [(0, 0, 1)]", "1 offsets for 4 point indices"),
      (
        "uniform vector3f[] offsets = [(0, 0, 1)]\nuniform int[] pointIndices = [7]",
        "1 offsets for 1 point indices"
      ),
    ] {
      let asset = try Self.load(shape)
      #expect(
        asset.warnings.contains { $0.contains(reason) && $0.contains("drawn without its blend shapes") },
        "\(asset.warnings)")
      #expect((0..<asset.mesh.vertexCount).allSatisfy { asset.mesh.modelPosition($0).z == 0 })
    }
  }

  @Test(
    "a shape's normal offsets move a mesh's authored normals one a point, made unit, as usd-core's UsdSkelBakeSkinning moves them; face-varying ones are named"
  )
  func normalOffsets() throws {
    let offsets =
      "uniform vector3f[] offsets = [(0, 0, 0.5), (0, 0, 0.25)]\nuniform int[] pointIndices = [0, 2]"
    let normalOffsets = "uniform vector3f[] normalOffsets = [(1, 0, 0), (0, 2, 0)]"
    let normals =
      "normal3f[] normals = [(0, 0, 2), (0, 0, 3), (0, 0, 1), (0, 0, 1)] (interpolation = \"vertex\")"
    let moved = try Self.load(offsets + "\n" + normalOffsets, mesh: normals)
    #expect(!moved.warnings.contains { $0.contains("normalOffsets") }, "\(moved.warnings)")
    // usd-core 26.11's UsdSkel.BakeSkinning of the same stage: each normal plus its weighted
    // offset, then made unit (the authored (0, 0, 2) is not made unit first).
    let baked: [SIMD2<Float>: SIMD3<Float>] = [
      [0, 0]: [0.4472136, 0, 0.8944272], [1, 0]: [0, 0, 1], [1, 1]: [0, 0.8944272, 0.4472136],
      [0, 1]: [0, 0, 1],
    ]
    for v in 0..<moved.mesh.vertexCount {
      let p = moved.mesh.modelPosition(v)
      let expected = try #require(baked[SIMD2(Float(p.x), Float(p.y))])
      let d = moved.mesh.normals[v] - expected
      #expect((d * d).sum() < 1e-12, "vertex at \(p): \(moved.mesh.normals[v])")
    }
    let faceVarying = normals.replacingOccurrences(of: "\"vertex\"", with: "\"faceVarying\"")
    let named = try Self.load(offsets + "\n" + normalOffsets, mesh: faceVarying)
    #expect(
      named.warnings.contains { $0.contains("/Rig/Quad/Up") && $0.contains("one normal a point") },
      "\(named.warnings)")
    #expect((0..<named.mesh.vertexCount).allSatisfy { named.mesh.normals[$0] == [0, 0, 1] })
    // An in-between's own normal offsets, the shape's none: at 0.75, halfway from the
    // in-between's to none (usd-core's baked normals of the same stage).
    let inbetween = """
      uniform vector3f[] offsets = [(0, 0, 0.5), (0, 0, 0.25)]
      uniform int[] pointIndices = [0, 2]
      uniform vector3f[] inbetweens:half = [(0, 0, 1), (0, 0, 1)] (weight = 0.5)
      uniform vector3f[] inbetweens:half:normalOffsets = [(1, 0, 0), (0, 2, 0)]
      """
    let unitNormals =
      "normal3f[] normals = [(0, 0, 1), (0, 0, 1), (0, 0, 1), (0, 0, 1)] (interpolation = \"vertex\")"
    let between = try Self.load(inbetween, mesh: unitNormals, weight: 0.75)
    let bakedBetween: [SIMD2<Float>: SIMD3<Float>] = [
      [0, 0]: [0.4472136, 0, 0.8944272], [1, 0]: [0, 0, 1], [1, 1]: [0, 0.7071068, 0.7071068],
      [0, 1]: [0, 0, 1],
    ]
    for v in 0..<between.mesh.vertexCount {
      let p = between.mesh.modelPosition(v)
      let d = between.mesh.normals[v] - (try #require(bakedBetween[SIMD2(Float(p.x), Float(p.y))]))
      #expect((d * d).sum() < 1e-12, "vertex at \(p): \(between.mesh.normals[v])")
    }
    // Without authored normals, the normals are made from the moved points: nothing to say.
    let made = try Self.load(offsets + "\n" + normalOffsets)
    #expect(!made.warnings.contains { $0.contains("normalOffsets") }, "\(made.warnings)")
  }
}

/// UsdSkel: skinned meshes at `--time`, against usd-core's own skinning and BBoxCache
/// (Tests/Fixtures/usd/skinned.json, Tools/generate-usd-fixtures).
@Suite("USD skinning")
struct USDSkinningTests {
  struct Expected: Decodable {
    var points: [String: [[Double]]]
    var min: [Double], max: [Double]
  }

  @Test(
    "a leg skinned per point and a hat skinned rigidly, binary and text: every skinned point and the stage's bounds equal usd-core's at every time and at the default time",
    arguments: ["skinned.usdz", "skinned-text.usdz"])
  func skinnedInTime(file: String) throws {
    let all = try JSONDecoder().decode(
      [String: [String: Expected]].self,
      from: Data(contentsOf: URL(fileURLWithPath: Fixtures.path("usd/skinned.json"))))
    let times = try #require(all[file])
    #expect(times.count == 7)
    for (key, expected) in times {
      // At the default time the animation has no value and UsdSkel poses the skeleton at rest.
      let time = key == "default" ? nil : Double(key.dropFirst(2))
      let asset = try ModelAsset.load(path: Fixtures.path("usd/" + file), time: time)
      #expect(!asset.warnings.contains { $0.contains("unskinned") }, "\(asset.warnings)")
      let drawn = (0..<asset.mesh.vertexCount).map { asset.mesh.modelPosition($0) }
      for (prim, points) in expected.points {
        for p in points.map({ SIMD3($0[0], $0[1], $0[2]) }) {
          let nearest = drawn.map { (($0 - p) * ($0 - p)).sum() }.min() ?? .infinity
          // usd-core skins in single precision.
          #expect(
            nearest.squareRoot() < 2e-6,
            "\(file) \(key) \(prim): \(p) is \(nearest.squareRoot()) m from a vertex")
        }
      }
      // The leg's 10 points and the hat's 4, and the plate beside the rig: nothing else.
      #expect(asset.mesh.triangleCount == 8 + 2 + 8)
      let bounds = try #require(ModelStatistics(asset).bounds)
      for k in 0..<3 {
        #expect(
          abs(bounds.min[k] - expected.min[k]) < 1e-6 && abs(bounds.max[k] - expected.max[k]) < 1e-6,
          "\(file) at \(key): \(bounds) vs \(expected.min) \(expected.max)")
      }
    }
  }

  @Test(
    "an op listed with no value is the identity and one only in time samples is at the default time, as usd-core takes them, each named in a warning; Sdf's legacy type names are read"
  )
  func identityOpsAndLegacyTypes() throws {
    // Pixar's own test scenes (usdImagingGL's testenv) list ops they never author and write
    // `Vec3f xformOp:translate` and `custom Matrix4d xformOp:transform`: ARScene refused them.
    let folder = try TemporaryFolder()
    let path = try folder.write(
      """
      #usda 1.0
      (
          metersPerUnit = 1
          upAxis = "Y"
      )
      def Cube "Missing" {
          double size = 1
          double3 xformOp:translate = (10, 0, 0)
          uniform token[] xformOpOrder = ["xformOp:rotateX", "xformOp:translate"]
      }
      def Cube "Declared" {
          double size = 1
          float xformOp:rotateZ
          double3 xformOp:translate = (0, 10, 0)
          uniform token[] xformOpOrder = ["xformOp:rotateZ", "xformOp:translate"]
      }
      def Cube "Sampled" {
          double size = 1
          double3 xformOp:translate.timeSamples = {
              1: (0, 0, 10),
              2: (0, 0, 20),
          }
          uniform token[] xformOpOrder = ["xformOp:translate"]
      }
      def Cube "Legacy" {
          double size = 1
          Vec3f xformOp:translate = (0, -7, 0)
          custom Matrix4d xformOp:transform = ((2, 0, 0, 0), (0, 2, 0, 0), (0, 0, 2, 0), (0, 0, 0, 1))
          uniform token[] xformOpOrder = ["xformOp:translate", "xformOp:transform"]
      }
      """, to: "ops.usda")
    // usd-core's BBoxCache: (-1, -8, -1) to (10.5, 10.5, 1) at the default time, to
    // (10.5, 10.5, 15.5) at time code 1.5 (0.0625 s at 24 a second).
    for (time, far) in [(nil, 1.0), (0.0625, 15.5)] {
      let model = try ModelAsset.load(path: path, time: time)
      let box = try #require(model.declaredBounds)
      #expect(box.min == SIMD3(-1, -8, -1) && box.max == SIMD3(10.5, 10.5, far), "\(box)")
      #expect(
        model.warnings.contains {
          $0.contains("2 transform ops listed in xformOpOrder with no value")
            && $0.contains("/Declared.xformOp:rotateZ")
        }, "\(model.warnings)")
      #expect(model.warnings.contains { $0.contains("only in time samples") } == (time == nil))
    }
  }
}
