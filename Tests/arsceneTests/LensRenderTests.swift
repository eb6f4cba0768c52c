import ARImageIO
import ARMath
import ARRecording
import ARTestSupport
import Foundation
import Testing

/// A scene camera with a lens: `arscene render` draws the content where the lens puts it, so
/// overlays line up with raw (distorted) camera frames.
@Suite("arscene render through a lens")
struct LensRenderTests {
  /// The centroid of the pixels brighter than the black background, and their count.
  static func blob(_ path: String) throws -> (SIMD2<Double>, Int) {
    let image = try ImageFile.readRGBA8(path)
    var sum = SIMD2<Double>.zero, count = 0
    for y in 0..<image.height {
      for x in 0..<image.width where Int(image[x, y].x) + Int(image[x, y].y) + Int(image[x, y].z) > 300 {
        sum += SIMD2(Double(x) + 0.5, Double(y) + 0.5)
        count += 1
      }
    }
    return (sum / Double(Swift.max(count, 1)), count)
  }

  /// A 0.12 m square facing the camera at (1.5, 1.0, −3) in its frame (ARKit: x right, y up).
  static let square = """
    v 1.44 0.94 -3
    v 1.56 0.94 -3
    v 1.56 1.06 -3
    v 1.44 1.06 -3
    f 1 2 3 4
    """

  @Test(
    "a square near the corner lands where the lens puts it (within 0.5 px), 20 px from where a pinhole would",
    arguments: [
      #""distortion": [-0.28, 0.07, 0.0012, -0.0008, 0.0]"#, #""fisheye": [0.04, -0.01, 0.003, -0.0005]"#,
    ])
  func square(lens: String) throws {
    let folder = try TemporaryFolder()
    let model = try folder.write(
      Self.square, to: "square.obj")
    func scene(_ extra: String) throws -> String {
      try folder.write(
        """
        {"output": {"width": 640, "height": 480}, "background": {"color": [0, 0, 0]},
         "camera": {"intrinsics": {"fx": 500, "fy": 500, "cx": 320, "cy": 240},
                    "world_from_camera": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]\(extra)},
         "lights": {"ambient": [1, 1, 1], "directional": []},
         "objects": [{"name": "square", "model": "\(model)"}]}
        """, to: "scene\(extra.isEmpty ? "" : "-lens").json")
    }
    let pinholeRun = try ArsceneRunner.run(["render", try scene(""), "-o", folder.path + "/pinhole.png"])
    let lensRun = try ArsceneRunner.run(["render", try scene(", " + lens), "-o", folder.path + "/lens.png"])
    #expect(pinholeRun.status == 0 && lensRun.status == 0, "\(pinholeRun.stderr) \(lensRun.stderr)")
    let (pinhole, n) = try Self.blob(folder.path + "/pinhole.png")
    let (seen, m) = try Self.blob(folder.path + "/lens.png")
    #expect(n > 200 && m > 200, "\(n) \(m)")
    let k = CameraIntrinsics<Double>(fx: 500, fy: 500, cx: 320, cy: 240, width: 640, height: 480)
    let coefficients = try JSONSerialization.jsonObject(with: Data("{\(lens)}".utf8)) as! [String: [Double]]
    let lensModel = try LensDistortion(
      opencv: coefficients.values.first!, fisheye: coefficients["fisheye"] != nil)
    // The square's centre: u = 320 + 500·1.5/3, v = 240 − 500·1.0/3.
    let centre = SIMD2(570.0, 240 - 500.0 / 3)
    #expect(((pinhole - centre) * (pinhole - centre)).sum().squareRoot() < 0.5, "\(pinhole)")
    let expected = k.pinhole.distortedPixel(centre, lens: lensModel)
    #expect(((seen - expected) * (seen - expected)).sum().squareRoot() < 0.5, "\(seen) vs \(expected)")
    #expect(((seen - pinhole) * (seen - pinhole)).sum().squareRoot() > 10, "\(seen) \(pinhole)")
  }

  @Test(
    "a recording's raw frames: the overlay lands where each frame's lens puts it; the lens round-trips the file",
    arguments: [
      LensDistortion.radialTangential(
        k1: -0.28, k2: 0.07, p1: 0.0012, p2: -0.0008, k3: 0, k4: 0, k5: 0, k6: 0),
      LensDistortion.fisheye(k1: 0.04, k2: -0.01, k3: 0.003, k4: -0.0005),
    ])
  func recordingFrames(lens: LensDistortion) throws {
    let folder = try TemporaryFolder()
    let model = try folder.write(
      Self.square, to: "square.obj")
    let scene = try folder.write(
      """
      {"output": {"width": 640, "height": 480}, "background": {"color": [0, 0, 0]},
       "camera": {"vertical_fov_deg": 50, "look_at": {"eye": [0, 0, 0], "target": [0, 0, -1]}},
       "lights": {"ambient": [1, 1, 1], "directional": []},
       "objects": [{"name": "square", "model": "\(model)"}]}
      """, to: "scene.json")
    let path = folder.path + "/raw.jsonl"
    let writer = try RecordingWriter(path: path, header: RecordingHeader(source: "test", timeBase: .unix))
    let frame = CameraFrameSample(
      time: 0, index: 0, intrinsics: Pinhole(fx: 500, fy: 500, cx: 320, cy: 240),
      imageSize: SIMD2(640, 480), lens: lens)
    try writer.write(.pose(CameraPoseSample(time: 0, worldFromCamera: .identity)))
    try writer.write(.frame(frame))
    try writer.finish()
    var read: [CameraFrameSample] = []
    try RecordingReader(path: path).forEach { if case .frame(let f) = $0 { read.append(f) } }
    #expect(read == [frame])
    let outcome = try ArsceneRunner.run([
      "render", "--recording", path, "--scene", scene, "--frames", folder.path + "/out",
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let (seen, count) = try Self.blob(folder.path + "/out/frame_000000.png")
    let k = CameraIntrinsics<Double>(fx: 500, fy: 500, cx: 320, cy: 240, width: 640, height: 480)
    let expected = k.pinhole.distortedPixel(SIMD2(570.0, 240 - 500.0 / 3), lens: lens)
    #expect(
      count > 200 && ((seen - expected) * (seen - expected)).sum().squareRoot() < 0.5,
      "\(seen) vs \(expected)")
  }

  @Test("a bad lens in a scene file is an error naming the field")
  func badLens() throws {
    let folder = try TemporaryFolder()
    let scene = try folder.write(
      """
      {"output": {"width": 64, "height": 48}, "camera": {"vertical_fov_deg": 50,
       "look_at": {"eye": [0, 0, 3], "target": [0, 0, 0]}, "distortion": [0.1, 0.2]}, "objects": []}
      """, to: "bad.json")
    let outcome = try ArsceneRunner.run(["render", scene, "-o", folder.path + "/x.png"])
    #expect(outcome.status == 2 && outcome.stderr.contains("camera.distortion"), "\(outcome.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.path + "/x.png"))
  }
}
