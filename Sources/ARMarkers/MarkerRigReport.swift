import ARMath
import ARPose
import Foundation

/// What `arscene marker detect --rig` adds to its report: the rig's pose from every one of its
/// markers seen, in one PnP (`camera_from_object`, OpenCV camera convention), and which markers
/// were left out.
public struct MarkerRigReport: Encodable, Sendable {
  /// The rig's markers found once in the image, used for the pose.
  public var seen: [Int]
  /// Rig markers found more than once: two physical markers share the id (a rig printed
  /// twice, a second card), so neither is used.
  public var repeated: [Int]
  /// Seen markers whose own pose puts them more than a tenth of their side from where the
  /// rig's pose says they are: a marker moved on the object, or another object's.
  public var inconsistent: [Int]
  /// The rig's poses, best first: two when its markers seen are coplanar (as IPPE gives for
  /// one plane), else one; nil when no marker of the rig was used.
  public var pose: [PoseSolution]?
  /// Whether the two best poses explain the corners nearly equally well (as
  /// `MarkerPose.ambiguous` decides for one marker): the corners cannot tell them
  /// apart.
  public var ambiguous: Bool

  enum CodingKeys: String, CodingKey { case seen, repeated, inconsistent, pose, ambiguous }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(seen, forKey: .seen)
    try c.encode(repeated, forKey: .repeated)
    try c.encode(inconsistent, forKey: .inconsistent)
    try c.encode(pose, forKey: .pose)
    try c.encode(ambiguous, forKey: .ambiguous)
  }

  /// The rig's pose from `detected` (pixels, ARScene's convention) through the camera `k`,
  /// each corner weighted by its marker's ``DetectedMarker/poseSigma``.
  public init(rig: MarkerRig, detected: [DetectedMarker], intrinsics k: Pinhole<Double>) throws(PoseError) {
    let ids = Set(rig.markers.map(\.id))
    let counts = Dictionary(grouping: detected.filter { ids.contains($0.id) }, by: \.id)
    repeated = counts.filter { $0.value.count > 1 }.keys.sorted()
    let used = counts.filter { $0.value.count == 1 }.mapValues { $0[0] }
    seen = used.keys.sorted()
    guard !used.isEmpty else {
      (inconsistent, pose, ambiguous) = ([], nil, false)
      return
    }
    let sigma = (used.values.map { $0.poseSigma * $0.poseSigma }.reduce(0, +) / Double(used.count))
      .squareRoot()
    let solutions = try rig.pose(observed: used.mapValues(\.corners), intrinsics: k, pixelSigma: sigma)
    pose = solutions
    if solutions.count > 1 {
      let threshold = max(
        MarkerPose.ambiguityFloor, solutions[0].reprojectionError * MarkerPose.ambiguityRatio)
      ambiguous = solutions[1].reprojectionError <= threshold
    } else {
      ambiguous = false
    }
    // Each marker's own best pose against where the rig puts it.
    var off: [Int] = []
    if used.count > 1, let best = solutions.first {
      for (id, marker) in used {
        let placed = rig.markers.first { $0.id == id }!
        guard
          let own = try? SquareMarker.pose(
            corners: marker.corners, size: placed.size, intrinsics: k, pixelSigma: marker.poseSigma)
        else { continue }
        let expected = best.cameraFromTarget * placed.objectFromMarker
        // Either IPPE solution may be the right one for a lone marker.
        if !own.solutions.contains(where: {
          MarkerRig.isSameMarker($0.cameraFromTarget, expected, size: placed.size)
        }) {
          off.append(id)
        }
      }
    }
    inconsistent = off.sorted()
  }
}
