import ARMath
import ARRecording
import ARTestSupport
import Foundation
import Testing

/// TUM RGB-D sequences read as recordings: colour frames with the named Kinect's intrinsics and
/// lens, depth paired within 20 ms at 5000 a metre, the motion-capture track as camera poses.
@Suite("TUM RGB-D folders")
struct TUMRGBDTests {
  /// A small sequence: four frames, three depth images (the last two frames' nearest 21 and 30 ms
  /// away: unpaired), two poses.
  static func folder(camera: String = "freiburg3") throws -> TemporaryFolder {
    let folder = try TemporaryFolder()
    _ = try folder.write(
      "# color images\n# file: 'rgbd_dataset_\(camera)_desk.bag'\n# timestamp filename\n"
        + "10.000 rgb/10.000.png\n10.033 rgb/10.033.png\n10.066 rgb/10.066.png\n10.100 rgb/10.100.png\n",
      to: "rgb.txt")
    _ = try folder.write(
      "# depth maps\n10.0004 depth/10.0004.png\n10.045 depth/10.045.png\n10.130 depth/10.130.png\n",
      to: "depth.txt")
    _ = try folder.write(
      "# ground truth trajectory\n9.99 1 2 3 0 0 0 1\n10.01 1.5 2 3 0 0 0 1\n", to: "groundtruth.txt")
    return folder
  }

  @Test(
    "frames with the Kinect's camera, depth within 20 ms at 5000 a metre, the ground truth as OpenCV-turned poses"
  )
  func readsAFolder() throws {
    let folder = try Self.folder()
    let reader = try RecordingReader(path: folder.path)
    #expect(reader.format == .tumRGBD && reader.header.timeBase == .unix)
    let (frames, poses) = try reader.framesAndPoses()
    #expect(frames.map(\.index) == [0, 1, 2, 3])
    #expect(
      frames.map(\.depthPath)
        == ["depth/10.0004.png", "depth/10.045.png", nil, nil])
    #expect(
      frames.allSatisfy { $0.depthPerMetre == 5000 && $0.imageSize == SIMD2(640, 480) && $0.lens == .none })
    // freiburg3's published cx, cy (pixel centres at integers) plus half a pixel.
    #expect(frames[0].intrinsics == Pinhole(fx: 535.4, fy: 539.2, cx: 320.6, cy: 248.1))
    // An identity quaternion in OpenCV's camera convention is ARKit's camera turned about x.
    #expect(poses.count == 2 && poses[0].worldFromCamera.translation == SIMD3(1, 2, 3))
    let forward = poses[0].worldFromCamera.rotation.act(SIMD3(0, 0, -1))
    #expect((forward - SIMD3(0, 0, 1)).length < 1e-12)
  }

  @Test("a folder whose rgb.txt names no Kinect: frames without intrinsics, and the header says so")
  func unnamedCamera() throws {
    let folder = try Self.folder(camera: "kinect")
    let reader = try RecordingReader(path: folder.path)
    var intrinsics: [Pinhole<Double>?] = []
    try reader.forEach { if case .frame(let f) = $0 { intrinsics.append(f.intrinsics) } }
    #expect(intrinsics.count == 4 && intrinsics.allSatisfy { $0 == nil })
    #expect(reader.header.description?.contains("no camera named") == true)
  }

  @Test("a camera the user states: the published Kinect by name, or fields of its own over the frames'")
  func statedCamera() throws {
    let folder = try Self.folder(camera: "kinect")
    func frames(_ camera: RecordingCamera) throws -> [CameraFrameSample] {
      let reader = try RecordingReader(path: folder.path, camera: camera)
      return try reader.framesAndPoses().frames
    }
    let kinect = try frames(RecordingCamera(published: "tum-freiburg1"))
    #expect(kinect.count == 4)
    #expect(
      kinect.allSatisfy {
        $0.intrinsics == Pinhole(fx: 517.306408, fy: 516.469215, cx: 319.143040, cy: 255.813989)
          && $0.imageSize == SIMD2(640, 480) && $0.lens != .none && $0.depthPerMetre == 5000
      })
    // Fields given replace the published camera's; those not given keep it.
    let own = try RecordingCamera(published: "TUM-Freiburg1").overridden(
      by: RecordingCamera(intrinsics: Pinhole(fx: 500, fy: 501, cx: 320, cy: 240), lens: LensDistortion.none))
    let mixed = try frames(own)
    #expect(mixed[0].intrinsics == Pinhole(fx: 500, fy: 501, cx: 320, cy: 240))
    #expect(mixed[0].lens == .none && mixed[0].imageSize == SIMD2(640, 480))
    // A size alone, for a recording whose frames give intrinsics without one.
    let sized = try frames(RecordingCamera(imageSize: SIMD2(320, 240)))
    #expect(sized.allSatisfy { $0.intrinsics == nil && $0.imageSize == SIMD2(320, 240) })
    expectError(RecordingError.self, "unknownFormat") { _ = try RecordingCamera(published: "tum-freiburg4") }
  }

  @Test(
    "the real freiburg1_rpy excerpt: 100 frames with depth, the Kinect's lens, 2,742 ground-truth poses",
    .enabled(if: RealData.available, Comment(rawValue: RealData.absent)))
  func realExcerpt() throws {
    let reader = try RecordingReader(path: RealData.path("frames/tum_rgbd_fr1_rpy_excerpt"))
    #expect(reader.format == .tumRGBD)
    let (frames, poses) = try reader.framesAndPoses()
    #expect(frames.count == 100 && poses.count == 2742)
    #expect(frames.allSatisfy { $0.depthPath != nil && $0.depthPerMetre == 5000 })
    #expect(frames[0].intrinsics == Pinhole(fx: 517.306408, fy: 516.469215, cx: 319.143040, cy: 255.813989))
    #expect(
      frames[0].lens == (try LensDistortion(opencv: [0.262383, -0.953104, -0.005358, 0.002628, 1.163314])))
    // groundtruth.txt's first line: 1305031225.9334 1.3357 0.6698 1.6180 0.6504 0.6012 -0.3056 -0.3496.
    #expect(
      poses[0].time == 1305031225.9334
        && poses[0].worldFromCamera.translation == SIMD3(1.3357, 0.6698, 1.6180))
    let q = Quaternion<Double>(vector: SIMD4(0.6504, 0.6012, -0.3056, -0.3496)).normalizedOrNil()!
    let opencvForward = q.act(SIMD3(0, 0, 1))
    #expect((poses[0].worldFromCamera.rotation.act(SIMD3(0, 0, -1)) - opencvForward).length < 1e-12)
  }
}
