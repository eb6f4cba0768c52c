import ARImage
import ARImageIO
import ARMarkers
import ARMath
import ARPose
import ARTestSupport
import Foundation
import Testing

/// Detection side by side with OpenCV's `detectMarkers` (4.6, sub-pixel corner refinement) and
/// the AprilTag library's detector (3.3, its defaults) on the same frames: a marker card on a
/// table rendered by ARScene's rasterizer with a lamp's light, motion blur, vignetting and noise,
/// JPEG-compressed at quality 80 (Tests/Fixtures/markers, made by Tools/generate-marker-frames).
@Suite("Marker detection on rendered frames, against OpenCV and AprilTag")
struct RenderedCardTests {
  /// One detector's findings on one frame: id and corners.
  typealias Found = [(id: Int, corners: [SIMD2<Double>])]

  /// A peer's findings on each of `images`, through Tools/peers/marker_detectors.py.
  static func peer(_ detector: String, _ dictionary: String, _ images: [String]) throws -> [Found] {
    let script = PythonPeer.packageRoot + "/Tools/peers/marker_detectors.py"
    let outcome = try PythonPeer.run(
      "import runpy, sys; sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')",
      arguments: [script, detector, dictionary, "1"] + images, packages: "none")
    guard outcome.status == 0 else { throw PeerFailure(output: outcome.output) }
    struct Line: Decodable {
      struct Marker: Decodable {
        var id: Int
        var corners: [[Double]]
      }
      var markers: [Marker]
    }
    return try outcome.output.split(separator: "\n").map { line in
      try JSONDecoder().decode(Line.self, from: Data(line.utf8)).markers.map { m in
        (m.id, m.corners.map { SIMD2($0[0], $0[1]) })
      }
    }
  }

  struct PeerFailure: Error { var output: String }

  /// The frames of one set of Tests/Fixtures/markers (made by Tools/generate-marker-frames).
  struct CardFrames: Decodable {
    struct Frame: Decodable {
      var image: String
      var id: Int
      var blurred: Bool
      var rotation: [[Double]]
      var translation: [Double]
      var corners: [[Double]]
      var trueCorners: [SIMD2<Double>] { corners.map { SIMD2($0[0], $0[1]) } }
      /// `camera_from_marker`, OpenCV camera convention, metres.
      var cameraFromMarker: RigidTransform<Double> {
        RigidTransform(
          rotationMatrix: Matrix3(
            rows: SIMD3(rotation[0][0], rotation[0][1], rotation[0][2]),
            SIMD3(rotation[1][0], rotation[1][1], rotation[1][2]),
            SIMD3(rotation[2][0], rotation[2][1], rotation[2][2])),
          translation: SIMD3(translation[0], translation[1], translation[2]))
      }
    }
    var dictionary: String
    var markerSize: Double
    var intrinsics: [String: Double]
    var frames: [Frame]
    var folder = ""

    enum CodingKeys: String, CodingKey {
      case dictionary, intrinsics, frames
      case markerSize = "marker_size_m"
    }

    init(_ name: String) throws {
      let folder = Fixtures.path("markers/" + name)
      self = try JSONDecoder().decode(
        CardFrames.self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/truth.json")))
      self.folder = folder
    }

    var paths: [String] { frames.map { folder + "/" + $0.image } }
    var k: Pinhole<Double> {
      Pinhole(fx: intrinsics["fx"]!, fy: intrinsics["fy"]!, cx: intrinsics["cx"]!, cy: intrinsics["cy"]!)
    }
  }

  /// Detection rate, false ids and mean corner error (px) of one detector over the frames, the
  /// corner error over `common` frames (those every detector found) only.
  struct Score: CustomStringConvertible {
    var found = 0, falseIDs = 0
    var errors: [Int: Double] = [:]
    func meanError(over frames: Set<Int>) -> Double {
      frames.map { errors[$0]! }.reduce(0, +) / Double(max(1, frames.count))
    }
    var description: String { "found \(found), false ids \(falseIDs)" }
  }

  static func score(_ found: [Found], _ frames: [CardFrames.Frame]) -> Score {
    var score = Score()
    for (k, frame) in frames.enumerated() {
      score.falseIDs += found[k].filter { $0.id != frame.id }.count
      guard let hit = found[k].first(where: { $0.id == frame.id }) else { continue }
      score.found += 1
      score.errors[k] = zip(hit.corners, frame.trueCorners).map { ($0 - $1).length }.reduce(0, +) / 4
    }
    return score
  }

