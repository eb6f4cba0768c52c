import ARMath
import RealModule

/// One pose of a planar target and how well it explains the observations.
public struct PoseSolution: Sendable, Equatable {
  /// `camera_from_target` in the camera convention ``convention``: OpenCV's (x right, y down,
  /// looking down +Z) as solved, where a target point X appears at `K·(R·X + t)`.
  public var cameraFromTarget: RigidTransform<Double>
  /// The camera frame's convention: `CameraConvention.opencv` unless re-expressed
  /// (``expressed(in:)``).
  public var convention: CameraConvention = .opencv
  /// Root-mean-square reprojection error over the points, pixels.
  public var reprojectionError: Double
  /// Covariance of the pose parameters (rotation vector perturbation in radians, then
  /// translation in metres; 6×6, row-major) for the given 1-σ pixel noise of the points; from the
  /// Gauss–Newton normal matrix at the solution.
  public var covariance: [Double]

  /// The rotation as a matrix.
  public var rotation: Matrix3<Double> { cameraFromTarget.rotation.matrix }
  /// The translation, metres.
  public var translation: SIMD3<Double> { cameraFromTarget.translation }
  /// 1-σ rotation uncertainty (radians) about the camera's x, y, z axes.
  public var rotationSigma: SIMD3<Double> {
    SIMD3(covariance[0].squareRoot(), covariance[7].squareRoot(), covariance[14].squareRoot())
  }
  /// 1-σ translation uncertainty, metres.
  public var translationSigma: SIMD3<Double> {
    SIMD3(covariance[21].squareRoot(), covariance[28].squareRoot(), covariance[35].squareRoot())
  }
}
