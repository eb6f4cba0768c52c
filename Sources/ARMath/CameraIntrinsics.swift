import RealModule

/// A pinhole camera with its image size: a ``Pinhole`` (focal lengths and principal point in
/// pixels) and the width and height in pixels, what a renderer needs. No lens distortion
/// (ARKit's frames are undistorted); a lens is a ``LensDistortion`` beside it.
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
  /// The focal lengths and principal point.
  public var pinhole: Pinhole<Scalar>
  /// Image width in pixels.
  public var width: Int
  /// Image height in pixels.
  public var height: Int

  /// Focal length along x, in pixels.
  @inlinable public var fx: Scalar {
    get { pinhole.fx }
    set { pinhole.fx = newValue }
  }
  /// Focal length along y, in pixels.
  @inlinable public var fy: Scalar {
    get { pinhole.fy }
    set { pinhole.fy = newValue }
  }
  /// Principal point x, in pixels from the image's left edge.
  @inlinable public var cx: Scalar {
    get { pinhole.cx }
    set { pinhole.cx = newValue }
  }
  /// Principal point y, in pixels from the image's top edge.
  @inlinable public var cy: Scalar {
    get { pinhole.cy }
    set { pinhole.cy = newValue }
  }

  /// A camera of `pinhole` with an image of `width × height` pixels (trusted values).
  @inlinable
  public init(_ pinhole: Pinhole<Scalar>, width: Int, height: Int) {
    (self.pinhole, self.width, self.height) = (pinhole, width, height)
  }

  /// Intrinsics from trusted values (the caller guarantees positive finite focal lengths and a
  /// positive size); use ``init(validatingFx:fy:cx:cy:width:height:)`` for outside input.
  @inlinable
  public init(fx: Scalar, fy: Scalar, cx: Scalar, cy: Scalar, width: Int, height: Int) {
    self.init(Pinhole(fx: fx, fy: fy, cx: cx, cy: cy), width: width, height: height)
  }

  /// The same intrinsics in another precision (e.g. a scene's `Double` camera narrowed to the
  /// renderer's `Float`).
  @inlinable
  public init<Other: ARScalar>(_ other: CameraIntrinsics<Other>) {
    self.init(Pinhole(other.pinhole), width: other.width, height: other.height)
  }

  /// Intrinsics checked for use: focal lengths positive and finite, principal point finite, size
  /// positive.
  ///
  /// - Throws: ``CameraIntrinsicsError`` naming the offending field.
  public init(validatingFx fx: Scalar, fy: Scalar, cx: Scalar, cy: Scalar, width: Int, height: Int)
    throws(CameraIntrinsicsError)
  {
    let pinhole = try Pinhole(validatingFx: fx, fy: fy, cx: cx, cy: cy)
    for (name, value) in [("width", width), ("height", height)] where value <= 0 {
      throw .invalid(field: name, reason: "must be a positive number of pixels")
    }
    self.init(pinhole, width: width, height: height)
  }

  /// A centred camera with square pixels and the given full vertical angle of view.
  @inlinable
  public init(verticalFieldOfView: Angle<Scalar>, width: Int, height: Int) {
    let f = Scalar(height) / 2 / Scalar.tan(verticalFieldOfView.radians / 2)
    self.init(fx: f, fy: f, cx: Scalar(width) / 2, cy: Scalar(height) / 2, width: width, height: height)
  }

  /// The calibration matrix `K = [fx 0 cx; 0 fy cy; 0 0 1]`.
  @inlinable
  public var matrix: Matrix3<Scalar> { pinhole.matrix }

  /// The full vertical angle of view.
  @inlinable
  public var verticalFieldOfView: Angle<Scalar> {
    Angle(radians: 2 * Scalar.atan(Scalar(height) / (2 * fy)))
  }

  /// The pixel a camera-frame point projects to (OpenCV frame), or `nil` when the point is not
  /// in front of the camera (`z ≤ 0`). The pixel may lie outside the image; see ``contains(_:)``.
  @inlinable @inline(__always)
  public func project(_ pointInCamera: SIMD3<Scalar>) -> SIMD2<Scalar>? {
    pinhole.project(pointInCamera)
  }

  /// ``project(_:)`` for a point in the ARKit camera frame (looking down −Z).
  @inlinable @inline(__always)
  public func projectARKit(_ pointInCamera: SIMD3<Scalar>) -> SIMD2<Scalar>? {
    pinhole.projectARKit(pointInCamera)
  }

  /// The camera-frame point (OpenCV frame) at depth `depth` (metres along +Z) that projects to
  /// `pixel`: the inverse of ``project(_:)``.
  @inlinable
  public func unproject(_ pixel: SIMD2<Scalar>, depth: Scalar) -> SIMD3<Scalar> {
    pinhole.unproject(pixel, depth: depth)
  }

  /// The direction, in the OpenCV camera frame, of the ray through `pixel`; its z is 1 (not unit
  /// length), so `direction * depth` is the point at that depth.
  @inlinable
  public func direction(through pixel: SIMD2<Scalar>) -> SIMD3<Scalar> {
    pinhole.unproject(pixel, depth: 1)
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
    return CameraIntrinsics(pinhole.scaled(x: sx, y: sy), width: newWidth, height: newHeight)
  }
}
