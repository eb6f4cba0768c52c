import ARMath
import ARTestSupport
import Foundation
import Testing

/// OpenCV's lens models against OpenCV 4.6 itself (Debian's python3-opencv): projecting equals
/// `cv2.projectPoints` and `cv2.fisheye.projectPoints`, undistorting equals
/// `cv2.undistortPointsIter` run to convergence and `cv2.fisheye.undistortPoints`, all to
/// 1e-6 px, on seeded cameras, lenses and points. OpenCV's pixel centres are at integers:
/// its `cx`, `cy` and pixels are ours minus 0.5.
@Suite("Lens distortion against OpenCV")
struct LensDistortionTests {
  static let opencv: Bool = (try? PythonPeer.run("import cv2", packages: "none").status) == 0

  struct Case: Codable {
    var k: [Double]  // fx, fy, cx, cy (ours)
    var d: [Double]
    var fisheye: Bool
    var points: [[Double]]  // camera-frame X, Y, Z (OpenCV's: x right, y down, z forward)
    var pixels: [[Double]]  // distorted pixels (ours) to undistort
  }

  /// Seeded cameras and lenses of the strength real ones have: phones' wide and main cameras,
  /// webcams, GoPro-like fisheyes.
  static func cases() -> [Case] {
    var rng = SplitMix64(seed: 50)
    var out: [Case] = []
    for i in 0..<12 {
      let fisheye = i % 3 == 2
      let (w, h) = (1920.0, 1440.0)
      let f = fisheye ? Double.random(in: 500...800, using: &rng) : Double.random(in: 900...1600, using: &rng)
      let k = [
        f, f * Double.random(in: 0.98...1.02, using: &rng), w / 2 + Double.random(in: -20...20, using: &rng),
        h / 2 + Double.random(in: -20...20, using: &rng),
      ]
      let d: [Double]
      if fisheye {
        d = [0.05, -0.02, 0.005, -0.001].map { $0 * Double.random(in: -1.5...1.5, using: &rng) }
      } else if i % 3 == 0 {
        d = [
          Double.random(in: -0.3...0.1, using: &rng), Double.random(in: -0.1...0.2, using: &rng),
          Double.random(in: -0.002...0.002, using: &rng), Double.random(in: -0.002...0.002, using: &rng),
          Double.random(in: -0.05...0.05, using: &rng),
        ]
      } else {
        d = [
          Double.random(in: -0.3...0.3, using: &rng), Double.random(in: -0.2...0.2, using: &rng),
          Double.random(in: -0.002...0.002, using: &rng), Double.random(in: -0.002...0.002, using: &rng),
          Double.random(in: -0.05...0.05, using: &rng), Double.random(in: -0.2...0.2, using: &rng),
          Double.random(in: -0.1...0.1, using: &rng), Double.random(in: -0.02...0.02, using: &rng),
        ]
      }
      // Points whose ideal image lies within the frame (most) or a little past it.
      let points: [[Double]] = (0..<40).map { _ in
        let z = Double.random(in: 0.3...20, using: &rng)
        let u = Double.random(in: -0.05 * w...1.05 * w, using: &rng),
          v = Double.random(in: -0.05 * h...1.05 * h, using: &rng)
        return [(u - k[2]) / k[0] * z, (v - k[3]) / k[1] * z, z]
      }
      let pixels: [[Double]] = (0..<40).map { _ in
        [Double.random(in: 0...w, using: &rng), Double.random(in: 0...h, using: &rng)]
      }
      out.append(Case(k: k, d: d, fisheye: fisheye, points: points, pixels: pixels))
    }
    return out
  }

  static let oracle = """
    import json, sys
    import numpy as np, cv2
    out = []
    for c in json.load(sys.stdin):
        fx, fy, cx, cy = c["k"]
        K = np.array([[fx, 0, cx - 0.5], [0, fy, cy - 0.5], [0, 0, 1]])
        D = np.array(c["d"])
        obj = np.array(c["points"], dtype=np.float64).reshape(-1, 1, 3)
        px = np.array(c["pixels"], dtype=np.float64).reshape(-1, 1, 2) - 0.5
        zero = np.zeros(3)
        if c["fisheye"]:
            proj, _ = cv2.fisheye.projectPoints(obj, zero, zero, K, D)
            und = cv2.fisheye.undistortPoints(px, K, D, P=K,
                criteria=(cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 100, 1e-15))
        else:
            proj, _ = cv2.projectPoints(obj, zero, zero, K, D)
            und = cv2.undistortPointsIter(px, K, D, None, K,
                (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 200, 1e-15))
        out.append({"projected": (proj.reshape(-1, 2) + 0.5).tolist(), "undistorted": (und.reshape(-1, 2) + 0.5).tolist()})
    print(json.dumps(out))
    """

