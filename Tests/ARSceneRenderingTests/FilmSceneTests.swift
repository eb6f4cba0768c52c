import ARFilm
import ARImage
import ARRecording
import ARScene
import ARSceneRendering
import ARTestSupport
import Foundation
import Testing

/// The `film` field of a scene file: a film look over the finished frame.
@Suite("Film looks in scenes")
struct FilmSceneTests {
  @Test("a scene's film is the look applied to its plain render; an unknown stock names the field")
  func film() throws {
    let folder = try TemporaryFolder()
    func scene(_ film: String) throws -> String {
      try folder.write(
        """
        { "output": { "width": 96, "height": 72 },
          "background": { "color": [0.4, 0.45, 0.5] },
          "camera": { "vertical_fov_deg": 60, "look_at": { "eye": [1.5, 2, 3], "target": [0, 0.5, 0] } },
          "objects": [ { "model": "\(Fixtures.path("obj/cube_quads.obj"))" } ] \(film) }
        """, to: "scene-\(film.count).json")
    }
    let plain = try Scene.load(path: try scene("")).render()
    let filmed = try Scene.load(path: try scene(#", "film": "contrast-bw-400""#)).render()
    let look = try FilmLook(named: "contrast-bw-400")
    #expect(filmed == look.apply(to: plain, context: FilmContext()))
    #expect(filmed.pixels.allSatisfy { abs(Int($0.x) - Int($0.z)) <= 1 })
    #expect {
      _ = try Scene.load(path: try scene(#", "film": "sepia-1890""#))
    } throws: { error in
      "\(error)".contains("film") && "\(error)".contains("unknown film preset 'sepia-1890'")
    }
  }
}

/// A recording drawn with a scene's film: the look on every frame, its grain new in each.
