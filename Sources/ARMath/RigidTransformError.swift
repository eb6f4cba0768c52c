/// Why a matrix is not a rigid transform.
public enum RigidTransformError: Error, Equatable, Sendable, CustomStringConvertible {
  /// An element is NaN or infinite.
  case notFinite
  /// The last row is not `(0, 0, 0, 1)`.
  case notAffine
  /// `RᵀR` differs from the identity by `deviation` (largest entry), beyond the tolerance: the
  /// matrix scales or shears.
  case notOrthonormal(deviation: Double)
  /// `det R < 0`: a mirror image, which no camera or object pose can be.
  case reflection

  public var description: String {
    switch self {
    case .notFinite: "the matrix has a NaN or infinite element"
    case .notAffine: "the last row is not (0, 0, 0, 1)"
    case .notOrthonormal(let d): "the rotation part is not orthonormal (|RᵀR − I| up to \(d))"
    case .reflection: "the rotation part is a reflection (det < 0)"
    }
  }
}
