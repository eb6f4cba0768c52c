/// A posed pinhole camera: intrinsics plus where the camera is in the world.
///
/// The pose is `worldFromCamera` in the ARKit convention (camera x right, y up, looking down −Z;
/// see ``CameraConvention``), as ARKit's `ARCamera.transform` gives it. World coordinates in
/// metres; pixel coordinates per ``CameraIntrinsics`` (top-left origin, centres at +0.5).
@frozen
public struct PinholeCamera<Scalar: ARScalar>: Hashable, Sendable {
  /// Focal lengths, principal point and image size.
  public var intrinsics: CameraIntrinsics<Scalar>
  /// The camera's pose: camera-frame (ARKit convention) points to world points.
  public var worldFromCamera: RigidTransform<Scalar> {
    didSet { storedCameraFromWorld = worldFromCamera.inverse.matrix }
  }
  /// The view transform, precomputed once per pose as a matrix: projecting a point is then one
  /// affine product and one divide.
  @usableFromInline var storedCameraFromWorld: Matrix4<Scalar>

  /// The view matrix `cameraFromWorld` (ARKit camera convention), as OpenGL and GLM use it.
  @inlinable public var cameraFromWorld: Matrix4<Scalar> { storedCameraFromWorld }

  /// A camera with the given intrinsics and pose (ARKit convention).
  @inlinable
  public init(intrinsics: CameraIntrinsics<Scalar>, worldFromCamera: RigidTransform<Scalar>) {
    self.intrinsics = intrinsics
    self.worldFromCamera = worldFromCamera
    storedCameraFromWorld = worldFromCamera.inverse.matrix
  }

  /// A camera whose pose is given in `convention`: an OpenCV pose (`worldFromCamera` with the
  /// camera looking down +Z, y down) is converted once, here.
  @inlinable
  public init(
    intrinsics: CameraIntrinsics<Scalar>, worldFromCamera: RigidTransform<Scalar>,
    convention: CameraConvention
  ) {
    self.init(
      intrinsics: intrinsics,
      worldFromCamera: worldFromCamera * CameraConvention.cameraFromCamera(from: .arkit, to: convention))
  }

  /// Where a world point lands in the image.
  @frozen
  public struct Projection: Hashable, Sendable {
    /// The pixel coordinates (may lie outside the image; see ``isInside``).
    public var pixel: SIMD2<Scalar>
    /// Distance in front of the camera along its optical axis, in metres (> 0).
    public var depth: Scalar
    /// Whether ``pixel`` lies inside the image rectangle.
    public var isInside: Bool

    /// A projection result.
    @inlinable
    public init(pixel: SIMD2<Scalar>, depth: Scalar, isInside: Bool) {
      (self.pixel, self.depth, self.isInside) = (pixel, depth, isInside)
    }
  }

  /// Projects a world point; `nil` when the point is not in front of the camera (on or behind
  /// the camera's image plane through its centre).
  @inlinable @inline(__always)
  public func project(_ worldPoint: SIMD3<Scalar>) -> Projection? {
    let inCamera = cameraFromWorld.transformPoint(worldPoint)
    guard let pixel = intrinsics.projectARKit(inCamera) else { return nil }
    return Projection(pixel: pixel, depth: -inCamera.z, isInside: intrinsics.contains(pixel))
  }

  /// The world ray from the camera centre through `pixel` (any pixel, inside the image or not).
  @inlinable
  public func ray(through pixel: SIMD2<Scalar>) -> Ray<Scalar> {
    let inCamera = CameraConvention.convert(intrinsics.direction(through: pixel), from: .opencv, to: .arkit)
    return Ray(
      unchecked: worldFromCamera.translation,
      direction: worldFromCamera.transformDirection(inCamera).normalized())
  }

}
