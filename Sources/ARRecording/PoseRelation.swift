import ARMath
import RealModule

/// What a pose error measures, of the error transform `E` between an estimated and a reference
/// pose (evo's pose relations).
public enum PoseRelation: String, Sendable, CaseIterable, Encodable {
  /// `E`'s translation: metres.
  case trans
  /// `E`'s rotation angle: degrees.
  case angleDeg = "angle_deg"
  /// `‖E − I‖` (Frobenius, 4×4): unitless.
  case full

  /// The error of `e`, a pose as written (its 3×3 part nearly orthonormal): its translation
  /// and `‖E − I‖` as they are, its angle that of the nearest rotation (the polar factor `U·Vᵀ`,
  /// as scipy's `Rotation.from_matrix`, which evo uses, takes it).
  public func error(_ e: WrittenPose) -> Double {
    switch self {
    case .trans: return e.translation.length
    case .angleDeg:
      return error(RigidTransform(rotationMatrix: e.rotation.nearestRotation, translation: e.translation))
    case .full:
      var sum = e.translation.lengthSquared
      for c in 0..<3 {
        for row in 0..<3 {
          let d = e.rotation[c, row] - (c == row ? 1 : 0)
          sum += d * d
        }
      }
      return sum.squareRoot()
    }
  }

  /// The error of `e`.
  public func error(_ e: RigidTransform<Double>) -> Double {
    switch self {
    case .trans:
      return e.translation.length
    case .angleDeg:
      let v = e.rotation.vector
      return 2 * Double.atan2(y: SIMD3(v.x, v.y, v.z).length, x: abs(v.w)) * 180 / .pi
    case .full:
      return error(WrittenPose(rotation: e.rotation.matrix, translation: e.translation))
    }
  }
}
