import ARMath
import ARRecording
import ARTestSupport
import Foundation
import Testing

/// `arscene traj ape` and `rpe` against evo itself (PyPI `evo`, installed by Tools/test into
/// .build/peers/evo): the same files, every alignment evo has, every relation.
@Suite("arscene traj ape and rpe")
struct TrajCommandTests {
  /// A seeded random walk (reference) and an estimate of it seen through a similarity, with
  /// noise on positions and rotations, time jitter, and a few poses missing.
  static func trajectories(seed: UInt64) -> (Trajectory, Trajectory) {
    var rng = SplitMix64(seed: seed)
    var t = 1000.0, p = SIMD3<Double>.zero
    var reference = Trajectory(timestamps: [], poses: [])
    var estimate = Trajectory(timestamps: [], poses: [])
    let turn = Quaternion<Double>(angle: .radians(0.7), axis: [0.2, 1, -0.3])
    let (scale, shift) = (1.3, SIMD3<Double>(2, -1, 0.5))
    for i in 0..<300 {
      t += Double.random(in: 0.03...0.05, using: &rng)
      p += 0.05 * SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian())
      let q = Quaternion<Double>(
        angle: .radians(Double.random(in: 0...3, using: &rng)), axis: rng.unitVector3())
      reference.timestamps.append(t)
      reference.poses.append(RigidTransform(rotation: q, translation: p))
      guard i % 37 != 5 else { continue }  // dropouts
      let noise = Quaternion<Double>(angle: .radians(0.01 * rng.gaussian()), axis: rng.unitVector3())
      estimate.timestamps.append(t + Double.random(in: -0.004...0.004, using: &rng))
      estimate.poses.append(
        RigidTransform(
          rotation: (turn * q * noise).normalized(),
          translation: scale * turn.act(p) + shift + 0.01
            * SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian())))
    }
    return (reference, estimate)
  }

  struct Case: Encodable {
    var metric = "ape"
    var format: String, reference: String, estimate: String, align: String, relation: String
    /// The estimate's layout when it differs from the reference's.
    var estimate_format: String? = nil
    var t_max_diff = 0.01
    var n_to_align = -1
    var align_origin = false
    var delta = 1.0
    var delta_unit = "frames"
    var all_pairs = false
  }

  /// evo's statistics for each case, from one Python process.
  static func evo(_ cases: [Case]) throws -> [[String: Double]] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
      .standardized
    let python = Process()
    python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    python.arguments = [root.appendingPathComponent("Tests/Fixtures/traj/evo_metrics.py").path]
    python.environment = [
      "PYTHONPATH": ProcessInfo.processInfo.environment["ARSCENE_EVO_PYTHONPATH"]
        ?? root.appendingPathComponent(".build/peers/evo").path
    ]
    let input = Pipe(), output = Pipe(), errors = Pipe()
    (python.standardInput, python.standardOutput, python.standardError) = (input, output, errors)
    try python.run()
    input.fileHandleForWriting.write(try JSONEncoder().encode(cases))
    try input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    python.waitUntilExitPromptly()
    guard python.terminationStatus == 0 else {
      throw TrajectoryError.incomparable("evo failed (is it installed? Tools/test installs it): \(stderr)")
    }
    return try JSONDecoder().decode([[String: Double]].self, from: data)
  }

  @Test("equals evo's APE and RPE to 1e-9 for every alignment, relation, format and delta")
  func agreesWithEvo() throws {
    let dir = NSTemporaryDirectory() + "arscene-traj-\(UInt64.random(in: 0 ... .max))"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let (reference, estimate) = Self.trajectories(seed: 41)
    var files: [String: (String, String)] = [:]
    for format in TrajectoryFormat.allCases {
      let ext = ["tum": "tum", "euroc": "csv", "kitti": "kitti"][format.rawValue]!
      // KITTI has no time: its poses are paired by line, so both files hold every pose.
      let est = format == .kitti ? Self.trajectories(seed: 42).0 : estimate
      let paths = ("\(dir)/ref.\(ext)", "\(dir)/est.\(ext)")
      try format.write(reference, to: paths.0)
      try format.write(est, to: paths.1)
      files[format.rawValue] = paths
    }
    var cases: [Case] = []
    for align in ["none", "se3", "sim3", "scale"] {
      for relation in ["trans", "angle_deg", "full"] {
        cases.append(
          Case(
            format: "tum", reference: files["tum"]!.0, estimate: files["tum"]!.1, align: align,
            relation: relation))
      }
    }
    for format in ["euroc", "kitti"] {
      cases.append(
        Case(
          format: format, reference: files[format]!.0, estimate: files[format]!.1, align: "sim3",
          relation: "trans"))
    }
    let (ref, est) = files["tum"]!
    cases.append(
      Case(format: "tum", reference: ref, estimate: est, align: "none", relation: "full", align_origin: true))
    cases.append(
      Case(format: "tum", reference: ref, estimate: est, align: "se3", relation: "trans", n_to_align: 50))
    cases.append(
      Case(format: "tum", reference: ref, estimate: est, align: "se3", relation: "trans", t_max_diff: 0.002))
    for align in ["none", "se3", "sim3"] {
      for relation in ["trans", "angle_deg", "full"] {
        cases.append(
          Case(metric: "rpe", format: "tum", reference: ref, estimate: est, align: align, relation: relation))
      }
    }
    for (delta, unit, all) in [
      (5.0, "frames", false), (3.0, "frames", true), (0.5, "metres", false), (0.5, "metres", true),
    ] {
      cases.append(
        Case(
          metric: "rpe", format: "tum", reference: ref, estimate: est, align: "sim3", relation: "trans",
          delta: delta, delta_unit: unit, all_pairs: all))
    }
    cases.append(
      Case(
        metric: "rpe", format: "kitti", reference: files["kitti"]!.0, estimate: files["kitti"]!.1,
        align: "se3",
        relation: "angle_deg", delta: 10))
    let theirs = try Self.evo(cases)
    for (c, evo) in zip(cases, theirs) {
      var arguments = [
        "traj", c.metric, c.reference, c.estimate, "--format", c.format, "--align", c.align, "--relation",
        c.relation,
        "--t-max-diff", "\(c.t_max_diff)",
      ]
      if c.n_to_align > 0 { arguments += ["--n-to-align", "\(c.n_to_align)"] }
      if c.align_origin { arguments.append("--align-origin") }
      if c.metric == "rpe" {
        arguments += ["--delta", "\(c.delta)", "--delta-unit", c.delta_unit]
        if c.all_pairs { arguments.append("--all-pairs") }
      }
      let outcome = try ArsceneRunner.run(arguments)
      #expect(outcome.status == 0, "\(outcome.stderr)")
      try Self.expectSame(outcome.stdout, as: evo, within: 1e-9, arguments)
    }
  }

  /// Expects `arscene traj`'s JSON to hold evo's pair count and statistics, each within
  /// `tolerance` relative to the errors' size (a zero error, the first pose aligned at the
  /// origin, is round-off on either side).
  static func expectSame(
    _ json: String, as evo: [String: Double], within tolerance: Double, _ arguments: [String]
  ) throws {
    let ours = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    #expect(ours["pairs"] as? Int == Int(evo["pairs"] ?? -1), "\(arguments)")
    for key in ["rmse", "mean", "median", "std", "min", "max", "sse"] {
      let a = try #require(ours[key] as? Double), b = try #require(evo[key])
      #expect(
        abs(a - b) <= tolerance * max(abs(b), evo["rmse"] ?? 0),
        "\(key) \(a) against evo's \(b): \(arguments)")
    }
  }

  @Test("bad trajectories exit 2 naming the file, line and field")
  func badInput() throws {
    let dir = NSTemporaryDirectory() + "arscene-traj-bad-\(UInt64.random(in: 0 ... .max))"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let good = "1 0 0 0 0 0 0 1\n2 1 0 0 0 0 0 1\n3 2 0 0 0 0 0 1\n"
    let bad: [(String, String)] = [
      ("2 0 0 0 0 0 0 1\n1 1 0 0 0 0 0 1\n", ":2: timestamp"),  // out of order
      ("1 0 0 0 0 0 0 1\n2 1 0 0 0 0 0 0\n", ":2: fields 5–8"),  // zero quaternion
      ("1 0 0 0 0 0 0 1\n2 1 0 0 0 0", ":2: line"),  // truncated last line
      ("1 0 0 nan 0 0 0 1\n", ":1: field 4"),
    ]
    try good.write(toFile: dir + "/ref.tum", atomically: true, encoding: .utf8)
    for (i, (text, place)) in bad.enumerated() {
      let path = dir + "/bad\(i).tum"
      try text.write(toFile: path, atomically: true, encoding: .utf8)
      let outcome = try ArsceneRunner.run(["traj", "ape", dir + "/ref.tum", path])
      #expect(outcome.status == 2 && outcome.stdout.isEmpty, "\(text)")
      #expect(outcome.stderr.contains("bad\(i).tum" + place), "\(outcome.stderr)")
    }
    // No pose pairs in time.
    try "100 0 0 0 0 0 0 1\n101 1 0 0 0 0 0 1\n102 2 0 0 0 0 0 1\n".write(
      toFile: dir + "/late.tum", atomically: true, encoding: .utf8)
    let apart = try ArsceneRunner.run(["traj", "ape", dir + "/ref.tum", dir + "/late.tum"])
    #expect(apart.status == 2 && apart.stderr.contains("no poses"))
    // --lenient: the bad line skipped, said on stderr and counted in the output.
    try "1 0 0 0 0 0 0 1\n2 1 0 0 0 0 0 1\n2.5 nan 0 0 0 0 0 1\n3 2 0 0 0 0 0 1\n".write(
      toFile: dir + "/nan.tum", atomically: true, encoding: .utf8)
    let lenient = try ArsceneRunner.run(["traj", "ape", dir + "/ref.tum", dir + "/nan.tum", "--lenient"])
    #expect(lenient.status == 0 && lenient.stderr.contains("nan.tum:3"), "\(lenient.stderr)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(lenient.stdout.utf8)) as? [String: Any])
    #expect(json["skipped"] as? Int == 1 && json["pairs"] as? Int == 3)
    // RPE parameters outside their domain; an unknown unit is a usage error (64).
    for (arguments, named, status) in [
      (["--delta", "0"], "--delta", 2), (["--delta", "1.5"], "--delta", 2),
      (["--delta-unit", "furlongs"], "--delta-unit", 64), (["--delta", "9"], "no pose pairs", 2),
    ] {
      let outcome = try ArsceneRunner.run(["traj", "rpe", dir + "/ref.tum", dir + "/ref.tum"] + arguments)
      #expect(
        outcome.status == Int32(status) && outcome.stdout.isEmpty && outcome.stderr.contains(named),
        "\(outcome.stderr)")
    }
  }

  @Test("--interpolate compares trajectories sampled at different instants at the same instant")
  func interpolation() throws {
    let dir = NSTemporaryDirectory() + "arscene-traj-interp-\(UInt64.random(in: 0 ... .max))"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // Constant velocity (1.2 m/s) and a constant turn rate about one axis: what interpolation
    // reproduces exactly. The estimate is the same motion sampled 4 ms later than the reference.
    func motion(at t: Double) -> RigidTransform<Double> {
      RigidTransform(
        rotation: Quaternion(angle: .radians(0.8 * t), axis: [0.3, 1, 0.1]),
        translation: [1.2 * t, 0.1, -0.4 * t])
    }
    let times = (0..<200).map { 50 + Double($0) / 100 }
    let reference = Trajectory(timestamps: times, poses: times.map(motion))
    let shifted = times.map { $0 + 0.004 }
    let estimate = Trajectory(timestamps: shifted, poses: shifted.map(motion))
    try TrajectoryFormat.tum.write(reference, to: dir + "/ref.tum")
    try TrajectoryFormat.tum.write(estimate, to: dir + "/est.tum")
    func maxError(_ extra: [String]) throws -> (Double, Int) {
      let outcome = try ArsceneRunner.run(["traj", "ape", dir + "/ref.tum", dir + "/est.tum"] + extra)
      #expect(outcome.status == 0, "\(outcome.stderr)")
      let json = try #require(
        try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
      return (try #require(json["max"] as? Double), try #require(json["pairs"] as? Int))
    }
    let nearest = try maxError([])
    #expect(abs(nearest.0 - 0.004 * (1.2 * 1.2 + 0.4 * 0.4).squareRoot()) < 1e-6)
    let interpolated = try maxError(["--interpolate"])
    #expect(interpolated.0 < 1e-9 && interpolated.1 == 199)  // the last estimate is past the reference
    let angle = try maxError(["--interpolate", "--relation", "angle_deg"])
    #expect(angle.0 < 1e-6)
  }

  @Test("posyaw recovers a yaw and a translation exactly, and is unbiased with noise")
  func posyaw() throws {
    let (reference, _) = Self.trajectories(seed: 43)
    let yaw = Quaternion<Double>(angle: .degrees(37), axis: [0, 1, 0])
    let moved = RigidTransform(rotation: yaw, translation: [4, 0.5, -2])
    var estimate = reference
    estimate.poses = reference.poses.map { moved.inverse * $0 }
    let exact = AbsolutePoseError(
      try AlignedTrajectories(reference: reference, estimate: estimate, alignment: .posyaw))
    #expect(exact.statistics.max < 1e-9)
    #expect(abs(exact.alignment.translation[0] - 4) < 1e-9 && abs(exact.alignment.translation[2] + 2) < 1e-9)
    // With noise, the recovered yaw scatters around the truth.
    var rng = SplitMix64(seed: 44)
    var yaws: [Double] = []
    for _ in 0..<50 {
      var noisy = estimate
      noisy.poses = estimate.poses.map {
        RigidTransform(
          rotation: $0.rotation,
          translation: $0.translation + 0.05 * SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian()))
      }
      let fit = try AlignedTrajectories(reference: reference, estimate: noisy, alignment: .posyaw)
      yaws.append(Double.atan2(y: fit.alignment.rotation[0][2], x: fit.alignment.rotation[0][0]) * 180 / .pi)
    }
    let mean = yaws.reduce(0, +) / Double(yaws.count)
    let spread = (yaws.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(yaws.count - 1)).squareRoot()
    #expect(
      abs(abs(mean) - 37) < 3 * spread / Double(yaws.count).squareRoot() + 1e-6, "mean \(mean) ± \(spread)")
  }
}
