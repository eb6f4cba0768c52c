import ARImage
import ARImageIO
import ARMarkers
import ARMath
import ARPose
import ARTestSupport
import Foundation
import Testing

/// A board of markers seen by a camera at a known pose: the rig's pose from all its markers,
/// the same-marker check, and rig files' errors.
@Suite("Marker rigs")
struct MarkerRigTests {
  static let k = Pinhole<Double>(fx: 600, fy: 600, cx: 320.5, cy: 240.5)

  /// A 640×480 frame of a white board carrying `markers` (id, centre on the board in metres,
  /// side in metres; the board's x right, y up, facing +z), seen from `cameraFromBoard` (OpenCV
  /// convention), anti-aliased in linear light, with noise.
  static func frame(
    _ dictionary: MarkerDictionary, markers: [(id: Int, centre: SIMD2<Double>, side: Double)],
    cameraFromBoard: RigidTransform<Double>, seed: UInt64
  ) throws -> RGBA8Image {
    let cells = dictionary.size + 2
    let printed = try markers.map { try dictionary.image(id: $0.id, pixels: (cells + 2) * 10, quietZone: 1) }
    let boardFromCamera = cameraFromBoard.inverse
    var random = SplitMix64(seed: seed)
    var pixels: [SIMD4<UInt8>] = []
    for y in 0..<480 {
      for x in 0..<640 {
        var light = 0.0
        for sy in 0..<3 {
          for sx in 0..<3 {
            let u = Double(x) + (Double(sx) + 0.5) / 3, v = Double(y) + (Double(sy) + 0.5) / 3
            // The ray through the sample, met with the board's plane z = 0.
            let direction = boardFromCamera.transformDirection(
              SIMD3((u - k.cx) / k.fx, (v - k.cy) / k.fy, 1))
            let origin = boardFromCamera.translation
            let s = -origin.z / direction.z
            let p = origin + direction * s
            var level = 0.8  // the white board
            for (m, marker) in markers.enumerated() {
              // The marker's black square spans `cells` cells; its image has a cell of quiet zone.
              let local = (SIMD2(p.x, p.y) - marker.centre) / marker.side
              let px = (local.x + 0.5) * Double(cells) * 10 + 10,
                py = (0.5 - local.y) * Double(cells) * 10 + 10
              if px >= 0, py >= 0, px < Double(printed[m].width), py < Double(printed[m].height) {
                level = printed[m][Int(px), Int(py)].x == 0 ? 0.02 : 0.8
              }
            }
            light += level / 9
          }
        }
        let v = UInt8(
          clamping: Int((Double(SRGB.encode(Float(light))) * 255 + 1.5 * random.gaussian()).rounded()))
        pixels.append(SIMD4(v, v, v, 255))
      }
    }
    return RGBA8Image(width: 640, height: 480, pixels: pixels)
  }

  /// The board seen from 40 cm, facing the camera (its +z towards it), tilted 30° about x and
  /// turned a little.
  static let truth = RigidTransform<Double>(
    rotation: Quaternion(angle: .radians(.pi + 0.52), axis: SIMD3(1, 0, 0))
      * Quaternion(angle: .radians(0.2), axis: SIMD3(0, 0, 1)),
    translation: SIMD3(0.01, -0.005, 0.4))

  /// A board rig: markers 3 and 8, 4 cm wide, 6 cm apart.
  static func board() throws -> MarkerRig {
    try MarkerRig(markers: [
      .init(id: 3, size: 0.04, objectFromMarker: RigidTransform(translation: SIMD3(-0.03, 0, 0))),
      .init(id: 8, size: 0.04, objectFromMarker: RigidTransform(translation: SIMD3(0.03, 0, 0))),
    ])
  }

  @Test("a board's pose from both markers: unambiguous, within a millimetre and its covariance")
  func boardPose() throws {
    let dictionary = try #require(MarkerDictionary.named("aruco_4x4_50"))
    let image = try Self.frame(
      dictionary, markers: [(3, SIMD2(-0.03, 0), 0.04), (8, SIMD2(0.03, 0), 0.04)],
      cameraFromBoard: Self.truth,
      seed: 1)
    let found = MarkerDetector(dictionary: dictionary).detect(image)
    #expect(found.map(\.id) == [3, 8])
    let report = try MarkerRigReport(rig: try Self.board(), detected: found, intrinsics: Self.k)
    #expect(report.seen == [3, 8] && report.repeated.isEmpty && report.inconsistent.isEmpty)
    let pose = try #require(report.pose)
    #expect(!report.ambiguous, "\(pose.map(\.reprojectionError))")
    let error = (pose[0].translation - Self.truth.translation).length
    #expect(error < 0.001, "\(error) m")
    let angle = (pose[0].cameraFromTarget.rotation * Self.truth.rotation.inverse).angle.radians
    #expect(min(angle, 2 * .pi - angle) < 0.005)
    let d = pose[0].translation - Self.truth.translation
    #expect(abs(d.z) <= 4 * pose[0].translationSigma.z)
  }

  @Test("the same id twice in one image is used for neither; a marker moved on the board is inconsistent")
  func sameMarkerChecks() throws {
    let dictionary = try #require(MarkerDictionary.named("aruco_4x4_50"))
    // Marker 3 printed twice (a card with the same image on both faces, both in view).
    let twice = try Self.frame(
      dictionary, markers: [(3, SIMD2(-0.03, 0), 0.04), (3, SIMD2(0.03, 0), 0.04)],
      cameraFromBoard: Self.truth,
      seed: 2)
    let repeated = try MarkerRigReport(
      rig: try Self.board(), detected: MarkerDetector(dictionary: dictionary).detect(twice),
      intrinsics: Self.k)
    #expect(repeated.repeated == [3] && repeated.seen.isEmpty && repeated.pose == nil)
    // Marker 8 glued 1.5 cm off where the rig says it is.
    let moved = try Self.frame(
      dictionary, markers: [(3, SIMD2(-0.03, 0), 0.04), (8, SIMD2(0.03, 0.015), 0.04)],
      cameraFromBoard: Self.truth, seed: 3)
    let report = try MarkerRigReport(
      rig: try Self.board(), detected: MarkerDetector(dictionary: dictionary).detect(moved),
      intrinsics: Self.k)
    #expect(!report.inconsistent.isEmpty, "\(report.inconsistent)")
  }

  @Test(
    "a rig file's errors name the file and the field",
    arguments: [
      (#"{"markers":[{"id":3,"size":0.04},{"id":3,"size":0.04}]}"#, "markers[1].id: 3 is also markers[0]'s"),
      (#"{"markers":[{"id":60,"size":0.04}]}"#, "markers[0].id: aruco_4x4_50 has ids 0 to 49"),
      (#"{"markers":[{"id":1,"size":-1}]}"#, "markers[0].size"),
      (#"{"markers":[{"id":1,"size":0.04,"rotation_xyzw":[0,0,0,2]}]}"#, "markers[0].rotation_xyzw"),
      (#"{"markers":[{"id":1}]}"#, "markers[0].size: missing"),
    ])
  func rigFileErrors(_ text: String, _ message: String) throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/rig.json"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    let dictionary = try #require(MarkerDictionary.named("aruco_4x4_50"))
    #expect {
      _ = try MarkerRigFile.read(path, dictionary: dictionary)
    } throws: { error in
      "\(error)".contains("rig.json: " + message)
    }
  }
}
