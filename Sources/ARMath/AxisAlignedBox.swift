/// An axis-aligned box `[min, max]`, e.g. a mesh's bounds. Positions in metres (or model units).
///
/// The ``empty`` box has `min = +∞`, `max = −∞`, so growing it by any point gives that point.
@frozen
public struct AxisAlignedBox<Scalar: ARScalar>: Hashable, Sendable {
  /// The corner with the smallest coordinates.
  public var min: SIMD3<Scalar>
  /// The corner with the largest coordinates.
  public var max: SIMD3<Scalar>

  /// The box with the given corners.
  @inlinable
  public init(min: SIMD3<Scalar>, max: SIMD3<Scalar>) {
    self.min = min
    self.max = max
  }

  /// The box that contains nothing; the identity of ``union(_:)``.
  @inlinable
  public static var empty: AxisAlignedBox {
    AxisAlignedBox(min: SIMD3(repeating: .infinity), max: SIMD3(repeating: -.infinity))
  }

  /// The smallest box containing `points` (``empty`` for none).
  @inlinable
  public init<S: Sequence>(enclosing points: S) where S.Element == SIMD3<Scalar> {
    self = .empty
    for p in points { formUnion(p) }
  }

  /// Whether the box contains no point.
  @inlinable
  public var isEmpty: Bool { min.x > max.x || min.y > max.y || min.z > max.z }

  /// The centre; meaningless for an empty box.
  @inlinable
  public var center: SIMD3<Scalar> { (min + max) / 2 }

  /// The edge lengths, `max − min`.
  @inlinable
  public var size: SIMD3<Scalar> { max - min }

  /// Grows the box to include `p`.
  @inlinable
  public mutating func formUnion(_ p: SIMD3<Scalar>) {
    min = pointwiseMin(min, p)
    max = pointwiseMax(max, p)
  }

  /// The smallest box containing both boxes.
  @inlinable
  public func union(_ other: AxisAlignedBox) -> AxisAlignedBox {
    AxisAlignedBox(min: pointwiseMin(min, other.min), max: pointwiseMax(max, other.max))
  }

  /// Whether `p` lies inside or on the box.
  @inlinable
  public func contains(_ p: SIMD3<Scalar>) -> Bool {
    p.x >= min.x && p.y >= min.y && p.z >= min.z && p.x <= max.x && p.y <= max.y && p.z <= max.z
  }
}
