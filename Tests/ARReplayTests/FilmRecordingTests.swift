import ARFilm
import ARImage
import ARRecording
import ARReplay
import ARScene
import ARSceneRendering
import ARTestSupport
import Foundation
import Testing

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
