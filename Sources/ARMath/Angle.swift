import RealModule

/// A plane angle. The API works in radians; degrees exist only at the edges (JSON, CLI) where a
/// name says so, and this type is where the two meet.
@frozen
public struct Angle<Scalar: ARScalar>: Hashable, Comparable, Sendable, Codable {
  /// The angle in radians.
  public var radians: Scalar

  /// An angle of `radians` radians.
  @inlinable public init(radians: Scalar) { self.radians = radians }

  /// An angle of `degrees` degrees.
  @inlinable public init(degrees: Scalar) { self.radians = degrees * (Scalar.pi / 180) }

  /// An angle of `radians` radians.
  @inlinable public static func radians(_ radians: Scalar) -> Angle { Angle(radians: radians) }

  /// An angle of `degrees` degrees.
  @inlinable public static func degrees(_ degrees: Scalar) -> Angle { Angle(degrees: degrees) }

  /// The angle in degrees.
  @inlinable public var degrees: Scalar { radians * (180 / Scalar.pi) }

  /// The zero angle.
  @inlinable public static var zero: Angle { Angle(radians: 0) }

  /// The same direction wrapped into (−π, π].
  @inlinable public var wrappedToPlusMinusPi: Angle {
    var r = radians.remainder(dividingBy: 2 * Scalar.pi)  // in [−π, π]
    if r <= -Scalar.pi { r += 2 * Scalar.pi }
    return Angle(radians: r)
  }

  /// The same direction wrapped into [0, 2π); for compass headings.
  @inlinable public var wrappedToZeroTwoPi: Angle {
    var r = radians.remainder(dividingBy: 2 * Scalar.pi)
    if r < 0 { r += 2 * Scalar.pi }
    // A tiny negative angle plus 2π rounds to 2π itself, which is outside [0, 2π).
    return Angle(radians: r < 2 * Scalar.pi ? r : 0)
  }

  /// Whether `a` is the smaller angle (no wrapping).
  @inlinable public static func < (a: Angle, b: Angle) -> Bool { a.radians < b.radians }
  /// The sum (no wrapping).
  @inlinable public static func + (a: Angle, b: Angle) -> Angle { Angle(radians: a.radians + b.radians) }
  /// The difference (no wrapping).
  @inlinable public static func - (a: Angle, b: Angle) -> Angle { Angle(radians: a.radians - b.radians) }
  /// The opposite angle.
  @inlinable public static prefix func - (a: Angle) -> Angle { Angle(radians: -a.radians) }
  /// `a` scaled by `k`.
  @inlinable public static func * (a: Angle, k: Scalar) -> Angle { Angle(radians: a.radians * k) }
  /// `a` scaled by `k`.
  @inlinable public static func * (k: Scalar, a: Angle) -> Angle { Angle(radians: a.radians * k) }
  /// `a` divided by `k`.
  @inlinable public static func / (a: Angle, k: Scalar) -> Angle { Angle(radians: a.radians / k) }

  /// The sine of the angle.
  @inlinable public var sin: Scalar { Scalar.sin(radians) }
  /// The cosine of the angle.
  @inlinable public var cos: Scalar { Scalar.cos(radians) }
  /// The tangent of the angle.
  @inlinable public var tan: Scalar { Scalar.tan(radians) }
}
