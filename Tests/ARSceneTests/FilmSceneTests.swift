import ARFilm
import ARImage
import ARRecording
import ARScene
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
@Suite("Film looks over recordings")
struct FilmRecordingTests {
  @Test("each frame of a still camera gets the look, with grain that differs from frame to frame")
  func grainPerFrame() throws {
    var scene = try Scene.load(
      path: Fixtures.path("../../Scenes/acupressure-hand.json"), width: 160, height: 120)
    let target = try #require(scene.targets.first)
    let folder = try TemporaryFolder()
    let path = try RecordingTapTests.recording(in: folder, tapping: target, scene: scene)
    var plain: [Int: RGBA8Image] = [:], filmed: [Int: RGBA8Image] = [:]
    try RecordingOverlay(scene: scene).render(try RecordingReader(path: path)) { selection, image in
      plain[selection.index] = image
    }
    scene.film = try FilmLook(named: "classic-bw-400")
    try RecordingOverlay(scene: scene).render(try RecordingReader(path: path)) { selection, image in
      filmed[selection.index] = image
    }
    #expect(filmed.count == 10)
    let look = try #require(scene.film)
    for index in [0, 1] {
      let expected = look.apply(to: try #require(plain[index]), context: FilmContext(seed: UInt64(index)))
      #expect(filmed[index] == expected, "frame \(index)")
    }
    #expect(filmed[0] != filmed[1])  // the same view, new grain
    #expect(plain[0] == plain[1])
  }
}
