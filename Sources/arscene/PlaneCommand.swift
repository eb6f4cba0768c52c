import ARPose
import ArgumentParser
import Foundation

/// `arscene plane detect`: planes in a point cloud file.
struct PlaneCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "plane",
    abstract: "Planes in point clouds.",
    subcommands: [Detect.self]
  )

  struct Detect: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Detect planes in a .ply (ASCII or binary) or .xyz point cloud (metres).",
      discussion: """
        Prints JSON {"planes":[{"normal":[…],"offset":d,"centroid":[…],"inliers":n, \
        "classification":"horizontal|vertical|other","rms_m":…,"hull":[[x,y,z],…], \
        "extent":{"center":[…],"axis_x":[…],"axis_y":[…],"width":w,"length":l}},…]}, largest \
        first; the plane is normal·x = offset, the normal points up for horizontal planes and \
        towards the origin otherwise. No plane is an empty list, not an error.
        """)

    @Argument(help: "The point cloud file.")
    var file: String

    @Option(
      parsing: .unconditional, help: "The up direction X,Y,Z (opposite to gravity).",
      transform: DirectionValue.init(parsing:))
    var gravity: DirectionValue = DirectionValue(argument: "0,1,0")!

    @Option(help: "Inlier distance in metres (about 3σ of the depth noise).")
    var threshold: Double = 0.01

    @Option(help: "Smallest plane worth reporting, in points.")
    var minPoints: Int = 100

    @Option(help: "Ignore points with a lower confidence (when the file has them).")
    var minConfidence: Double = 0

    @Option(help: "Random seed (the result is the same for the same seed).")
    var seed: UInt64 = 1

    func validate() throws {
      guard threshold > 0, threshold.isFinite else {
        throw ValidationError("--threshold: expected metres > 0")
      }
      guard minConfidence.isFinite else {
        throw ValidationError("--min-confidence: expected a finite number")
      }
    }

    func run() throws {
      try reportingInputFailures {
        let up = gravity.unit
        let planes: [DetectedPlane]
        do {
          let cloud = try PointCloud.read(path: file)
          let detector = try PlaneDetector(
            threshold: threshold, up: up, minimumInliers: minPoints,
            minimumConfidence: minConfidence, seed: seed)
          planes = try detector.detect(cloud)
        } catch { throw InputFailure(message: "\(error)") }
        try JSONOutput.write(["planes": planes])
      }
    }
  }
}
