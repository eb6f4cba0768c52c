import ARMath

/// A pose as a file wrote it: the 3×3 part of KITTI's `[R | t]` lines as printed, which rounding
/// (9 digits in KITTI's ground truth, often 7 in estimates) leaves only nearly orthonormal. The
/// relative pose error is computed on these, as evo computes it, rather than on the rotations
/// made exactly orthonormal on reading: the two differ by micrometres over a KITTI sequence.
public struct WrittenPose: Sendable, Equatable {
  /// The 3×3 part as written.
  public var rotation: Matrix3<Double>
  /// The translation, metres.
  public var translation: SIMD3<Double>

  /// A pose of these parts.
  public init(rotation: Matrix3<Double>, translation: SIMD3<Double>) {
    (self.rotation, self.translation) = (rotation, translation)
  }

  /// The inverse as evo takes it, `[Rᵀ | −Rᵀt]`: exact for a rotation, and what evo computes
  /// for the matrix as written.
  public var inverse: WrittenPose {
    let transposed = rotation.transposed
    return WrittenPose(rotation: transposed, translation: -(transposed * translation))
  }

  /// `a` then `b`: `[Ra·Rb | Ra·tb + ta]`.
  public static func * (a: WrittenPose, b: WrittenPose) -> WrittenPose {
    WrittenPose(rotation: a.rotation * b.rotation, translation: a.rotation * b.translation + a.translation)
  }
}
