import ARGeo
import ARImage
import ARMath
import ARScene
import ARSceneRendering
import ARTestSupport
import Foundation
import Testing

/// Labels over scene objects: a panel with the name and distance, on a pointer to a point above
/// the object, facing the screen.
@Suite("Labels")
struct LabelTests {
  /// The unit cube at the origin seen from 4 m, with `label` (a JSON object, or nothing).
  static func scene(label: String?, eye: String = "[0, 1, 4]", in folder: TemporaryFolder) throws -> Scene {
    let labelField = label.map { #", "label": \#($0)"# } ?? ""
    let path = try folder.write(
      """
      { "output": { "width": 320, "height": 240 },
        "background": { "color": [0.4, 0.5, 0.3] },
        "camera": { "vertical_fov_deg": 60, "look_at": { "eye": \(eye), "target": [0, 0.5, 0] } },
        "objects": [ { "name": "cube", "model": "\(Fixtures.path("obj/cube_quads.obj"))",
                       "transform": { "translation": [-0.5, 0, -0.5] }\(labelField) } ] }
      """, to: "scene-\(UInt64.random(in: 0 ... .max)).json")
    return try Scene.load(path: path)
  }

  @Test("distances read as apps show them")
  func distanceText() {
    #expect(DistanceText.formatted(8.44) == "8.4 m")
    #expect(DistanceText.formatted(42.4) == "42 m")
    #expect(DistanceText.formatted(1234) == "1.2 km")
  }

  @Test("text widths scale with the size; a character outside the font is set as '?'")
  func fontMetrics() {
    #expect(LabelFont.width(of: "", size: 20) == 0)
    #expect(abs(LabelFont.width(of: "Závist", size: 64) - 2 * LabelFont.width(of: "Závist", size: 32)) < 1e-3)
    #expect(LabelFont.width(of: "漢", size: 20) == LabelFont.width(of: "?", size: 20))
    var image = RGBA8Image(width: 40, height: 40, fill: SIMD4(0, 0, 0, 255))
    LabelFont.draw("I", at: SIMD2(10, 30), size: 24, color: SIMD3(1, 1, 1), into: &image)
    // An upright stroke: ink from about the cap height (0.73 em) down to the baseline, nothing below.
    #expect(image[Int(10 + LabelFont.width(of: "I", size: 24) / 2), 22].x > 200)
    #expect((0..<40).allSatisfy { image[$0, 33] == SIMD4(0, 0, 0, 255) })
  }

  @Test("a label's panel sits above its pointer's tip, over the scene, and only there")
  func panelAboveTip() throws {
    let folder = try TemporaryFolder()
    let plain = try Self.scene(label: nil, in: folder).render()
    let labelled = try Self.scene(label: #"{ "text": "Cube", "height": 1.5 }"#, in: folder)
    let image = try labelled.render()
    let tip = try #require(labelled.camera.project(SIMD3(-0.5, 1.5, -0.5))).pixel
    let size = 0.03 * 240.0
    var changed = 0
    for y in 0..<240 {
      for x in 0..<320 where image[x, y] != plain[x, y] {
        changed += 1
        #expect(Double(y) <= tip.y + 0.5 * size + 1, "pixel (\(x), \(y)) below the tip \(tip)")
      }
    }
    #expect(changed > 300)
    // The distance is the camera's to the object's origin (the cube's corner at x = z = −0.5).
    let distance = (SIMD3<Double>(-0.5, 0, -0.5) - SIMD3(0, 1, 4)).length
    #expect(DistanceText.formatted(distance) == "4.6 m")
    // Seen from behind its tip (the camera above and past it, looking away): not drawn.
    let behind = try Self.scene(label: #"{ "text": "Cube", "height": 30 }"#, in: folder)
    #expect(try behind.render() == plain)
  }

  @Test("a label without text on an object without a name is an error naming the field")
  func missingText() throws {
    let folder = try TemporaryFolder()
    let path = try folder.write(
      """
      { "output": { "width": 32, "height": 24 }, "camera": { "vertical_fov_deg": 60, "look_at": { "eye": [0, 1, 4], "target": [0, 0, 0] } },
        "objects": [ { "model": "\(Fixtures.path("obj/cube_quads.obj"))", "label": { "height": 2 } } ] }
      """, to: "s.json")
    #expect {
      _ = try Scene.load(path: path)
    } throws: { error in
      "\(error)".contains("objects[0].label.text")
    }
  }
}
