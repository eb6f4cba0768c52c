import ARMath
import Foundation
import Testing

/// `--distortion` and `--fisheye` end to end: `project` puts points where the lens does,
/// `undistort` takes them back, `pose marker` poses from undistorted corners. The lens models
/// themselves are checked against OpenCV in `LensDistortionTests`.
@Suite("arscene with lens distortion")
struct LensCommandTests {
  static let identity = "1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1"
  static let webcam = "-0.28,0.07,0.0012,-0.0008,0.0"
  static let gopro = "0.04,-0.01,0.003,-0.0005"

  static func numbers(_ text: String) -> [[Double]] {
    text.split(separator: "\n").map { $0.split(separator: " ").compactMap { Double($0) } }
  }

  @Test(
    "project --distortion and --fisheye put points where the lens does; undistort takes them back",
    arguments: [
      ("--distortion", webcam), ("--fisheye", gopro),
    ])
  func projectAndUndistort(flag: String, coefficients: String) throws {
    let points = "0.5 0.2 3\n-1 0.8 2\n0 0 4\n1.2 -0.9 2.5\n"
    let camera = ["--intrinsics", "1000,990,960,720"]
    let pinhole = try ArsceneRunner.run(
      ["project"] + camera + [
        "--size", "1920,1440", "--world-from-camera", Self.identity, "--convention", "opencv", "--decimals",
        "9",
      ],
      stdin: points)
    let distorted = try ArsceneRunner.run(
      ["project"] + camera + [
        "--size", "1920,1440", "--world-from-camera", Self.identity, "--convention", "opencv", "--decimals",
        "9", flag, coefficients,
      ],
      stdin: points)
    #expect(pinhole.status == 0 && distorted.status == 0, "\(distorted.stderr)")
    let lens = try LensDistortion(
      opencv: coefficients.split(separator: ",").map { Double($0)! }, fisheye: flag == "--fisheye")
    let k = CameraIntrinsics<Double>(fx: 1000, fy: 990, cx: 960, cy: 720, width: 1920, height: 1440)
    for (ideal, ours) in zip(Self.numbers(pinhole.stdout), Self.numbers(distorted.stdout)) {
      let expected = k.pinhole.distortedPixel(SIMD2(ideal[0], ideal[1]), lens: lens)
      #expect(abs(ours[0] - expected.x) < 1e-8 && abs(ours[1] - expected.y) < 1e-8, "\(ours) \(expected)")
      #expect(
        abs(ours[0] - ideal[0]) + abs(ours[1] - ideal[1]) > 1 || ideal[0] == 960, "the lens moved nothing")
    }
    let pixels = Self.numbers(distorted.stdout).map { "\($0[0]) \($0[1])" }.joined(separator: "\n")
    let back = try ArsceneRunner.run(
      ["undistort"] + camera + [flag, coefficients, "--decimals", "9"], stdin: pixels)
    #expect(back.status == 0, "\(back.stderr)")
    for (ideal, undone) in zip(Self.numbers(pinhole.stdout), Self.numbers(back.stdout)) {
      #expect(abs(undone[0] - ideal[0]) < 1e-6 && abs(undone[1] - ideal[1]) < 1e-6, "\(undone) \(ideal)")
    }
  }

  @Test(
    "pose marker --distortion poses from the undistorted corners: the true pose, where a pinhole misses it")
  func poseMarker() throws {
    // A 16 cm marker 60 cm in front, turned, near the image's edge where the lens bends most.
    let k = CameraIntrinsics<Double>(fx: 1000, fy: 1000, cx: 960, cy: 720, width: 1920, height: 1440)
    let lens = try LensDistortion(opencv: Self.webcam.split(separator: ",").map { Double($0)! })
    let rotation = Quaternion<Double>(angle: .degrees(25), axis: SIMD3(0.3, 1, 0.1).normalized())
    let translation = SIMD3<Double>(0.28, -0.17, 0.6)
    let s = 0.08
    let corners = [SIMD3(-s, s, 0), SIMD3(s, s, 0), SIMD3(s, -s, 0), SIMD3(-s, -s, 0)].map { corner in
      let p = rotation.act(corner) + translation
      return k.pinhole.distortedPixel(SIMD2(k.fx * p.x / p.z + k.cx, k.fy * p.y / p.z + k.cy), lens: lens)
    }
    let list = corners.flatMap { [$0.x, $0.y] }.map { String($0) }.joined(separator: ",")
    let base = ["pose", "marker", "--size", "0.16", "--intrinsics", "1000,1000,960,720", "--corners", list]
    func translationError(_ arguments: [String]) throws -> Double {
      let outcome = try ArsceneRunner.run(arguments)
      #expect(outcome.status == 0, "\(outcome.stderr)")
      let json = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
      let best = try #require((json?["solutions"] as? [[String: Any]])?.first?["translation"] as? [Double])
      return
        ((SIMD3(best[0], best[1], best[2]) - translation) * (SIMD3(best[0], best[1], best[2]) - translation))
        .sum().squareRoot()
    }
    #expect(try translationError(base + ["--distortion", Self.webcam]) < 1e-6)
    #expect(try translationError(base) > 0.005)
  }

  @Test(
    "bad lens options exit 64 naming the option",
    arguments: [
      (["--distortion", "0.1,0.2,0.3"], "--distortion: 3 coefficients"),
      (["--fisheye", "0.1,0.2"], "--fisheye: 2 fisheye coefficients"),
      (["--distortion", "0.1,0.2,0,0", "--fisheye", "0,0,0,0"], "give one lens model"),
      (["--distortion", "0.1,x,0,0"], "--distortion: field 2 is not a number"),
    ])
  func badOptions(_ options: [String], _ message: String) throws {
    let outcome = try ArsceneRunner.run(["undistort", "--intrinsics", "1000,1000,960,720"] + options)
    #expect(outcome.status == 64 && outcome.stderr.contains(message), "\(outcome.stderr)")
  }

  @Test("a corner past a fisheye's image circle is an error naming it, exit 2")
  func cornerPastImageCircle() throws {
    let outcome = try ArsceneRunner.run([
      "pose", "marker", "--size", "0.16", "--intrinsics", "1000,1000,960,720", "--fisheye", Self.gopro,
      "--corners", "900,700,1000,700,1000,800,6000,800",
    ])
    #expect(
      outcome.status == 2
        && outcome.stderr.contains("--corners: corner 3 lies past the lens model's image circle"),
      "\(outcome.stderr)")
  }
}
