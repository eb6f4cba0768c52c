import ARMath
import ARRecording
import ArgumentParser

/// `arscene traj`: trajectory errors, as evo computes them.
struct TrajCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "traj",
    abstract: "Trajectory errors of an estimate against a reference (as evo's evo_ape).",
    subcommands: [APE.self]
  )

  struct APE: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "ape",
      abstract: "Absolute pose error of EST against REF.",
      discussion: """
        Poses are paired by time (the nearest within --t-max-diff seconds, EST's times shifted by \
        --t-offset), EST is aligned to REF, and one error per pair is taken. Prints JSON \
        {"rmse":…,"mean":…,"median":…,"std":…,"min":…,"max":…,"sse":…,"pairs":n,"alignment":\
        {"kind":…,"rotation":[[…]],"translation":[…],"scale":s}}, the statistics in the units \
        of --relation (trans: metres, angle_deg: degrees, full: unitless).
        """)

    @Argument(help: "The reference trajectory file.") var reference: String
    @Argument(help: "The estimated trajectory file.") var estimate: String

    @Option(help: "tum, euroc or kitti (default: from the file names: .tum/.txt, .csv, .kitti).")
    var format: String?
    @Option(help: "none, se3, sim3, scale or posyaw (yaw about gravity and translation).")
    var align: String = "none"
    @Flag(help: "Without an alignment, move EST so its first pose is REF's.") var alignOrigin = false
    @Option(help: "Align on the first N pairs only.") var nToAlign: Int?
    @Option(help: "trans (metres), angle_deg or full.") var relation: String = "trans"
    @Option(help: "The up axis for posyaw: x, y or z.") var gravityAxis: String = "y"
    @Option(help: "Largest time difference of a pair, seconds.") var tMaxDiff: Double = 0.01
    @Option(help: "Seconds added to EST's times before pairing.") var tOffset: Double = 0

    func run() throws {
      try reportingInputFailures {
        guard let alignment = AbsolutePoseError.Alignment(rawValue: align) else {
          throw InputFailure(message: "--align: expected none, se3, sim3, scale or posyaw, got '\(align)'")
        }
        guard let relation = AbsolutePoseError.Relation(rawValue: relation) else {
          throw InputFailure(message: "--relation: expected trans, angle_deg or full, got '\(self.relation)'")
        }
        let axes: [String: SIMD3<Double>] = ["x": [1, 0, 0], "y": [0, 1, 0], "z": [0, 0, 1]]
        guard let gravity = axes[gravityAxis] else {
          throw InputFailure(message: "--gravity-axis: expected x, y or z, got '\(gravityAxis)'")
        }
        guard tMaxDiff >= 0, tMaxDiff.isFinite, tOffset.isFinite else {
          throw InputFailure(message: "--t-max-diff and --t-offset: expected finite seconds, the first ≥ 0")
        }
        if let nToAlign, nToAlign < 1 { throw InputFailure(message: "--n-to-align: expected at least 1") }
        func read(_ path: String) throws -> Trajectory {
          let named = try format.map { name throws -> TrajectoryFormat in
            guard let f = TrajectoryFormat(rawValue: name) else {
              throw InputFailure(message: "--format: expected tum, euroc or kitti, got '\(name)'")
            }
            return f
          }
          guard let chosen = named ?? TrajectoryFormat(path: path) else {
            throw InputFailure(message: "\(path): cannot tell the format from the name; give --format")
          }
          do { return try chosen.read(path: path) } catch { throw InputFailure(message: error.description) }
        }
        let (ref, est) = (try read(reference), try read(estimate))
        let result: AbsolutePoseError
        do {
          result = try AbsolutePoseError(
            reference: ref, estimate: est, alignment: alignment, alignOrigin: alignOrigin,
            alignmentPoses: nToAlign, relation: relation, gravity: gravity, maxTimeDifference: tMaxDiff,
            timeOffset: tOffset)
        } catch { throw InputFailure(error) }
        try JSONOutput.write(result)
      }
    }
  }
}
