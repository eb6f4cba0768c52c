import ARMath
import RealModule

/// A similarity `target ≈ s·R·source + t` between two point sets.
public struct Similarity: Sendable, Equatable {
  /// The rotation.
  public var rotation: Matrix3<Double>
  /// The translation, metres.
  public var translation: SIMD3<Double>
  /// The scale (1 when not estimated).
  public var scale: Double
  /// Root-mean-square residual after alignment, metres.
  public var rms: Double

  /// A similarity from its parts; `rms` is the residual it left, if known.
  public init(rotation: Matrix3<Double>, translation: SIMD3<Double>, scale: Double = 1, rms: Double = 0) {
    self.rotation = rotation
    self.translation = translation
    self.scale = scale
    self.rms = rms
  }

  /// The transform applied to a point.
  public func apply(_ p: SIMD3<Double>) -> SIMD3<Double> { scale * (rotation * p) + translation }
  /// As a rigid transform (the scale dropped).
  public var rigid: RigidTransform<Double> {
    RigidTransform(rotationMatrix: rotation, translation: translation)
  }
}