  @Test(
    "at least each peer's detection rate, no false ids, corners no worse, on rendered card frames",
    arguments: [("apriltag_36h11", ["opencv", "apriltag"]), ("aruco_6x6_250", ["opencv"])])
  func sideBySide(_ name: String, _ peers: [String]) throws {
    let set = try CardFrames(name)
    let dictionary = try #require(MarkerDictionary.named(name))
    let detector = MarkerDetector(dictionary: dictionary)
    let ours = try set.paths.map { path in
      detector.detect(try ImageFile.readRGBA8(path)).map { (id: $0.id, corners: $0.corners) }
    }
    let (frames, paths) = (set.frames, set.paths)
    let ourScore = Self.score(ours, frames)
    #expect(ourScore.falseIDs == 0)
    for peer in peers {
      let theirScore = Self.score(try Self.peer(peer, name, paths), frames)
      let common = Set(ourScore.errors.keys).intersection(theirScore.errors.keys)
      let (ourError, theirError) = (ourScore.meanError(over: common), theirScore.meanError(over: common))
      print(
        "\(name) \(frames.count) frames: ours \(ourScore), corner error \(ourError) px; \(peer) \(theirScore), \(theirError) px, over \(common.count) common"
      )
      #expect(ourScore.found >= theirScore.found, "\(name): ours \(ourScore), \(peer) \(theirScore)")
      #expect(
        ourError <= theirError * 1.05 + 0.01,
        "\(name): mean corner error over \(common.count) frames ours \(ourError) px, \(peer) \(theirError) px"
      )
    }
  }

  @Test("the pose from detected corners lies within its covariance, which is not inflated")
  func poseWithinCovariance() throws {
    var distances: [Double] = []
    for name in ["aruco_5x5_100", "aruco_6x6_250", "apriltag_36h11"] {
      let set = try CardFrames(name)
      let detector = MarkerDetector(dictionary: try #require(MarkerDictionary.named(set.dictionary)))
      for (frame, path) in zip(set.frames, set.paths) {
        let marker = try #require(detector.detect(try ImageFile.readRGBA8(path)).first { $0.id == frame.id })
        let sigma = try #require(marker.cornerSigma, "\(name) \(frame.image): corners not refined")
        let pose = try SquareMarker.pose(
          corners: marker.corners, size: set.markerSize, intrinsics: set.k, pixelSigma: sigma)
        // The squared Mahalanobis distance of the true pose from the nearer of the two solutions.
        distances.append(pose.solutions.map { Self.mahalanobis(frame.cameraFromMarker, from: $0) }.min()!)
      }
    }
    distances.sort()
    // χ² with 6 degrees of freedom: 99% of honest errors fall below 16.8, half below 5.3. The
    // frames blurred most (by more than the border's width) have corners off by more than
    // their σ says: a few of the 78 fall outside.
    let inside = distances.filter { $0 <= 16.8 }.count
    #expect(Double(inside) >= 0.85 * Double(distances.count), "\(inside) of \(distances.count): \(distances)")
    let median = distances[distances.count / 2]
    #expect(median >= 1 && median <= 12, "median \(median) against χ²(6)'s 5.3")
  }

  /// (δ)ᵀ Σ⁻¹ δ for the true pose's difference from `solution`: rotation vector of
  /// `R_true · R⁻¹` (left perturbation, camera frame) and translation difference.
  static func mahalanobis(_ truth: RigidTransform<Double>, from solution: PoseSolution) -> Double {
    let dq = truth.rotation * solution.cameraFromTarget.rotation.inverse
    let angle = dq.angle.radians, axis = dq.axis ?? SIMD3(1, 0, 0)
    let wrapped = angle > .pi ? angle - 2 * .pi : angle
    let dt = truth.translation - solution.translation
    let delta = [axis.x * wrapped, axis.y * wrapped, axis.z * wrapped, dt.x, dt.y, dt.z]
    // Solve Σ x = δ by Gaussian elimination with partial pivoting.
    var a = (0..<6).map { r in Array(solution.covariance[(6 * r)..<(6 * r + 6)]) + [delta[r]] }
    for c in 0..<6 {
      let p = (c..<6).max { abs(a[$0][c]) < abs(a[$1][c]) }!
      a.swapAt(c, p)
      for r in 0..<6 where r != c {
        let f = a[r][c] / a[c][c]
        for j in c...6 { a[r][j] -= f * a[c][j] }
      }
    }
    return (0..<6).map { delta[$0] * a[$0][6] / a[$0][$0] }.reduce(0, +)
  }
}
