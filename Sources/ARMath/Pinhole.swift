import RealModule

/// A pinhole camera: focal lengths and principal point in pixels, without an image size. What
/// pose solvers, marker detectors and a recording's frames take; ``CameraIntrinsics`` adds the
/// image size a renderer needs. A lens, when there is one, is a ``LensDistortion`` beside it.
///
/// Pixel coordinates follow DESIGN (see ``CameraIntrinsics``): origin at the image's top-left
/// corner, x right, y down, pixel centres at +0.5. Projection works on points in the OpenCV
/// camera frame (x right, y down, +Z forward): `u = fx·x/z + cx`, `v = fy·y/z + cy`.
@frozen
public struct Pinhole<Scalar: ARScalar>: Hashable, Sendable {
  /// Focal length along x, in pixels.
  public var fx: Scalar
  /// Focal length along y, in pixels.
  public var fy: Scalar
  /// Principal point x, in pixels from the image's left edge.
  public var cx: Scalar
  /// Principal point y, in pixels from the image's top edge.
  public var cy: Scalar

  /// A camera from trusted values (the caller guarantees positive finite focal lengths); use
  /// ``init(validatingFx:fy:cx:cy:)`` for outside input.
  @inlinable
  public init(fx: Scalar, fy: Scalar, cx: Scalar, cy: Scalar) {
    (self.fx, self.fy, self.cx, self.cy) = (fx, fy, cx, cy)
  }

  /// The same camera in another precision.
  @inlinable
  public init<Other: ARScalar>(_ other: Pinhole<Other>) {
    self.init(fx: Scalar(other.fx), fy: Scalar(other.fy), cx: Scalar(other.cx), cy: Scalar(other.cy))
  }

  /// A camera checked for use: focal lengths positive and finite, principal point finite.
  ///
  /// - Throws: ``CameraIntrinsicsError`` naming the offending field.
  public init(validatingFx fx: Scalar, fy: Scalar, cx: Scalar, cy: Scalar) throws(CameraIntrinsicsError) {
    for (name, value) in [("fx", fx), ("fy", fy)] where !(value.isFinite && value > 0) {
      throw .invalid(field: name, reason: "must be a positive finite number of pixels")
    }
    for (name, value) in [("cx", cx), ("cy", cy)] where !value.isFinite {
      throw .invalid(field: name, reason: "must be a finite number of pixels")
    }
    self.init(fx: fx, fy: fy, cx: cx, cy: cy)
  }

  /// The calibration matrix `K = [fx 0 cx; 0 fy cy; 0 0 1]`.
  @inlinable
  public var matrix: Matrix3<Scalar> {
    Matrix3(rows: SIMD3(fx, 0, cx), SIMD3(0, fy, cy), SIMD3(0, 0, 1))
  }

  /// The pixel a camera-frame point projects to (OpenCV frame), or `nil` when the point is not
  /// in front of the camera (`z ≤ 0`). The pixel may lie outside any image.
  @inlinable @inline(__always)
  public func project(_ pointInCamera: SIMD3<Scalar>) -> SIMD2<Scalar>? {
    guard pointInCamera.z > 0 else { return nil }
    let inverseZ = 1 / pointInCamera.z
    return SIMD2(fx * pointInCamera.x * inverseZ + cx, fy * pointInCamera.y * inverseZ + cy)
  }

  /// ``project(_:)`` for a point in the ARKit camera frame (looking down −Z).
  @inlinable @inline(__always)
  public func projectARKit(_ pointInCamera: SIMD3<Scalar>) -> SIMD2<Scalar>? {
    project(CameraConvention.convert(pointInCamera, from: .arkit, to: .opencv))
  }

  /// The camera-frame point (OpenCV frame) at depth `depth` (metres along +Z) that projects to
  /// `pixel`: the inverse of ``project(_:)``.
  @inlinable
  public func unproject(_ pixel: SIMD2<Scalar>, depth: Scalar) -> SIMD3<Scalar> {
    SIMD3((pixel.x - cx) / fx * depth, (pixel.y - cy) / fy * depth, depth)
  }

  /// The point on the normalised image plane (z = 1, OpenCV frame) that `pixel` shows.
  @inlinable
  public func normalized(_ pixel: SIMD2<Scalar>) -> SIMD2<Scalar> {
    SIMD2((pixel.x - cx) / fx, (pixel.y - cy) / fy)
  }

  /// The pixel showing the normalised image-plane point `point`: the inverse of
  /// ``normalized(_:)``.
  @inlinable
  public func pixel(normalized point: SIMD2<Scalar>) -> SIMD2<Scalar> {
    SIMD2(fx * point.x + cx, fy * point.y + cy)
  }

  /// The same camera for an image scaled by `sx` across and `sy` down (a resized frame): focal
  /// lengths and principal point scale with it, which keeps the pixel-corner convention exact.
  @inlinable
  public func scaled(x sx: Scalar, y sy: Scalar) -> Pinhole {
    Pinhole(fx: fx * sx, fy: fy * sy, cx: cx * sx, cy: cy * sy)
  }
}

extension Pinhole where Scalar == Double {
  /// Where `lens` puts the pixel an ideal pinhole camera would show at `pixel`.
  public func distortedPixel(_ pixel: SIMD2<Double>, lens: LensDistortion) -> SIMD2<Double> {
    self.pixel(normalized: lens.distort(normalized(pixel)))
  }

  /// The ideal pinhole pixel of the pixel `lens` shows at `pixel`, or nil where the model has
  /// no inverse (past a fisheye's image circle; see ``LensDistortion/undistort(_:)``). Without a
  /// lens, `pixel` itself, exactly.
  public func undistortedPixel(_ pixel: SIMD2<Double>, lens: LensDistortion) -> SIMD2<Double>? {
    guard lens != .none else { return pixel }
    return lens.undistort(normalized(pixel)).map { self.pixel(normalized: $0) }
  }
}
