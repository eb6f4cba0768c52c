import ARMath
import ARPose
import ARTestSupport
import Foundation

/// Marker pose against OpenCV's solvePnP(IPPE_SQUARE) and plane extraction against Open3D's
/// segment_plane, both through their Python bindings (Tools/peers), on the same inputs, in the
/// same run. The peers time themselves in a loop, so the rows include the bindings' call overhead
/// (about a microsecond a call for OpenCV), which favours us slightly on the marker row.
func poseWorkloads(quick: Bool) -> [Row] {
  var rows: [Row] = []
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("arscene-bench-\(getpid())")
  try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }

  // Marker views: the exact corners of the committed OpenCV fixture.
  let text = (try? String(contentsOfFile: "Tests/Fixtures/pose/markers.txt", encoding: .utf8)) ?? ""
  let views = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.prefix(quick ? 100 : 2000).map {
    $0.split(separator: " ").prefix(13).map { Double($0)! }
  }
  let viewFile = directory.appendingPathComponent("views.txt")
  try? views.map { $0.map { "\($0)" }.joined(separator: " ") }.joined(separator: "\n").write(
    to: viewFile, atomically: true, encoding: .utf8)
  // Fifteen rounds a side (a round is 13 ms): with five, one slow spell of the shared machine
  // covered all of ours in one run of six (16.8 ms where the others read 12.8–13.4).
  let rounds = 15
  let ours = (0..<rounds).map { _ in
    seconds {
      for v in views {
        let corners = (0..<4).map { SIMD2(v[5 + 2 * $0], v[6 + 2 * $0]) }
        blackHole(
          try? SquareMarker.pose(
            corners: corners, size: v[4], intrinsics: Pinhole(fx: v[0], fy: v[1], cx: v[2], cy: v[3])))
      }
    }
  }.min()!
  if let peer = runPeer(["/usr/bin/python3", "Tools/peers/opencv_marker_pose.py", viewFile.path, "\(rounds)"])
  {
    rows.append(
      Row(
        workload: "marker pose, \(views.count) views (ours: IPPE + LM + covariance)", ours_s: ours,
        peer: "OpenCV IPPE_SQUARE (Python)", peer_s: peer[0], ratio: ours / peer[0]))
  }

  // Planes: 100k points, a floor and a wall with 2 mm noise and 50% outliers; the largest plane.
  var rng = SplitMix64(seed: 12)
  let n = quick ? 10_000 : 100_000
  var points: [SIMD3<Double>] = []
  for i in 0..<n {
    if i % 2 == 0 {
      points.append([
        Double.random(in: -2...2, using: &rng), 0.002 * rng.gaussian(),
        Double.random(in: -2...2, using: &rng),
      ])
    } else if i % 4 == 1 {
      points.append([
        Double.random(in: -2...2, using: &rng), Double.random(in: 0...2.5, using: &rng),
        -2 + 0.002 * rng.gaussian(),
      ])
    } else {
      points.append([
        Double.random(in: -2...2, using: &rng), Double.random(in: 0...2.5, using: &rng),
        Double.random(in: -2...2, using: &rng),
      ])
    }
  }
  let cloudFile = directory.appendingPathComponent("cloud.xyz")
  try? points.map { "\($0.x) \($0.y) \($0.z)" }.joined(separator: "\n").write(
    to: cloudFile, atomically: true, encoding: .utf8)
  let detector = try! PlaneDetector(threshold: 0.006, minimumInliers: 100)
  let cloud = PointCloud(points: points)
  var found: DetectedPlane? = nil
  let oursPlane = (0..<rounds).map { _ in seconds { found = try? detector.largestPlane(cloud) } }.min()!
  let iterations = 1000
  if let peer = runPeer(
    ["python3", "Tools/peers/open3d_plane.py", cloudFile.path, "0.006", "\(iterations)", "\(rounds)"],
    pythonPath: true),
    peer.count == 5
  {
    rows.append(
      Row(
        workload: "largest plane in \(n / 1000)k points, 50% outliers", ours_s: oursPlane,
        peer: "Open3D segment_plane (\(iterations) iterations)", peer_s: peer[0], ratio: oursPlane / peer[0]))
    let theirs = SIMD3(peer[1], peer[2], peer[3]).normalized()
    let oursNormal = found?.normal ?? .zero
    poseAgreement = (
      Double.acos(min(1, abs(oursNormal.y))) * 180 / .pi, Double.acos(min(1, abs(theirs.y))) * 180 / .pi
    )
  }
  return rows
}

/// Normal errors (degrees) of the floor found by us and by Open3D in the last run.
nonisolated(unsafe) var poseAgreement: (Double, Double)? = nil

/// Runs a peer script and parses the numbers it prints; nil (with a note) if it cannot run.
func runPeer(_ command: [String], pythonPath: Bool = false) -> [Double]? {
  runPeer(
    command, pythonPath: pythonPath ? ProcessInfo.processInfo.environment["ARSCENE_PEERS_PYTHONPATH"] : nil)
}

/// Runs a peer with `pythonPath` (if any) as its PYTHONPATH.
func runPeer(_ command: [String], pythonPath: String?) -> [Double]? {
  peerOutput(command, pythonPath: pythonPath).map {
    $0.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
  }
}

/// What a peer script prints; nil (with a note) if it cannot run.
func peerOutput(_ command: [String], pythonPath: String? = nil) -> String? {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = command
  var environment = ProcessInfo.processInfo.environment
  // Only Open3D's interpreter gets the PyPI packages: Debian's OpenCV needs Debian's NumPy 1.
  if let pythonPath { environment["PYTHONPATH"] = pythonPath }
  process.environment = environment
  let pipe = Pipe()
  process.standardOutput = pipe
  do { try process.run() } catch {
    FileHandle.standardError.write(Data("arscene-bench: cannot run \(command[1]): \(error)\n".utf8))
    return nil
  }
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExitPromptly()
  guard process.terminationStatus == 0 else {
    FileHandle.standardError.write(
      Data("arscene-bench: \(command[1]) failed (is its library installed?)\n".utf8))
    return nil
  }
  return String(decoding: data, as: UTF8.self)
}
