import ARTestSupport
import Foundation
import Testing

@testable import ARMesh

/// `model stats` reads a USD stage without assembling its mesh: what it prints must be what the
/// model loaded whole gives, on every kind of model file.
@Suite("Model statistics without the mesh")
struct ModelStatisticsReadTests {
  /// The fixtures' models: every USD package (with transforms, skins, instancers, variants,
  /// implicit shapes, subsets) and glTF binaries (compressed ones need ARMeshCompression).
  static let fixtures: [String] =
    (try? FileManager.default.contentsOfDirectory(atPath: Fixtures.path("usd")))
    .map { $0.filter { $0.hasSuffix(".usdz") }.sorted().map { "usd/" + $0 } } ?? []
    + ["gltf/Box.glb", "gltf/BoxTextured.glb"]

  @Test("the same counts, bounds and warnings as the model loaded whole, at the default time and at 1 s")
  func sameAsLoaded() throws {
    #expect(Self.fixtures.count > 20)
    for name in Self.fixtures {
      for time in [nil, 1.0] {
        try expectSame(Fixtures.path(name), time: time)
      }
    }
  }

  @Test(
    "the same on the shared real models (Blender's USDZ, Khronos' glTF)",
    .enabled(if: RealData.available, Comment(rawValue: RealData.absent)))
  func sameOnRealModels() throws {
    for name in [
      "models3d/usdz_tinyusdz/cube.usdz", "models3d/khronos_via_draco/CesiumMan/glTF-Binary/CesiumMan.glb",
    ] {
      try expectSame(RealData.path(name), time: nil)
    }
  }

  @Test("a stage far from its origin (a georeferenced kit 4,000 km out): the same bounds, to the bit")
  func farFromOrigin() throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/stats-far.usda"
    try """
    #usda 1.0
    (
        metersPerUnit = 1
        upAxis = "Y"
    )
    def Xform "Site" {
        double3 xformOp:translate = (4100000.25, 350000.5, 4800000.75)
        float xformOp:rotateY = 33
        uniform token[] xformOpOrder = ["xformOp:translate", "xformOp:rotateY"]
        def Mesh "Hut" {
            point3f[] points = [(0, 0, 0), (2.5, 0, 0), (2.5, 3, 0.1), (0, 3, 0.2), (1, 1, 4)]
            int[] faceVertexCounts = [4, 3]
            int[] faceVertexIndices = [0, 1, 2, 3, 0, 1, 4]
        }
    }
    """.write(toFile: path, atomically: true, encoding: .utf8)
    try expectSame(path, time: nil)
    let read = try ModelStatistics.read(path: path).statistics
    #expect((read.geometryBounds?.min[0] ?? 0) > 4_099_990)
  }

  private func expectSame(_ path: String, time: Double?) throws {
    let whole = try ModelAsset.load(path: path, time: time)
    let read = try ModelStatistics.read(path: path, time: time)
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let (expected, got) = (try encoder.encode(ModelStatistics(whole)), try encoder.encode(read.statistics))
    let message = "\(path) at \(time.map { "\($0) s" } ?? "the default time"): "
    #expect(
      got == expected,
      "\(message)\(String(decoding: got, as: UTF8.self)) against \(String(decoding: expected, as: UTF8.self))"
    )
    #expect(read.warnings == whole.warnings, "\(path)")
  }
}
