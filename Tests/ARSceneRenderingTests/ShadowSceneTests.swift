import ARImage
import ARRender
import ARScene
import ARSceneRendering
import ARTestSupport
import Foundation
import Testing

/// The `shadow` field of a scene file: a shadow catcher on the ground the content stands on.
@Suite("Shadows in scenes")
struct ShadowSceneTests {
  /// A scene of the unit cube standing on y = 0, seen from above and to the side, with `shadow`.
  static func scene(_ shadow: String, in folder: TemporaryFolder) throws -> String {
    try folder.write(
      """
      { "output": { "width": 160, "height": 120 },
        "background": { "color": [0.5, 0.5, 0.5] },
        "camera": { "vertical_fov_deg": 60, "look_at": { "eye": [1.5, 3, 3], "target": [-0.5, 0, 0] } },
        "lights": { "ambient": [0.3, 0.3, 0.3], "directional": [{ "direction": [-1, -1, -0.5] }] },
        "objects": [ { "model": "\(Fixtures.path("obj/cube_quads.obj"))", "transform": { "translation": [-0.5, 0, -0.5] } } ],
        \(shadow) }
      """, to: "scene-\(shadow.hashValue).json")
  }

  @Test("the shadow darkens the background and nothing else")
  func darkensBackground() throws {
    let folder = try TemporaryFolder()
    let plain = try Scene.load(path: try Self.scene(#""geo": null"#, in: folder)).renderWithDepth()
    let shadowed = try Scene.load(path: try Self.scene(#""shadow": { "opacity": 0.5 }"#, in: folder)).render()
    var darkened = 0
    for i in plain.image.pixels.indices where shadowed.pixels[i] != plain.image.pixels[i] {
      #expect(!plain.depth.pixels[i].isFinite, "pixel \(i) is on the cube")
      #expect(shadowed.pixels[i].x < plain.image.pixels[i].x)
      darkened += 1
    }
    #expect(darkened > 150)
  }

  @Test("a plane-anchored model's shadow falls on the plane it stands on")
  func anchorPlane() throws {
    let path = Fixtures.path("../../Scenes/hand-on-table.json")
    var json =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
    json["shadow"] = ["softness": 0.005]
    let folder = try TemporaryFolder()
    let text = String(
      decoding: try JSONSerialization.data(withJSONObject: json, options: .withoutEscapingSlashes),
      as: UTF8.self
    )
    .replacingOccurrences(of: "\"models/", with: "\"" + Fixtures.path("../../Scenes/models/"))
    .replacingOccurrences(of: "data/table-scan.xyz", with: Fixtures.path("../../Scenes/data/table-scan.xyz"))
    let scene = try Scene.load(path: try folder.write(text, to: "hand.json"))
    let catcher = try #require(scene.shadows)
    #expect(
      abs(catcher.point.y - 0.74) < 0.01 && catcher.normal.y > 0.99, "\(catcher.point), \(catcher.normal)")
    #expect(catcher.softness == 0.005 && catcher.opacity == 0.5)
  }

  @Test(
    "a shadow without a light to cast it, or with a value out of range, is an error naming the field",
    arguments: [
      (#""shadow": { "light": 3 }"#, "shadow.light"),
      (#""shadow": { "opacity": 2 }"#, "shadow"),
      (#""shadow": { "plane": { "point": [0, 0], "normal": [0, 1, 0] } }"#, "shadow.plane.point"),
      (#""shadow": { "sofness": 0.1 }"#, "shadow.sofness"),
    ])
  func errors(_ shadow: String, _ field: String) throws {
    let folder = try TemporaryFolder()
    let path = try Self.scene(shadow, in: folder)
    #expect {
      _ = try Scene.load(path: path)
    } throws: { error in
      "\(error)".contains(field)
    }
  }
}

/// The shipped scenes against the documented schema, so that neither drifts from the other.
@Suite("Scene schema")
struct SceneSchemaTests {
  @Test(
    "every scene in Scenes/ is valid against docs/scene.schema.json (Python jsonschema), and a typo is not")
  func shippedScenes() throws {
    let root = Fixtures.root + "/../.."
    let scenes = try FileManager.default.contentsOfDirectory(atPath: root + "/Scenes").filter {
      $0.hasSuffix(".json")
    }
    .sorted().map { root + "/Scenes/" + $0 }
    #expect(scenes.count >= 5)
    let script = """
      import json, sys
      from jsonschema import Draft202012Validator
      v = Draft202012Validator(json.load(open(sys.argv[1])))
      bad = 0
      for path in sys.argv[2:]:
          for e in v.iter_errors(json.load(open(path))):
              bad += 1
              print(f"{path}: {list(e.path)}: {e.message}")
      if v.is_valid({"output": {"width": 8, "height": 8}, "camera": {"vertical_fov_deg": 60}, "objects": [],
                     "shadow": {"sofness": 1}}):
          bad += 1
          print("accepted shadow.sofness")
      sys.exit(1 if bad else 0)
      """
    let outcome = try PythonPeer.run(
      script, arguments: [root + "/docs/scene.schema.json"] + scenes, packages: "jsonschema")
    #expect(outcome.status == 0, "\(outcome.output)")
  }
}
