import ARMath
import ARPose
import ARTestSupport
import Foundation
import Testing

/// Board calibration against OpenCV's `calibrateCamera` on the same detections: seeded views of
/// a marker grid board seen by a webcam-like lens, with pixel noise.
@Suite("Camera calibration")
struct CameraCalibrationTests {
  static let opencv: Bool = (try? PythonPeer.run("import cv2", packages: "none").status) == 0

  /// The true camera: 640×480, its lens a webcam's.
  static let truth = CameraIntrinsics<Double>(
    fx: 812.5, fy: 806.25, cx: 331.7, cy: 243.1, width: 640, height: 480)
  static let lens = LensDistortion.radialTangential(
    k1: -0.21, k2: 0.08, p1: 0.0011, p2: -0.0007, k3: -0.02, k4: 0, k5: 0, k6: 0)

  /// The corners of a 6×5 grid of 4 cm markers 1 cm apart (board plane, metres), as OpenCV's
  /// `GridBoard` lays them out.
  static let board: [SIMD2<Double>] = (0..<30).flatMap { id -> [SIMD2<Double>] in
    let origin = SIMD2(Double(id % 6), Double(id / 6)) * 0.05
    return [origin, origin + SIMD2(0.04, 0), origin + SIMD2(0.04, 0.04), origin + SIMD2(0, 0.04)]
  }

  /// `count` views of the board from seeded poses 0.35-0.6 m away, tilted up to about 35°, each
  /// point seen with Gaussian noise of `noise` pixels (those outside the image left out).
  static func views(seed: UInt64, count: Int, noise: Double) -> [CameraCalibration.View] {
    var random = SplitMix64(seed: seed)
    var views: [CameraCalibration.View] = []
    while views.count < count {
      let axis = SIMD3(
        Double.random(in: -1...1, using: &random), Double.random(in: -1...1, using: &random), 0)
      let tilt = Quaternion(
        angle: Angle(degrees: Double.random(in: 5...35, using: &random)), axis: axis / axis.length)
      let spin = Quaternion(
        angle: Angle(degrees: Double.random(in: -20...20, using: &random)), axis: SIMD3(0, 0, 1))
      let rotation = tilt * spin
      let centre = SIMD3(0.145, 0.12, 0.0)
      let distance = Double.random(in: 0.35...0.6, using: &random)
      let shift = SIMD3(
        Double.random(in: -0.06...0.06, using: &random), Double.random(in: -0.05...0.05, using: &random),
        distance)
      var view = CameraCalibration.View(boardPoints: [], imagePoints: [])
      for p in board {
        let c = rotation.act(SIMD3(p.x, p.y, 0) - centre) + shift
        let d = lens.distort(SIMD2(c.x / c.z, c.y / c.z))
        let gauss = SIMD2(random.gaussian(), random.gaussian()) * noise
        let pixel = SIMD2(truth.fx * d.x + truth.cx, truth.fy * d.y + truth.cy) + gauss
        guard pixel.x > 0, pixel.y > 0, pixel.x < 640, pixel.y < 480 else { continue }
        view.boardPoints.append(p)
        view.imagePoints.append(pixel)
      }
      if view.boardPoints.count >= 40 { views.append(view) }
    }
    return views
  }

  @Test(
    "equals OpenCV's calibrateCamera on the same points: intrinsics within 0.1%, RMS within 0.001 px",
    .enabled(if: opencv, "needs Debian's python3-opencv"), arguments: [(11 as UInt64, 12), (23, 6)])
  func againstOpenCV(seed: UInt64, count: Int) throws {
    let views = Self.views(seed: seed, count: count, noise: 0.25)
    let ours = try CameraCalibration.calibrate(views: views, width: 640, height: 480)
    // OpenCV's pixel centres are at whole numbers: ours minus a half.
    let input = views.map { view in
      view.boardPoints.indices.map { i in
        [
          view.boardPoints[i].x, view.boardPoints[i].y, view.imagePoints[i].x - 0.5,
          view.imagePoints[i].y - 0.5,
        ]
      }
    }
    let script = """
      import json, sys, numpy as np, cv2
      views = json.load(sys.stdin)
      obj = [np.array([[p[0], p[1], 0] for p in v], np.float32) for v in views]
      img = [np.array([[p[2], p[3]] for p in v], np.float32) for v in views]
      rms, k, d, _, _ = cv2.calibrateCamera(obj, img, (640, 480), None, None,
          criteria=(cv2.TERM_CRITERIA_COUNT + cv2.TERM_CRITERIA_EPS, 500, 1e-15))
      print(json.dumps({"rms": rms, "k": [k[0, 0], k[1, 1], k[0, 2] + 0.5, k[1, 2] + 0.5], "d": d.ravel().tolist()}))
      """
    let run = try PythonPeer.run(
      script, stdin: String(decoding: try JSONEncoder().encode(input), as: UTF8.self), packages: "none")
    #expect(run.status == 0, "\(run.output)")
    struct Peer: Decodable { var rms: Double, k: [Double], d: [Double] }
    let peer = try JSONDecoder().decode(Peer.self, from: Data(run.output.utf8))
    let k = ours.intrinsics
    for (a, b) in zip([k.fx, k.fy, k.cx, k.cy], peer.k) {
      #expect(abs(a - b) <= 1e-3 * b, "ours \([k.fx, k.fy, k.cx, k.cy]) OpenCV \(peer.k)")
    }
    #expect(abs(ours.rmsPixels - peer.rms) <= 1e-3, "ours \(ours.rmsPixels) OpenCV \(peer.rms)")
    let coefficients = ours.lens.opencvCoefficients.values
    for (a, b) in zip(coefficients, peer.d) {
      #expect(abs(a - b) <= 2e-3 * Swift.max(1, abs(b)), "ours \(coefficients) OpenCV \(peer.d)")
    }
  }

