import ARMath
import RealModule

/// The one place where local east-north-up meets the AR world frame.
///
/// ARKit's `gravityAndHeading` world frame is right-handed with +Y up: x = east, y = up,
/// z = south. So ENU (e, n, u) ↦ world (e, u, −n), and back world (x, y, z) ↦ ENU (x, −z, y).
/// Headings are compass bearings: clockwise from north, seen from above. A heading θ points
/// along ENU (sin θ, cos θ, 0), which is world (sin θ, 0, −cos θ).
public enum WorldFrame {
  /// World coordinates (ARKit gravity-and-heading frame, metres) of an ENU vector.
  @inlinable
  public static func world(enu v: SIMD3<Double>) -> SIMD3<Double> { SIMD3(v.x, v.z, -v.y) }

  /// ENU coordinates of a world vector (ARKit gravity-and-heading frame, metres).
  @inlinable
  public static func enu(world v: SIMD3<Double>) -> SIMD3<Double> { SIMD3(v.x, -v.z, v.y) }

  /// The world-frame rotation that turns an object's forward axis (−Z, ARKit's convention for
  /// "facing") to a compass heading: a rotation about +Y by −heading.
  @inlinable
  public static func rotation(heading: Angle<Double>) -> Quaternion<Double> {
    Quaternion(angle: -heading, axis: SIMD3(0, 1, 0))
  }

  /// The compass heading (clockwise from north) of a world direction's horizontal part; nil
  /// when the direction is vertical.
  @inlinable
  public static func heading(ofWorldDirection d: SIMD3<Double>) -> Angle<Double>? {
    let east = d.x, north = -d.z
    guard east != 0 || north != 0 else { return nil }
    return Angle(radians: Double.atan2(y: east, x: north)).wrappedToZeroTwoPi
  }
}
