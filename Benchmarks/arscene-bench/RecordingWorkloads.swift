import ARGeo
import ARMath
import ARRecording
import Foundation

/// Trajectory metrics against evo (PyPI, the tool the field uses), and replaying a recording of
/// a million records (records a second, peak memory) against Python's json module reading the
/// same lines.
func recordingWorkloads(quick: Bool) -> [Row] {
  var rows: [Row] = []
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("arscene-bench-rec-\(getpid())")
  try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }

  // APE, SE(3): 100k poses, an estimate seen through a rigid transform with noise and jitter.
  let n = quick ? 5_000 : 100_000
  var rng = SplitMix64(seed: 31)
  var reference = Trajectory(timestamps: [], poses: []), estimate = Trajectory(timestamps: [], poses: [])
  var p = SIMD3<Double>.zero
  let turn = RigidTransform<Double>(rotation: Quaternion(angle: .radians(0.4), axis: [0.1, 1, 0.2]), translation: [3, 1, -2])
  for i in 0..<n {
    let t = 1000 + Double(i) * 0.05
    p += 0.03 * SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian())
    let pose = RigidTransform(rotation: Quaternion(angle: .radians(Double(i) * 1e-3), axis: [0, 1, 0]), translation: p)
    reference.timestamps.append(t)
    reference.poses.append(pose)
    estimate.timestamps.append(t + Double.random(in: -0.003...0.003, using: &rng))
    var moved = turn * pose
    moved.translation += 0.01 * SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian())
    estimate.poses.append(moved)
  }
  let (refPath, estPath) = (directory.appendingPathComponent("ref.tum").path, directory.appendingPathComponent("est.tum").path)
  try? TrajectoryFormat.tum.write(reference, to: refPath)
  try? TrajectoryFormat.tum.write(estimate, to: estPath)
  let rounds = quick ? 2 : 5
  var rmse = 0.0
  let ours = (0..<rounds).map { _ in
    seconds {
      guard let ref = try? TrajectoryFormat.tum.read(path: refPath), let est = try? TrajectoryFormat.tum.read(path: estPath),
        let pair = try? AlignedTrajectories(reference: ref, estimate: est, alignment: .se3)
      else { return }
      rmse = AbsolutePoseError(pair).statistics.rmse
    }
  }.min()!
  if let peer = runPeer(["/usr/bin/python3", "Tools/peers/evo_ape_time.py", refPath, estPath, "\(rounds)"], pythonPath: evoPythonPath) {
    rows.append(
      Row(
        workload: "APE, SE(3) aligned, \(n / 1000)k poses from TUM files (RMSE \(String(format: "%.4f", rmse)) m, evo \(String(format: "%.4f", peer.count > 1 ? peer[1] : .nan)))",
        ours_s: ours, peer: "evo 1.38 (Python)", peer_s: peer[0], ratio: ours / peer[0]))
  }

  // Replay: a simulated walk long enough for a million records, read and validated in a child
  // process so that its peak memory is its own.
  let site = GeoSite(
    frame: try! LocalTangentFrame(origin: GeodeticCoordinate(latitudeDegrees: 49.9587, longitudeDegrees: 14.3953, height: 437)),
    anchors: [
      ("gate", GeoAnchor(coordinate: GeodeticCoordinate(latitudeDegrees: 49.9587, longitudeDegrees: 14.3953, height: 437))),
      ("house", GeoAnchor(coordinate: GeodeticCoordinate(latitudeDegrees: 49.95889, longitudeDegrees: 14.39533, height: 437))),
    ])
  let records = quick ? 20_000 : 1_000_000
  let recording = directory.appendingPathComponent("walk.jsonl").path
  let simulator = SessionSimulator(
    site: site, path: try! WalkPath.tour(site), seed: 5, duration: Double(records) / 61.0)
  if let writer = try? RecordingWriter(path: recording, header: simulator.header) {
    try? simulator.run { record throws(RecordingError) in try writer.write(record) }
    try? writer.finish()
  }
  let size = (try? FileManager.default.attributesOfItem(atPath: recording)[.size] as? Int) ?? 0
  guard let child = runPeer([CommandLine.arguments[0], "--replay-child", recording, "\(rounds)"]), child.count >= 3,
    let peer = runPeer(["/usr/bin/python3", "Tools/peers/python_jsonl_replay.py", recording, "\(rounds)"])
  else { return rows }
  let (oursReplay, count, peakMB) = (child[0], Int(child[1]), child[2])
  rows.append(
    Row(
      workload:
        "replay + validate \(count / 1000)k records (\(size >> 20) MB): \(Int(Double(count) / oursReplay / 1000))k records/s, peak \(Int(peakMB)) MB",
      ours_s: oursReplay, peer: "Python json.loads, reading only", peer_s: peer[0], ratio: oursReplay / peer[0]))
  return rows
}

/// The PYTHONPATH with evo (installed by Tools/test and Tools/bench into .build/peers/evo).
let evoPythonPath = FileManager.default.currentDirectoryPath + "/.build/peers/evo"

/// `arscene-bench --replay-child FILE ROUNDS`: replays and validates FILE, printing the fastest
/// time in seconds, the records, and this process's peak resident memory in MB.
func replayChild(_ path: String, rounds: Int) -> Never {
  let site = GeoSite(
    frame: try! LocalTangentFrame(origin: GeodeticCoordinate(latitudeDegrees: 49.9587, longitudeDegrees: 14.3953, height: 437)),
    anchors: [
      ("gate", GeoAnchor(coordinate: GeodeticCoordinate(latitudeDegrees: 49.9587, longitudeDegrees: 14.3953, height: 437))),
      ("house", GeoAnchor(coordinate: GeodeticCoordinate(latitudeDegrees: 49.95889, longitudeDegrees: 14.39533, height: 437))),
    ])
  var best = Double.infinity, records = 0
  for _ in 0..<rounds {
    best = min(
      best,
      seconds {
        guard let reader = try? RecordingReader(path: path),
          let report = try? AnchorValidator.validate(reader, site: site)
        else { return }
        records = report.records
      })
  }
  var usage = rusage()
  getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
  print(best, records, Double(usage.ru_maxrss) / 1024)
  exit(0)
}
