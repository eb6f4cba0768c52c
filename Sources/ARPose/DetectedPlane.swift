import ARMath
import RealModule

/// A plane found in a point cloud, with its extent, as ARKit's `ARPlaneAnchor` describes one.
public struct DetectedPlane: Sendable, Equatable {
  /// How the plane lies against gravity.
  public enum Classification: String, Sendable {
    /// Facing up (a floor, a table) or down (a ceiling): the normal within 10° of gravity.
    case horizontal
    /// A wall: the normal within 10° of horizontal.
    case vertical
    /// Anything else (a ramp, a sloping roof).
    case other
  }

  /// Unit normal: up for horizontal planes; for others, towards the frame's origin (where an AR
  /// session starts: the plane's visible side).
  public var normal: SIMD3<Double>
  /// Signed offset d of the plane `n·x = d`, metres.
  public var offset: Double
  /// Centroid of the inliers, metres.
  public var centroid: SIMD3<Double>
  /// Indices of the inlier points in the cloud.
  public var inliers: [Int]
  /// Root-mean-square distance of the inliers from the plane, metres.
  public var rms: Double
  /// Against gravity.
  public var classification: Classification
  /// The convex hull of the inliers, in order (counter-clockwise seen from the normal side), metres.
  public var hull: [SIMD3<Double>]
  /// The smallest rectangle in the plane around the inliers: centre, axes (unit, in the plane)
  /// and full side lengths (metres), `width` along `axisX`.
  public var extentCenter: SIMD3<Double>
  /// The rectangle's axes: unit vectors in the plane, world frame.
  public var axisX: SIMD3<Double>, axisY: SIMD3<Double>
  /// Its full side lengths along `axisX` and `axisY`, metres.
  public var width: Double, length: Double

  /// The signed distance of `p` from the plane, metres (positive on the normal's side).
  public func distance(_ p: SIMD3<Double>) -> Double { normal.dot(p) - offset }
}
