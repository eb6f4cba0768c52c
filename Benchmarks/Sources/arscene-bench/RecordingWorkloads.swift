import ARGeo
import ARMath
import ARRecording
import ARScene
import ARTestSupport
import Foundation

/// Trajectory metrics against evo (PyPI, the tool the field uses), and replaying a recording of
/// a million records (records a second, peak memory) against Python's json module reading the
/// same lines.
func recordingWorkloads(quick: Bool) -> [Row] {
  var rows: [Row] = []
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
    "arscene-bench-rec-\(getpid())")
  try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }

  // APE, SE(3): 100k poses, an estimate seen through a rigid transform with noise and jitter.
  let n = quick ? 5_000 : 100_000
  var rng = SplitMix64(seed: 31)
  var reference = Trajectory(timestamps: [], poses: []), estimate = Trajectory(timestamps: [], poses: [])
  var p = SIMD3<Double>.zero
  let turn = RigidTransform<Double>(
    rotation: Quaternion(angle: .radians(0.4), axis: [0.1, 1, 0.2]), translation: [3, 1, -2])
  for i in 0..<n {
    let t = 1000 + Double(i) * 0.05
    p += 0.03 * SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian())
    let pose = RigidTransform(
      rotation: Quaternion(angle: .radians(Double(i) * 1e-3), axis: [0, 1, 0]), translation: p)
    reference.timestamps.append(t)
    reference.poses.append(pose)
    estimate.timestamps.append(t + Double.random(in: -0.003...0.003, using: &rng))
    var moved = turn * pose
    moved.translation += 0.01 * SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian())
    estimate.poses.append(moved)
  }
  let (refPath, estPath) = (
    directory.appendingPathComponent("ref.tum").path, directory.appendingPathComponent("est.tum").path
  )
  try? TrajectoryFormat.tum.write(reference, to: refPath)
  try? TrajectoryFormat.tum.write(estimate, to: estPath)
  let rounds = quick ? 2 : 5
  var rmse = 0.0
  let ours = (0..<rounds).map { _ in
    seconds {
      guard let ref = try? TrajectoryFormat.tum.read(path: refPath),
        let est = try? TrajectoryFormat.tum.read(path: estPath),
        let pair = try? AlignedTrajectories(reference: ref, estimate: est, alignment: .se3)
      else { return }
      rmse = AbsolutePoseError(pair).statistics.rmse
    }
  }.min()!
  if let peer = runPeer(
    ["/usr/bin/python3", "Tools/peers/evo_ape_time.py", refPath, estPath, "\(rounds)"],
    pythonPath: evoPythonPath)
  {
    rows.append(
      Row(
        workload:
          "APE, SE(3) aligned, \(n / 1000)k poses from TUM files (RMSE \(String(format: "%.4f", rmse)) m, evo \(String(format: "%.4f", peer.count > 1 ? peer[1] : .nan)))",
        ours_s: ours, peer: "evo 1.38 (Python)", peer_s: peer[0], ratio: ours / peer[0]))
  }

  // Replay: a simulated walk at Závist long enough for a million records, validated by the
  // arscene binary itself (built beside this one), so that its time is the command's and its
  // peak memory is its own.
  guard let geoSite = try? GeoSite.load(scene: "Scenes/zavist.json") else { return rows }
  let site = GeoSite(frame: geoSite.frame, anchors: geoSite.anchors)
  let records = quick ? 20_000 : 1_000_000
  let recording = directory.appendingPathComponent("walk.jsonl").path
  let simulator = SessionSimulator(
    site: site, path: try! WalkPath.tour(site), seed: 5, duration: Double(records) / 61.0)
  var count = 0
  if let writer = try? RecordingWriter(path: recording, header: simulator.header) {
    try? simulator.run { record throws(RecordingError) in
      try writer.write(record)
      count += 1
    }
    try? writer.finish()
  }
  let size = (try? FileManager.default.attributesOfItem(atPath: recording)[.size] as? Int) ?? 0
  let arscene = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("arscene").path
  var best = Double.infinity, peak = 0.0
  for _ in 0..<rounds {
    guard let (time, memory) = timedChild([arscene, "validate", recording, "--scene", "Scenes/zavist.json"])
    else {
      return rows
    }
    (best, peak) = (min(best, time), max(peak, memory))
  }
  guard
    let peer = runPeer(["/usr/bin/python3", "Tools/peers/python_jsonl_replay.py", recording, "\(rounds)"])
  else {
    return rows
  }
  rows.append(
    Row(
      workload:
        "arscene validate, \(count / 1000)k records (\(size >> 20) MB): \(Int(Double(count) / best / 1000))k records/s, peak \(Int(peak)) MB",
      ours_s: best, peer: "Python json.loads, reading only", peer_s: peer[0], ratio: best / peer[0]))
  return rows
}

/// The PYTHONPATH with evo (installed by Tools/test and Tools/bench into .build/peers/evo).
let evoPythonPath = FileManager.default.currentDirectoryPath + "/.build/peers/evo"

/// Runs `command` (output discarded) under GNU time and returns its wall-clock seconds and its
/// own peak resident memory in MB, or nil if it fails. GNU time forks a small process of its own
/// to run the command: a child spawned straight from this large process would report this
/// process's peak as its own (Linux carries the old address space's high-water mark across exec).
func timedChild(_ command: [String]) -> (seconds: Double, megabytes: Double)? {
  let report = FileManager.default.temporaryDirectory.appendingPathComponent("arscene-bench-time-\(getpid())")
    .path
  defer { try? FileManager.default.removeItem(atPath: report) }
  let clock = ContinuousClock()
  let start = clock.now
  guard let status = runChild(["/usr/bin/time", "-f", "%e %M", "-o", report] + command) else {
    FileHandle.standardError.write(Data("arscene-bench: cannot run /usr/bin/time (Debian time)\n".utf8))
    return nil
  }
  let elapsed = start.duration(to: clock.now)
  guard status == 0, let text = try? String(contentsOfFile: report, encoding: .utf8),
    let kilobytes = text.split(whereSeparator: \.isWhitespace).last.flatMap({ Double($0) })
  else {
    FileHandle.standardError.write(Data("arscene-bench: \(command.joined(separator: " ")) failed\n".utf8))
    return nil
  }
  return (
    Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18, kilobytes / 1024
  )
}
