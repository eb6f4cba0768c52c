import ARGeo
import ARScene
import ARTestSupport
import Foundation
import Testing

/// Scene heights above mean sea level (`altitude_msl`), as surveys and phones give them, become
/// ellipsoidal heights through EGM96.
@Suite("Scene heights above mean sea level")
struct GeoHeightTests {
  static func scene(origin: String, anchor: String, in folder: TemporaryFolder) throws -> String {
    try folder.write(
      """
      { "output": { "width": 64, "height": 48 },
        "camera": { "vertical_fov_deg": 60, "look_at": { "eye": [0, 2, 10], "target": [0, 0, 0] } },
        "geo": { "origin": { "latitude": 49.9587, "longitude": 14.3953, \(origin) } },
        "objects": [ { "name": "gate", "model": "\(Fixtures.path("obj/cube_quads.obj"))",
          "anchor": { "geo": { "latitude": 49.9588, "longitude": 14.3954, \(anchor) } } } ] }
      """, to: "scene.json")
  }

  @Test("altitude_msl is the height less EGM96's 45.42 m at Závist, for the origin and an anchor alike")
  func altitudes() throws {
    let folder = try TemporaryFolder()
    // PROJ (cct +proj=vgridshift +grids=egm96_15.gtx) at the anchor: 45.4201 m; at the origin 45.4203 m.
    let site = try GeoSite.load(
      scene: try Self.scene(
        origin: #""altitude_msl": 391.58"#, anchor: #""altitude_msl": 391.58"#, in: folder)
    )
    #expect(abs(site.frame.origin.height - 437.0003) < 0.01)
    #expect(abs(site.anchors[0].anchor.coordinate.height - 437.0001) < 0.01)
    let heights = try GeoSite.load(
      scene: try Self.scene(origin: #""height": 437"#, anchor: #""height": 437"#, in: folder))
    #expect(heights.anchors[0].anchor.coordinate.height == 437)
  }

  @Test("both height and altitude_msl, or an altitude that is not a finite number, name the field")
  func refused() throws {
    let folder = try TemporaryFolder()
    for (origin, anchor, field) in [
      (#""height": 437, "altitude_msl": 391"#, #""height": 1"#, "geo.origin"),
      (#""height": 437"#, #""height": 1, "altitude_msl": 2"#, "objects[0].anchor.geo"),
      (#""height": 437"#, #""altitude_msl": 1e308"#, "objects[0].anchor.geo.altitude_msl"),
    ] {
      let path = try Self.scene(origin: origin, anchor: anchor, in: folder)
      do {
        _ = try GeoSite.load(scene: path)
        Issue.record("accepted \(origin) \(anchor)")
      } catch {
        #expect(error.description.contains(field), "\(error)")
      }
    }
  }
}
