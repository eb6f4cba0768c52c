import ARMath
import ARRecording
import ARTestSupport
import Foundation
import Testing

/// EuRoC MAV sequences in the ASL folder layout: cam0's frames with Kalibr's camera, the ground
/// truth's body poses composed with cam0's `T_BS` as the camera's poses.
@Suite("EuRoC ASL folders")
struct EuRoCFolderTests {
  /// cam0's sensor.yaml as the dataset ships it (V1_01's values).
  static let sensor = """
    # General sensor definitions.
    sensor_type: camera
    comment: VI-Sensor cam0 (MT9M034)

    # Sensor extrinsics wrt. the body-frame.
    T_BS:
      cols: 4
      rows: 4
      data: [0.0148655429818, -0.999880929698, 0.00414029679422, -0.0216401454975,
             0.999557249008, 0.0149672133247, 0.025715529948, -0.064676986768,
            -0.0257744366974, 0.00375618835797, 0.999660727178, 0.00981073058949,
             0.0, 0.0, 0.0, 1.0]

    # Camera specific definitions.
    rate_hz: 20
    resolution: [752, 480]
    camera_model: pinhole
    intrinsics: [458.654, 457.296, 367.215, 248.375] #fu, fv, cu, cv
    distortion_model: radial-tangential
    distortion_coefficients: [-0.28340811, 0.07395907, 0.00019359, 1.76187114e-05]
    """

  static func folder() throws -> TemporaryFolder {
    let folder = try TemporaryFolder()
    _ = try folder.write(Self.sensor + "\n", to: "mav0/cam0/sensor.yaml")
    _ = try folder.write(
      "#timestamp [ns],filename\n1403715273262142976,1403715273262142976.png\n"
        + "1403715273312143104,1403715273312143104.png\n", to: "mav0/cam0/data.csv")
    _ = try folder.write("", to: "mav0/imu0/data.csv")
    _ = try folder.write(
      "#timestamp, p_RS_R_x [m], p_RS_R_y [m], p_RS_R_z [m], q_RS_w [], q_RS_x [], q_RS_y [], q_RS_z []\n"
        + "1403715273262142976,1.0,2.0,3.0,1.0,0.0,0.0,0.0\n1403715273312143104,1.1,2.0,3.0,1.0,0.0,0.0,0.0\n",
      to: "mav0/state_groundtruth_estimate0/data.csv")
    return folder
  }

  @Test("cam0's frames with Kalibr's camera moved half a pixel, poses through T_BS in ARKit's convention")
  func readsAFolder() throws {
    let folder = try Self.folder()
    for path in [folder.path, folder.path + "/mav0"] {
      let reader = try RecordingReader(path: path)
      #expect(reader.format == .eurocFolder)
      let (frames, poses) = try reader.framesAndPoses()
      #expect(frames.count == 2 && poses.count == 2)
      let prefix = path == folder.path ? "mav0/cam0/data/" : "cam0/data/"
      #expect(frames[0].image == .file(prefix + "1403715273262142976.png"))
      #expect(frames[0].intrinsics == Pinhole(fx: 458.654, fy: 457.296, cx: 367.715, cy: 248.875))
      #expect(frames[0].imageSize == SIMD2(752, 480) && frames[0].lens != .none)
      #expect(abs(frames[0].time - 1403715273.262142976) < 1e-6)
      // The body at (1, 2, 3) unturned: the camera sits at its T_BS offset and looks along
      // T_BS's z axis (OpenCV's forward), which is ARKit's −Z.
      let forward = SIMD3(0.00414029679422, 0.025715529948, 0.999660727178)
      #expect((poses[0].worldFromCamera.rotation.act(SIMD3(0, 0, -1)) - forward).length < 1e-6)
      let offset = SIMD3(-0.0216401454975, -0.064676986768, 0.00981073058949)
      #expect((poses[0].worldFromCamera.translation - (SIMD3(1, 2, 3) + offset)).length < 1e-12)
    }
  }

  @Test("a camera model that is not read is refused, naming sensor.yaml's member")
  func unknownModel() throws {
    let folder = try Self.folder()
    _ = try folder.write(
      Self.sensor.replacingOccurrences(of: "radial-tangential", with: "fov") + "\n",
      to: "mav0/cam0/sensor.yaml")
    #expect { _ = try RecordingReader(path: folder.path) } throws: {
      "\($0)".contains("sensor.yaml: distortion_model: 'fov' is not read")
    }
  }
}
