import ARImage
import ARMath
import ARRecording
import ARReplay
import ARScene
import ARSceneRendering
import ARTestSupport
import Testing

/// A recording's taps replayed over its frames as the app showed them: the point a tap selects
/// highlighted from then on, and a fading ring where the finger touched.
@Suite("Taps in recording renders")
struct RecordingTapTests {
  /// A still camera looking at the acupressure hand for a second (10 frames, no images), and a
  /// tap at t = 0.35 s on `target`'s marker.
  static func recording(in folder: TemporaryFolder, tapping target: SceneTarget, scene: Scene) throws
    -> String
  {
    let path = folder.path + "/taps.jsonl"
    let writer = try RecordingWriter(path: path, header: RecordingHeader(source: "test", timeBase: .session))
    let k = scene.camera.intrinsics
    let tap = try #require(scene.camera.project(target.center)).pixel
    for i in 0..<10 {
      let t = Double(i) * 0.1
      if i == 4 { try writer.write(.tap(TapSample(time: 0.35, point: tap))) }
      try writer.write(.pose(CameraPoseSample(time: t, worldFromCamera: scene.camera.worldFromCamera)))
      try writer.write(
        .frame(
          CameraFrameSample(
            time: t, index: i, intrinsics: Pinhole(fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy),
            imageSize: SIMD2(k.width, k.height))))
    }
    try writer.finish()
    return path
  }

  @Test("the tapped point turns amber from the tap on, and a ring fades out where the finger touched")
  func highlightAndCursor() throws {
    let scene = try Scene.load(
      path: Fixtures.path("../../Scenes/acupressure-hand.json"), width: 480, height: 360)
    let target = try #require(scene.targets.first { $0.code == "LI4" } ?? scene.targets.first)
    let folder = try TemporaryFolder()
    let path = try Self.recording(in: folder, tapping: target, scene: scene)
    let pixel = try #require(scene.camera.project(target.center)).pixel
    var overlay = RecordingOverlay(scene: scene)
    overlay.cursor = TapCursor(radius: 30, duration: 0.3)
    var frames: [Int: RGBA8Image] = [:]
    try overlay.render(try RecordingReader(path: path)) { selection, image in frames[selection.index] = image
    }
    #expect(frames.count == 10)
    // The marker's centre: red before the tap, amber after it.
    for (index, image) in frames {
      let p = image[Int(pixel.x), Int(pixel.y)]
      if index < 4 {
        #expect(Int(p.x) > Int(p.y) + 80, "frame \(index): \(p) is not the marker's red")
      } else {
        #expect(p.y > 100 && Int(p.x) > Int(p.z) + 100, "frame \(index): \(p) is not amber")
      }
    }
    // The ring: drawn in the frames within 0.3 s after the tap (t = 0.4 and 0.5 s, fading),
    // white on its stroke, and gone after.
    let onRing = (Int(pixel.x + 30), Int(pixel.y))
    let white = { (p: SIMD4<UInt8>) in Int(p.x) + Int(p.y) + Int(p.z) }
    #expect(white(frames[4]![onRing.0, onRing.1]) > white(frames[5]![onRing.0, onRing.1]))
    #expect(white(frames[5]![onRing.0, onRing.1]) > white(frames[9]![onRing.0, onRing.1]))
    #expect(frames[9]![onRing.0, onRing.1] == frames[3]![onRing.0, onRing.1])
  }
}
