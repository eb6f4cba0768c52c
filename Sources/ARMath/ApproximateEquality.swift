// Tolerant comparison for vectors, matrices and rotations: for tests and for convergence checks,
// never for `Equatable` (which stays exact). Scalars use swift-numerics'
// `isApproximatelyEqual(to:absoluteTolerance:relativeTolerance:)`, and these follow its rule
// element-wise in the max-norm:
//
//     ‖a − b‖∞ ≤ max(absoluteTolerance, relativeTolerance · max(‖a‖∞, ‖b‖∞))
//
// so one tolerance covers every element at the scale of the whole object.

extension SIMD where Scalar: ARScalar {
  /// The largest absolute component, `‖self‖∞`.
  @inlinable
  public var maxMagnitude: Scalar {
    var m: Scalar = 0
    for i in indices { m = Swift.max(m, Swift.abs(self[i])) }
    return m
  }

  /// Whether `self` and `other` agree in the max-norm within the given tolerances (see above).
  /// NaN never compares equal.
  @inlinable
  public func isApproximatelyEqual(
    to other: Self, absoluteTolerance: Scalar = 0, relativeTolerance: Scalar = 0
  ) -> Bool {
    let scale = Swift.max(maxMagnitude, other.maxMagnitude)
    return (self - other).maxMagnitude <= Swift.max(absoluteTolerance, relativeTolerance * scale)
  }
}

extension Matrix3 {
  /// The largest absolute element.
  @inlinable
  public var maxMagnitude: Scalar {
    Swift.max(columns.0.maxMagnitude, columns.1.maxMagnitude, columns.2.maxMagnitude)
  }

  /// Whether the matrices agree element-wise within the tolerances, relative to the larger
  /// matrix's largest element.
  @inlinable
  public func isApproximatelyEqual(
    to other: Matrix3, absoluteTolerance: Scalar = 0, relativeTolerance: Scalar = 0
  ) -> Bool {
    let scale = Swift.max(maxMagnitude, other.maxMagnitude)
    return (self - other).maxMagnitude <= Swift.max(absoluteTolerance, relativeTolerance * scale)
  }
}

extension Matrix4 {
  /// The largest absolute element.
  @inlinable
  public var maxMagnitude: Scalar {
    Swift.max(
      columns.0.maxMagnitude, columns.1.maxMagnitude, columns.2.maxMagnitude,
      columns.3.maxMagnitude)
  }

  /// Whether the matrices agree element-wise within the tolerances, relative to the larger
  /// matrix's largest element.
  @inlinable
  public func isApproximatelyEqual(
    to other: Matrix4, absoluteTolerance: Scalar = 0, relativeTolerance: Scalar = 0
  ) -> Bool {
    let scale = Swift.max(maxMagnitude, other.maxMagnitude)
    let d = Matrix4(
      columns.0 - other.columns.0, columns.1 - other.columns.1, columns.2 - other.columns.2,
      columns.3 - other.columns.3)
    return d.maxMagnitude <= Swift.max(absoluteTolerance, relativeTolerance * scale)
  }
}

extension Quaternion {
  /// Whether the two unit quaternions are the same rotation within `tolerance` per component,
  /// treating `q` and `−q` as equal.
  @inlinable
  public func isSameRotation(as other: Quaternion, tolerance: Scalar) -> Bool {
    vector.isApproximatelyEqual(to: other.vector, absoluteTolerance: tolerance)
      || vector.isApproximatelyEqual(to: -other.vector, absoluteTolerance: tolerance)
  }
}
