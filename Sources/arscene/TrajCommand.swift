import ARMath
import ARRecording
import ArgumentParser

/// `arscene traj`: trajectory errors, as evo computes them.
struct TrajCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "traj",
    abstract: "Trajectory errors of an estimate against a reference (as evo's evo_ape and evo_rpe).",
    subcommands: [APE.self, RPE.self, Drift.self]
  )

  /// The files, their pairing in time and the alignment: what `ape` and `rpe` share.
  struct Pairing: ParsableArguments {
    @Argument(help: "The reference trajectory file.") var reference: String
    @Argument(help: "The estimated trajectory file.") var estimate: String

    @Option(help: "tum, euroc or kitti (default: from the file names: .tum/.txt, .csv, .kitti).")
    var format: TrajectoryFormat?
    @Option(help: "none, se3, sim3, scale or posyaw (yaw about gravity and translation).")
    var align: PoseAlignment = .none
    @Flag(help: "Without an alignment, move EST so its first pose is REF's.") var alignOrigin = false
    @Option(help: "Align on the first N pairs only.") var nToAlign: Int?
    @Option(help: "trans (metres), angle_deg or full.") var relation: PoseRelation = .trans
    @Option(help: "The up axis for posyaw: x, y or z.") var gravityAxis: AxisChoice = .y
    @Option(help: "Largest time difference of a pair, seconds.") var tMaxDiff: Double = 0.01
    @Option(help: "Seconds added to EST's times before pairing.") var tOffset: Double = 0
    @Flag(
      help: """
        Pair each EST pose with REF interpolated at its time (REF's poses either side within \
        --t-max-diff) instead of REF's nearest pose.
        """)
    var interpolate = false
    @Flag(help: "Skip bad lines with a warning (counted as \"skipped\" in the output) instead of failing.")
    var lenient = false

    func validate() throws {
      guard tMaxDiff >= 0, tMaxDiff.isFinite, tOffset.isFinite else {
        throw ValidationError("--t-max-diff and --t-offset: expected finite seconds, the first ≥ 0")
      }
      if let nToAlign, nToAlign < 1 { throw ValidationError("--n-to-align: expected at least 1") }
    }

    /// Both files read, paired and aligned, and the lines skipped reading them.
    func aligned() throws -> (AlignedTrajectories, skipped: Int) {
      let (alignment, gravity, named) = (align, gravityAxis.unit, format)
      var skipped = 0
      func read(_ path: String) throws -> Trajectory {
        // Told by its content, as evo's formats and the loggers' pose files are.
        let layout: RecordingFormat
        do {
          layout =
            try named.map { RecordingFormat(rawValue: $0.rawValue)! } ?? RecordingFormat(detecting: path)
        } catch {
          // This command names the layout with --format (evo's three).
          throw InputFailure(
            message: "\(error)".replacingOccurrences(of: "give --from", with: "give --format"))
        }
        let evoFormats: [RecordingFormat: TrajectoryFormat] = [.tum: .tum, .euroc: .euroc, .kitti: .kitti]
        guard !lenient, let chosen = evoFormats[layout] else { return try poses(path, layout) }
        do {
          var warnings: [String] = []
          defer { for w in warnings { FileHandleOutput.standardError.write("arscene: warning: \(w)\n") } }
          do { return try chosen.read(path: path, warnings: &warnings) } catch { throw InputFailure(error) }
        }
      }
      // Leniently, or a logger's poses: streamed through the recording reader, which (lenient)
      // skips and counts bad lines.
      func poses(_ path: String, _ layout: RecordingFormat) throws -> Trajectory {
        do {
          let reader = try RecordingReader(path: path, format: layout, lenient: lenient)
          var trajectory = Trajectory(timestamps: [], poses: [])
          try reader.forEach { record in
            guard case .pose(let p) = record else { return }
            trajectory.timestamps.append(p.time)
            trajectory.poses.append(p.worldFromCamera)
          }
          for w in reader.warnings { FileHandleOutput.standardError.write("arscene: warning: \(w)\n") }
          skipped += reader.skipped
          return trajectory
        } catch { throw InputFailure(error) }
      }
      let (ref, est) = (try read(reference), try read(estimate))
      do {
        return (
          try AlignedTrajectories(
            reference: ref, estimate: est, alignment: alignment, alignOrigin: alignOrigin,
            alignmentPoses: nToAlign, gravity: gravity, maxTimeDifference: tMaxDiff, timeOffset: tOffset,
            interpolate: interpolate), skipped
        )
      } catch { throw InputFailure(error) }
    }
  }

  static let outputHelp = """
    Prints JSON {"rmse":…,"mean":…,"median":…,"std":…,"min":…,"max":…,"sse":…,"pairs":n,\
    "alignment":{"kind":…,"rotation":[[…]],"translation":[…],"scale":s},"skipped":n}, the \
    statistics in the units of --relation (trans: metres, angle_deg: degrees, full: unitless).
    """

  struct APE: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "ape",
      abstract: "Absolute pose error of EST against REF.",
      discussion: """
        Poses are paired by time (the nearest within --t-max-diff seconds, EST's times shifted by \
        --t-offset), EST is aligned to REF, and one error per pair is taken. \(outputHelp)
        """)

    @OptionGroup var pairing: Pairing

    func run() throws {
      try reportingInputFailures {
        let relation = pairing.relation
        let (aligned, skipped) = try pairing.aligned()
        var result = AbsolutePoseError(aligned, relation: relation)
        result.skipped = skipped
        try JSONOutput.write(result)
      }
    }
  }

  struct RPE: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "rpe",
      abstract: "Relative pose error of EST against REF: the drift over --delta.",
      discussion: """
        Poses are paired and EST aligned as for ape; then pose pairs (i, j) are chosen on EST \
        --delta apart (consecutive and non-overlapping, or every start with --all-pairs), and \
        each error is of the relative motion over the pair, EST's against REF's. \(outputHelp)
        """)

    @OptionGroup var pairing: Pairing
    @Option(help: "The distance between the poses of a pair, in --delta-unit.") var delta: Double = 1
    @Option(help: "frames (a whole number of poses) or metres (travelled along EST).")
    var deltaUnit: RelativePoseError.DeltaUnit = .frames
    @Flag(help: "Every pose starts a pair (with metres: the pose nearest --delta, within 10%).")
    var allPairs = false

    func run() throws {
      try reportingInputFailures {
        let (relation, unit) = (pairing.relation, deltaUnit)
        let (aligned, skipped) = try pairing.aligned()
        var result: RelativePoseError
        do throws(TrajectoryError) {
          result = try RelativePoseError(
            aligned, relation: relation, delta: delta, unit: unit, allPairs: allPairs)
        } catch {
          if case .invalidParameter(let name, let reason) = error {
            throw InputFailure(message: "--\(name): \(reason)")
          }
          throw InputFailure(error)
        }
        result.skipped = skipped
        try JSONOutput.write(result)
      }
    }
  }
}
