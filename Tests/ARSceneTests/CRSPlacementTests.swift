import ARCRS
import ARGeo
import ARMath
import ARScene
import ARSceneRendering
import ARTestSupport
import Foundation
import Testing

/// A survey's site model in UTM placed in a scene by its CRS: every vertex where PROJ's cs2cs
/// and ARGeo put it, to a millimetre.
@Suite("Models placed by their CRS")
struct CRSPlacementTests {
  /// cs2cs EPSG:32633 EPSG:4326 of easting-northing pairs.
  static func cs2cs(_ points: [SIMD2<Double>]) throws -> [SIMD2<Double>] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/cs2cs")
    process.arguments = ["EPSG:32633", "EPSG:4326", "-f", "%.12f"]
    let (input, output) = (Pipe(), Pipe())
    (process.standardInput, process.standardOutput) = (input, output)
    try process.run()
    input.fileHandleForWriting.write(Data(points.map { "\($0.x) \($0.y)\n" }.joined().utf8))
    try input.fileHandleForWriting.close()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExitPromptly()
    return text.split(separator: "\n").map {
      let v = $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { Double($0) }
      return SIMD2(v[0], v[1])
    }
  }

  static func scene(_ object: String, geo: Bool = true, in folder: TemporaryFolder) throws -> String {
    try folder.write(
      """
      { "output": { "width": 160, "height": 120 },
        "camera": { "vertical_fov_deg": 60, "look_at": { "eye": [-1423.5, 423, -983.5], "target": [-1423.7, 420, -985.5] } },
        \(geo ? #""geo": { "origin": { "latitude": 49.9587, "longitude": 14.3953, "height": 0 } },"# : "")
        "objects": [ { "model": "\(Fixtures.path("obj/utm_triangles.obj"))", \(object) } ] }
      """, to: "scene-\(object.hashValue).json")
  }

  @Test("every vertex lands where cs2cs and the scene's ENU frame put it, to a millimetre")
  func vertices() throws {
    let folder = try TemporaryFolder()
    let scene = try Scene.load(
      path: try Self.scene(#""crs": "EPSG:32633""#, in: folder),
      projection: CoordinateOperation.projectionToWGS84)
    let object = scene.objects[0]
    #expect(object.geoAnchor != nil && object.worldFromModel == .identity)
    // The file's vertices, read as text.
    let lines = try String(contentsOfFile: Fixtures.path("obj/utm_triangles.obj"), encoding: .utf8).split(
      separator: "\n")
    let grid = lines.filter { $0.hasPrefix("v ") }.map {
      $0.split(separator: " ").dropFirst().map { Double($0)! }
    }
    let geographic = try Self.cs2cs(grid.map { SIMD2($0[0], $0[1]) })
    let frame = try LocalTangentFrame(
      origin: GeodeticCoordinate(latitudeDegrees: 49.9587, longitudeDegrees: 14.3953))
    let expected = grid.enumerated().map { i, g in
      WorldFrame.world(
        enu: frame.enu(
          GeodeticCoordinate(
            latitudeDegrees: geographic[i].x, longitudeDegrees: geographic[i].y, height: g[2])))
    }
    // The mesh repeats vertices per face: each lands on a file vertex's place, and each file
    // vertex is landed on.
    let placed = object.mesh.positions.indices.map { object.mesh.modelPosition($0) }
    for p in placed {
      let nearest = expected.map { ($0 - p).length }.min()!
      #expect(nearest < 1e-3, "a vertex \(nearest) m from where cs2cs puts it")
    }
    #expect(expected.allSatisfy { e in placed.contains { ($0 - e).length < 1e-3 } })
    // The positions are small offsets from a Double origin: millimetres survive Float.
    #expect(object.mesh.positions.allSatisfy { $0.length < 10 })
    // Seen from above it is drawn.
    let image = try scene.render()
    #expect(image.pixels.contains { $0 != image.pixels[0] })
  }

  @Test(
    "without geo, with an unknown CRS, or with an anchor beside it: an error naming the field",
    arguments: [
      (
        #""crs": "EPSG:32633""#, false,
        "objects[0].crs: a model placed by its CRS needs the scene's geo.origin"
      ),
      (#""crs": "EPSG:99999""#, true, "objects[0].crs: unknown CRS 'EPSG:99999'"),
      (
        #""crs": "EPSG:32633", "transform": { "yaw_deg": 5 }"#, true,
        "objects[0].crs: a model placed by its CRS takes no"
      ),
    ])
  func errors(_ object: String, _ geo: Bool, _ message: String) throws {
    let folder = try TemporaryFolder()
    let path = try Self.scene(object, geo: geo, in: folder)
    #expect { _ = try Scene.load(path: path, projection: CoordinateOperation.projectionToWGS84) } throws: {
      "\($0)".contains(message)
    }
  }

  @Test("a scene user without a CRS conversion gets an error naming the field, not a crash")
  func withoutProjection() throws {
    let folder = try TemporaryFolder()
    let path = try Self.scene(#""crs": "EPSG:32633""#, in: folder)
    #expect { _ = try Scene.load(path: path) } throws: {
      "\($0)".contains("objects[0].crs: a model placed by its CRS needs a CRS conversion")
    }
  }
}
