import ARMath
import ARRecording
import ARTestSupport
import Foundation
import Testing

/// `transforms.json` captures (nerfstudio, instant-ngp, Polycam through nerfstudio) as
/// recordings: OpenGL camera-to-world matrices as ARKit poses, the camera shared or per frame,
/// frames in file order at a stated rate.
@Suite("transforms.json captures")
struct TransformsJSONTests {
  /// A nerfstudio-style file: OPENCV lens, three frames listed out of order, one with its own
  /// focal lengths.
  static let nerfstudio = """
    {"camera_model": "OPENCV", "fl_x": 1400.5, "fl_y": 1401.25, "cx": 959.5, "cy": 719.75, "w": 1920, "h": 1440,
     "k1": 0.05, "k2": -0.01, "p1": 0.001, "p2": -0.0005,
     "frames": [
      {"file_path": "images/frame_00010.jpg", "transform_matrix": [[1,0,0,3],[0,1,0,0],[0,0,1,0],[0,0,0,1]]},
      {"file_path": "images/frame_00002.jpg", "transform_matrix": [[0,0,1,2],[0,1,0,0],[-1,0,0,0],[0,0,0,1]],
       "fl_x": 1300, "fl_y": 1300, "depth_file_path": "depth/frame_00002.png"},
      {"file_path": "images/frame_00001.jpg", "transform_matrix": [[1,0,0,1],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}
     ]}
    """

  static func read(_ text: String, fps: Double? = nil) throws -> ([CameraPoseSample], [CameraFrameSample]) {
    let folder = try TemporaryFolder()
    _ = try folder.write(text, to: "transforms.json")
    let reader = try RecordingReader(path: folder.path, framesPerSecond: fps)
    #expect(reader.format == .transformsJSON && reader.header.timeBase == .session)
    let (frames, poses) = try reader.framesAndPoses()
    return (poses, frames)
  }

  @Test("nerfstudio's file: frames in file-name order at the given rate, the OpenGL matrix as the ARKit pose")
  func nerfstudio() throws {
    let (poses, frames) = try Self.read(Self.nerfstudio, fps: 10)
    #expect(
      frames.map(\.image) == ["frame_00001", "frame_00002", "frame_00010"].map { .file("images/\($0).jpg") })
    #expect(frames.map(\.time) == [0, 0.1, 0.2] && poses.map(\.time) == [0, 0.1, 0.2])
    #expect(poses.map(\.worldFromCamera.translation) == [SIMD3(1, 0, 0), SIMD3(2, 0, 0), SIMD3(3, 0, 0)])
    // The second frame looks down the world's +X: its −Z axis turned by the matrix.
    #expect((poses[1].worldFromCamera.rotation.act(SIMD3(0, 0, -1)) - SIMD3(-1, 0, 0)).length < 1e-12)
    #expect(frames[0].intrinsics == Pinhole(fx: 1400.5, fy: 1401.25, cx: 959.5, cy: 719.75))
    #expect(frames[1].intrinsics == Pinhole(fx: 1300, fy: 1300, cx: 959.5, cy: 719.75))
    #expect(frames[1].depthPath == "depth/frame_00002.png" && frames[0].imageSize == SIMD2(1920, 1440))
    #expect(frames[0].lens == (try LensDistortion(opencv: [0.05, -0.01, 0.001, -0.0005, 0])))
  }

  @Test("instant-ngp's camera_angle_x gives the focal length; the default rate is 30 a second")
  func instantNGP() throws {
    let text = """
      {"camera_angle_x": 1.2, "w": 800, "h": 600, "aabb_scale": 16,
       "frames": [{"file_path": "./images/0001", "transform_matrix": [[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]},
                  {"file_path": "./images/0002", "transform_matrix": [[1,0,0,0],[0,1,0,0],[0,0,1,0.5],[0,0,0,1]]}]}
      """
    let (_, frames) = try Self.read(text)
    let f = 400 / Foundation.tan(0.6)
    #expect(frames.map(\.time) == [0, 1.0 / 30])
    #expect(frames[0].intrinsics == Pinhole(fx: f, fy: f, cx: 400, cy: 300) && frames[0].lens == .none)
  }

  @Test("a scaled matrix, an unknown camera model and a missing image are refused, naming the JSON pointer")
  func refusals() throws {
    let cases: [(String, String)] = [
      (
        #"{"frames": [{"file_path": "a.jpg", "transform_matrix": [[2,0,0,0],[0,2,0,0],[0,0,2,0],[0,0,0,1]]}]}"#,
        "transforms.json: /frames/0/transform_matrix: not a rotation"
      ),
      (
        #"{"camera_model": "EQUIRECTANGULAR", "fl_x": 500, "w": 100, "h": 100, "frames": []}"#,
        "transforms.json: /camera_model: 'EQUIRECTANGULAR' is not read"
      ),
      (
        #"{"frames": [{"transform_matrix": [[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}]}"#,
        "transforms.json: /frames/0/file_path: expected the image's path"
      ),
    ]
    for (text, message) in cases {
      #expect { _ = try Self.read(text) } throws: { "\($0)".contains(message) }
    }
  }
}
