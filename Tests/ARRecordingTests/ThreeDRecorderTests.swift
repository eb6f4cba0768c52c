import ARMath
import ARTestSupport
import Foundation
import Testing

@testable import ARRecording

/// 3D Recorder folders (Huawei AR Engine): real files of the app (Tests/Fixtures/recordings/
/// 3d_recorder/SOURCE.txt), their intrinsics from the display's projection matrix.
@Suite("3D Recorder folders")
struct ThreeDRecorderTests {
  static let folder = Fixtures.path("recordings/3d_recorder")

  /// What the app printed for this phone at 1440×1080, at the fixture's 360×270.
  static let printed = (fx: 1072.9441 / 4, fy: 1075.7474 / 4, cx: 718.911 / 4, cy: 543.41327 / 4)

  @Test(
    "the real poses.csv: 16 poses timed by frame number, one frame with the phone's own intrinsics and DEPTH16"
  )
  func realLandscapeCapture() throws {
    let reader = try RecordingReader(path: Self.folder)
    #expect(reader.format == .threeDRecorder && reader.header.timeBase == .session)
    let (frames, poses) = try reader.framesAndPoses()
    #expect(poses.count == 16 && frames.count == 1)
    #expect(poses.map(\.time) == (1...16).map { Double(12 * $0) / 30 })
    // Line 3 as written: t and q (x, y, z, w) are ARCamera.getPose(), kept as is.
    let second = poses[1].worldFromCamera
    #expect(second.translation == [0.018370537, 0.006553406, 0.0010907677])
    let q = Quaternion<Double>(vector: [0.019091055, 0.96770465, 0.2512833, 0.0045607537]).normalized()
    #expect(abs(abs((second.rotation.vector * q.vector).sum()) - 1) < 1e-12)
    let frame = try #require(frames.first)
    #expect(frame.index == 12 && frame.image == .file("00000012_image.jpg") && frame.imageSize == [360, 270])
    let k = try #require(frame.intrinsics)
    // x is the image's own: equal to what the phone printed to its float digits.
    #expect(abs(k.fx - Self.printed.fx) < 1e-4 && abs(k.cx - Self.printed.cx) < 1e-4)
    // y: fy is taken as fx (0.26% from the phone's), cy from the displayed crop (0.002 px).
    #expect(abs(k.fy / Self.printed.fy - 1) < 0.003 && abs(k.cy - Self.printed.cy) < 0.01)
    #expect(
      frame.depthPath == "00000012_depth16.bin"
        && frame.depthEncoding == .androidDepth16(width: 240, height: 180))
  }

  @Test("a portrait display's projection gives the same intrinsics as the landscape one")
  func portraitProjection() throws {
    let landscape = try #require(
      try RecordingReader(path: Self.folder).framesAndPoses().frames.first?.intrinsics)
    let reader = try RecordingReader(path: Self.folder + "/portrait/poses.csv")
    let portrait = try #require(try reader.framesAndPoses().frames.first?.intrinsics)
    #expect(abs(portrait.fx - landscape.fx) < 1e-4 && abs(portrait.cx - landscape.cx) < 1e-4)
    #expect(abs(portrait.cy - landscape.cy) < 1e-4)
  }

  @Test(
    "intrinsics → OpenGL projection (ARMath) → intrinsics is the identity, for landscape and portrait displays cropping either axis",
    arguments: [UInt64(1), 2, 3])
  func projectionRoundTrip(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    for _ in 0..<200 {
      let h = Int.random(in: 240...3000, using: &random)
      let w = h + Int.random(in: 1...1000, using: &random)  // landscape, as camera sensors are
      let f = Double.random(in: 0.5...2, using: &random) * Double(w)
      let cx = Double(w) / 2 + Double.random(in: -20...20, using: &random)
      let cy = Double(h) / 2 + Double.random(in: -20...20, using: &random)
      // The display shows a centred landscape crop of the image, the whole width or the whole
      // height (a phone's display is wide when it is turned as the camera's sensor is).
      let cropsWidth = Bool.random(using: &random)
      let cropW = cropsWidth ? Int.random(in: (h + 1)...w, using: &random) : w
      let cropH = cropsWidth ? h : Int.random(in: h / 2...h, using: &random)
      let shown = CameraIntrinsics(
        fx: f, fy: f, cx: cx - Double(w - cropW) / 2, cy: cy - Double(h - cropH) / 2, width: cropW,
        height: cropH)
      let m = shown.projectionMatrix(near: 0.1, far: 100)
      let values = (0..<4).flatMap { c in (0..<4).map { r in m[c, r] } }
      // The same display in portrait: its x is the image's y, its y the image's −x.
      var turned = values
      (turned[0], turned[5], turned[8], turned[9]) = (values[5], values[0], values[9], -values[8])
      for matrix in [values, turned] {
        let k = try ThreeDRecorderLayout.intrinsics(projection: matrix, imageSize: [w, h])
        #expect(abs(k.fx - f) < 1e-9 * f && abs(k.fy - f) < 1e-9 * f)
        #expect(abs(k.cx - cx) < 1e-9 * f && abs(k.cy - cy) < 1e-9 * f)
      }
    }
  }

  @Test("the depth's size is told by its byte count at the frame's aspect, or refused")
  func depthSize() {
    #expect(ThreeDRecorderLayout.depth16Size(bytes: 86_400, aspectOf: [1440, 1080]) == [240, 180])
    #expect(ThreeDRecorderLayout.depth16Size(bytes: 86_400, aspectOf: [360, 270]) == [240, 180])
    #expect(ThreeDRecorderLayout.depth16Size(bytes: 86_401, aspectOf: [1440, 1080]) == nil)
    #expect(ThreeDRecorderLayout.depth16Size(bytes: 86_400, aspectOf: [1920, 1080]) == nil)
    #expect(ThreeDRecorderLayout.depth16Size(bytes: 0, aspectOf: [4, 3]) == nil)
  }

  @Test("timems files are timed by it; bad headers, quaternions, projections and times are named")
  func refusals() throws {
    let folder = try TemporaryFolder()
    let pose = "00000012,0.1,0.2,0.3,0.0,0.0,0.0,1.0,0.0,0.0,0.0"
    func read(_ text: String) throws -> [CameraPoseSample] {
      let path = try folder.write(text, to: "poses\(text.count).csv")
      return try RecordingReader(path: path).framesAndPoses().poses
    }
    let timed = try read("frame,tx,ty,tz,qx,qy,qz,qw,yaw,pitch,roll,timems\n\(pose),1500\n")
    #expect(timed.map(\.time) == [1.5])
    func refusal(_ text: String) -> String {
      do {
        _ = try read(text)
        return "read"
      } catch { return "\(error)" }
    }
    let header = "frame,tx,ty,tz,qx,qy,qz,qw,yaw,pitch,roll,projection\n"
    #expect(refusal("frame,tx,ty,tz,qx,qy,qz,qw,speed\n\(pose)\n").contains("header"))
    #expect(
      refusal(header + "00000012,0,0,0,0.5,0.5,0.5,0.6,0,0,0,1 0 0 0 0 1 0 0 0 0 -1 -1 0 0 -0.2 0\n")
        .contains(":2: qx, qy, qz, qw"))
    #expect(refusal(header + "\(pose),1 0 0\n").contains(":2: projection"))
    #expect(
      refusal("frame,tx,ty,tz,qx,qy,qz,qw,yaw,pitch,roll,timems\n\(pose),null\n").contains(":2: timems"))
  }

  @Test("a file of other columns is not taken for 3D Recorder's")
  func sniffing() {
    #expect(ThreeDRecorderLayout.isPoseFile(Array("frame,tx,ty,tz,qx,qy,qz,qw\n".utf8)))
    #expect(!ThreeDRecorderLayout.isPoseFile(Array("timestamp,frame,x,y,z,qx,qy,qz,qw\n".utf8)))
    #expect(!ThreeDRecorderLayout.isPoseFile(Array("frame,tx,ty,tz,qw,qx,qy,qz\n".utf8)))
  }
}