  @Test("without noise it recovers the true camera; the σ it claims covers its error with noise")
  func recoversTheTruth() throws {
    let exact = try CameraCalibration.calibrate(
      views: Self.views(seed: 5, count: 10, noise: 0), width: 640, height: 480)
    let k = exact.intrinsics, t = Self.truth
    #expect(
      abs(k.fx - t.fx) < 1e-6 && abs(k.fy - t.fy) < 1e-6 && abs(k.cx - t.cx) < 1e-6
        && abs(k.cy - t.cy) < 1e-6, "\(k)")
    #expect(exact.rmsPixels < 1e-6)
    let noisy = try CameraCalibration.calibrate(
      views: Self.views(seed: 6, count: 10, noise: 0.3), width: 640, height: 480)
    let errors = SIMD4(
      noisy.intrinsics.fx - t.fx, noisy.intrinsics.fy - t.fy, noisy.intrinsics.cx - t.cx,
      noisy.intrinsics.cy - t.cy)
    for i in 0..<4 {
      #expect(abs(errors[i]) < 4 * noisy.intrinsicsSigma[i], "\(errors) against σ \(noisy.intrinsicsSigma)")
    }
    // OpenCV's RMS is per point: both axes' noise, √2 · 0.3 px.
    #expect(abs(noisy.rmsPixels - 0.3 * 2.0.squareRoot()) < 0.03, "\(noisy.rmsPixels)")
  }

  @Test(
    "held parameters keep their values, their σ NaN with the reason; with many views nothing is held unasked")
  func held() throws {
    let views = Self.views(seed: 9, count: 6, noise: 0.2)
    let held = try CameraCalibration.calibrate(
      views: views, width: 640, height: 480, fixing: [.fixK3, .fixPrincipalPoint, .fixAspectRatio])
    let k = held.intrinsics
    #expect(held.lens.opencvCoefficients.values[4] == 0 && k.cx == 320 && k.cy == 240 && k.fx == k.fy, "\(k)")
    #expect(held.fixed.count == 3 && held.fixed.values.allSatisfy { $0 == "asked for" })
    #expect(held.intrinsicsSigma.z.isNaN && held.undetermined["cx"] == "held (fix_principal_point)")
    #expect(held.intrinsicsSigma.x == held.intrinsicsSigma.y && held.intrinsicsSigma.x.isFinite)
    let free = try CameraCalibration.calibrate(views: views, width: 640, height: 480)
    #expect(free.fixed.isEmpty && free.undetermined.isEmpty, "\(free.fixed)")
  }

  @Test("two views nearly facing the camera: what they leave undetermined is held, in order, saying why")
  func twoFlatViews() throws {
    // Two views tilted a few degrees about one axis: the focal length and principal point
    // trade off with the board's distance.
    var random = SplitMix64(seed: 17)
    let views = (0..<2).map { i -> CameraCalibration.View in
      let rotation = Quaternion(angle: Angle(degrees: 3 + 2 * Double(i)), axis: SIMD3<Double>(1, 0, 0))
      var view = CameraCalibration.View(boardPoints: [], imagePoints: [])
      for p in Self.board {
        let c = rotation.act(SIMD3(p.x - 0.145, p.y - 0.12, 0)) + SIMD3(0, 0, 0.5)
        let d = Self.lens.distort(SIMD2(c.x / c.z, c.y / c.z))
        let pixel = SIMD2(Self.truth.fx * d.x + Self.truth.cx, Self.truth.fy * d.y + Self.truth.cy)
        view.boardPoints.append(p)
        view.imagePoints.append(pixel + SIMD2(random.gaussian(), random.gaussian()) * 0.2)
      }
      return view
    }
    let calibration = try CameraCalibration.calibrate(views: views, width: 640, height: 480)
    #expect(!calibration.fixed.isEmpty, "\(calibration.intrinsics)")
    let order = CalibrationConstraint.allCases.prefix(calibration.fixed.count)
    #expect(Set(calibration.fixed.keys) == Set(order), "\(calibration.fixed)")
    #expect(calibration.fixed.values.allSatisfy { $0.contains("2 views do not determine") })
    #expect(calibration.rmsPixels.isFinite && calibration.intrinsics.fx.isFinite)
  }

  @Test("one view, or a view of three points, is refused with a reason")
  func refused() throws {
    let views = Self.views(seed: 3, count: 2, noise: 0)
    #expect(throws: PoseError.self) {
      try CameraCalibration.calibrate(views: [views[0]], width: 640, height: 480)
    }
    var few = views
    few[1] = CameraCalibration.View(
      boardPoints: Array(views[1].boardPoints.prefix(3)), imagePoints: Array(views[1].imagePoints.prefix(3)))
    #expect(throws: PoseError.self) { try CameraCalibration.calibrate(views: few, width: 640, height: 480) }
  }
}
