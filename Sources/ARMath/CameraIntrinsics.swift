import RealModule

/// A pinhole camera's intrinsics: focal lengths and principal point in pixels, and the image
/// size. No lens distortion (ARKit's frames are undistorted).
///
/// Pixel coordinates follow DESIGN: origin at the top-left corner of the image, x right, y down,
/// pixel `(i, j)` covering `[i, i+1) × [j, j+1)` with its centre at `(i + 0.5, j + 0.5)`. The
/// principal point `(cx, cy)` is in these coordinates, so a centred camera has `cx = width / 2`
/// (ARKit writes intrinsics this way). OpenCV puts pixel centres at integers: an OpenCV `cx` is
/// ours minus 0.5, and so is every OpenCV pixel coordinate, so poses solved from OpenCV numbers
/// consistently are the same.
///
/// Projection works on points in the OpenCV camera frame (x right, y down, +Z forward), where
/// `u = fx·x/z + cx`, `v = fy·y/z + cy`; the `…ARKit` variants take the ARKit camera frame (see
/// ``CameraConvention``).
@frozen
public struct CameraIntrinsics<Scalar: ARScalar>: Hashable, Sendable {
  /// Focal length along x, in pixels.
  public var fx: Scalar
  /// Focal length along y, in pixels.
  public var fy: Scalar
  /// Principal point x, in pixels from the image's left edge.
  public var cx: Scalar
  /// Principal point y, in pixels from the image's top edge.
  public var cy: Scalar
  /// Image width in pixels.
  public var width: Int
  /// Image height in pixels.
  public var height: Int

  /// Intrinsics from trusted values (the caller guarantees positive finite focal lengths and a
  /// positive size); use ``init(validatingFx:fy:cx:cy:width:height:)`` for outside input.
  @inlinable
  public init(fx: Scalar, fy: Scalar, cx: Scalar, cy: Scalar, width: Int, height: Int) {
    (self.fx, self.fy, self.cx, self.cy, self.width, self.height) = (fx, fy, cx, cy, width, height)
  }

  /// The same intrinsics in another precision (e.g. a scene's `Double` camera narrowed to the
  /// renderer's `Float`).
  @inlinable
  public init<Other: ARScalar>(_ other: CameraIntrinsics<Other>) {
    self.init(
      fx: Scalar(other.fx), fy: Scalar(other.fy), cx: Scalar(other.cx), cy: Scalar(other.cy),
      width: other.width,
      height: other.height)
  }

  /// Intrinsics checked for use: focal lengths positive and finite, principal point finite, size
  /// positive.
  ///
  /// - Throws: ``CameraIntrinsicsError`` naming the offending field.
  public init(validatingFx fx: Scalar, fy: Scalar, cx: Scalar, cy: Scalar, width: Int, height: Int)
    throws(CameraIntrinsicsError)
  {
    for (name, value) in [("fx", fx), ("fy", fy)] where !(value.isFinite && value > 0) {
      throw .invalid(field: name, reason: "must be a positive finite number of pixels")
    }
    for (name, value) in [("cx", cx), ("cy", cy)] where !value.isFinite {
      throw .invalid(field: name, reason: "must be a finite number of pixels")
    }
    for (name, value) in [("width", width), ("height", height)] where value <= 0 {
      throw .invalid(field: name, reason: "must be a positive number of pixels")
    }
    self.init(fx: fx, fy: fy, cx: cx, cy: cy, width: width, height: height)
  }

  /// A centred camera with square pixels and the given full vertical angle of view.
  @inlinable
  public init(verticalFieldOfView: Angle<Scalar>, width: Int, height: Int) {
    let f = Scalar(height) / 2 / Scalar.tan(verticalFieldOfView.radians / 2)
    self.init(fx: f, fy: f, cx: Scalar(width) / 2, cy: Scalar(height) / 2, width: width, height: height)
  }

  /// The calibration matrix `K = [fx 0 cx; 0 fy cy; 0 0 1]`.
  @inlinable
  public var matrix: Matrix3<Scalar> {
    Matrix3(rows: SIMD3(fx, 0, cx), SIMD3(0, fy, cy), SIMD3(0, 0, 1))
  }

  /// The full vertical angle of view.
  @inlinable
  public var verticalFieldOfView: Angle<Scalar> {
    Angle(radians: 2 * Scalar.atan(Scalar(height) / (2 * fy)))
  }

  /// The pixel a camera-frame point projects to (OpenCV frame), or `nil` when the point is not
  /// in front of the camera (`z ≤ 0`). The pixel may lie outside the image; see ``contains(_:)``.
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

  /// The direction, in the OpenCV camera frame, of the ray through `pixel`; its z is 1 (not unit
  /// length), so `direction * depth` is the point at that depth.
  @inlinable
  public func direction(through pixel: SIMD2<Scalar>) -> SIMD3<Scalar> {
    unproject(pixel, depth: 1)
  }

  /// Whether `pixel` lies inside the image rectangle `[0, width) × [0, height)`.
  @inlinable
  public func contains(_ pixel: SIMD2<Scalar>) -> Bool {
    pixel.x >= 0 && pixel.y >= 0 && pixel.x < Scalar(width) && pixel.y < Scalar(height)
  }

  /// These intrinsics for the same camera at another image size (a scaled frame): focal lengths
  /// and principal point scale with the size, which keeps the pixel-corner convention exact.
  @inlinable
  public func scaled(toWidth newWidth: Int, height newHeight: Int) -> CameraIntrinsics {
    let sx = Scalar(newWidth) / Scalar(width), sy = Scalar(newHeight) / Scalar(height)
    return CameraIntrinsics(
      fx: fx * sx, fy: fy * sy, cx: cx * sx, cy: cy * sy, width: newWidth, height: newHeight)
  }
}
