import ARMath

/// The pose of a square fiducial marker (ArUco, AprilTag, a printed card) from its four corners.
public struct MarkerPose: Sendable, Equatable {
  /// Both poses a square can have under perspective, best (lowest reprojection error) first.
  public var solutions: [PoseSolution]
  /// True when the two are nearly equally good, so the corners cannot tell them apart (a small
  /// or far marker seen nearly head-on): the second solution's error is within
  /// ``ambiguityRatio`` of the first's, or both are below noise (``ambiguityFloor`` px).
  public var ambiguous: Bool

  /// Solutions whose reprojection errors differ by less than this ratio are ambiguous.
  public static let ambiguityRatio = 1.5
  /// Below this error (pixels) both solutions fit the corners to within noise.
  public static let ambiguityFloor = 0.1
}