  struct Answer: Decodable { var projected: [[Double]], undistorted: [[Double]] }

  @Test(
    "projecting equals cv2.projectPoints / cv2.fisheye.projectPoints and undistorting equals OpenCV run to convergence, to 1e-6 px",
    .enabled(if: opencv, "needs Debian's python3-opencv"))
  func againstOpenCV() throws {
    let cases = Self.cases()
    let input = String(decoding: try JSONEncoder().encode(cases), as: UTF8.self)
    let run = try PythonPeer.run(Self.oracle, stdin: input, packages: "none")
    #expect(run.status == 0, "\(run.output)")
    let answers = try JSONDecoder().decode([Answer].self, from: Data(run.output.utf8))
    var worstProjection = 0.0, worstUndistortion = 0.0, compared = 0
    for (c, answer) in zip(cases, answers) {
      let lens = try LensDistortion(opencv: c.d, fisheye: c.fisheye)
      let k = Pinhole<Double>(fx: c.k[0], fy: c.k[1], cx: c.k[2], cy: c.k[3])
      for (p, theirs) in zip(c.points, answer.projected) {
        let pinhole = SIMD2(k.fx * p[0] / p[2] + k.cx, k.fy * p[1] / p[2] + k.cy)
        let ours = k.distortedPixel(pinhole, lens: lens)
        worstProjection = Swift.max(
          worstProjection,
          ((ours - SIMD2(theirs[0], theirs[1])) * (ours - SIMD2(theirs[0], theirs[1]))).sum().squareRoot())
      }
      for (px, theirs) in zip(c.pixels, answer.undistorted) {
        // OpenCV's answer counts where it is an inverse (it distorts back onto the pixel);
        // past a fisheye's image circle there is none, and ours must say so.
        let back = k.distortedPixel(SIMD2(theirs[0], theirs[1]), lens: lens)
        let openCVInverts = ((back - SIMD2(px[0], px[1])) * (back - SIMD2(px[0], px[1]))).sum() < 1e-12
        guard let ours = k.undistortedPixel(SIMD2(px[0], px[1]), lens: lens) else {
          #expect(!openCVInverts, "no inverse at \(px) for \(c.d), where OpenCV found \(theirs)")
          continue
        }
        guard openCVInverts else { continue }
        compared += 1
        worstUndistortion = Swift.max(
          worstUndistortion,
          ((ours - SIMD2(theirs[0], theirs[1])) * (ours - SIMD2(theirs[0], theirs[1]))).sum().squareRoot())
      }
    }
    #expect(worstProjection < 1e-6, "worst projection difference \(worstProjection) px")
    #expect(
      compared > 400 && worstUndistortion < 1e-6,
      "worst undistortion difference \(worstUndistortion) px over \(compared)")
  }

  @Test("undistorting what was distorted gives the point back (seeded, every model)")
  func roundTrip() throws {
    var rng = SplitMix64(seed: 51)
    for lens in [
      try LensDistortion(opencv: [-0.28, 0.07, 0.001, -0.0008, 0.0]),
      try LensDistortion(opencv: [0.2, -0.15, 0.0005, 0.001, 0.03, 0.1, -0.05, 0.01]),
      try LensDistortion(opencv: [0.04, -0.01, 0.003, -0.0005], fisheye: true),
    ] {
      for _ in 0..<2_000 {
        let p = SIMD2(Double.random(in: -0.7...0.7, using: &rng), Double.random(in: -0.5...0.5, using: &rng))
        let back = try #require(lens.undistort(lens.distort(p)))
        #expect(((back - p) * (back - p)).sum().squareRoot() < 1e-10, "\(lens) \(p)")
      }
    }
  }

  @Test(
    "bad coefficient lists are errors naming what to give",
    arguments: [
      ([0.1, 0.2, 0.3], false), ([0.1, 0.2, 0.3, 0.4, 0.5, 0.6], false), ([0.1, 0.2, 0.3], true),
      ([.nan, 0, 0, 0], false),
    ])
  func badCoefficients(_ c: [Double], _ fisheye: Bool) {
    #expect(throws: LensDistortionError.self) { try LensDistortion(opencv: c, fisheye: fisheye) }
  }
}
