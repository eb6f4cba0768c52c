import RealModule

/// The scalar types the math core is written for: `Float` (rasterizer hot loops) and `Double`
/// (geodesy, pose estimation, hit-testing).
///
/// Every generic type in `ARMath` is `@frozen` with `@inlinable` operations, so a client that uses
/// `Matrix4<Float>` gets code specialised for `Float`, as fast as a hand-written concrete type.
/// `Real` (swift-numerics) supplies the elementary functions (`sin`, `cos`, `atan2`, …).
public protocol ARScalar: Real, BinaryFloatingPoint, SIMDScalar, Sendable, Codable
where Self.SIMD2Storage: Sendable, Self.SIMD4Storage: Sendable {
  /// The tolerance below which a length, determinant or pivot is treated as zero by the
  /// `…OrNil` operations: about `1e3 · ulpOfOne` relative to the data's scale.
  static var degeneracyTolerance: Self { get }
}

extension Float: ARScalar {
  /// `Float`'s: 1e-6.
  @inlinable public static var degeneracyTolerance: Float { 1e-6 }
}

extension Double: ARScalar {
  /// `Double`'s: 1e-12.
  @inlinable public static var degeneracyTolerance: Double { 1e-12 }
}
