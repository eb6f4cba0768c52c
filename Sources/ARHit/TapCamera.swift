import ARMath

/// A camera and the view it is shown in: taps become world rays and world points become taps.
public struct TapCamera: Sendable {
  /// The camera: intrinsics of the captured image (sensor orientation) and its ARKit pose.
  public var camera: PinholeCamera<Double>
  /// The view.
  public var viewport: TapViewport

  /// A tap camera; the viewport's image size is the intrinsics' image size.
  public init(camera: PinholeCamera<Double>, viewSize: SIMD2<Double>, orientation: InterfaceOrientation)
    throws(HitError)
  {
    self.camera = camera
    viewport = try TapViewport(
      size: viewSize, orientation: orientation,
      imageSize: SIMD2(Double(camera.intrinsics.width), Double(camera.intrinsics.height)))
  }

  /// The world ray (unit direction, metres) from the camera through the tapped view point.
  /// - Throws: ``HitError/invalidTap(_:)`` for a tap outside the view or not finite.
  public func ray(forTap tap: SIMD2<Double>) throws(HitError) -> HitRay {
    guard tap.x.isFinite, tap.y.isFinite, viewport.contains(tap) else {
      throw .invalidTap("tap \(tap) is outside the \(viewport.size.x)×\(viewport.size.y) view")
    }
    return try HitRay(camera.ray(through: viewport.imagePixel(forViewPoint: tap)))
  }

  /// Where a world point appears in the view (points) and its depth in metres, or nil when it
  /// is behind the camera. The point may be outside the view.
  public func tapPoint(forWorldPoint p: SIMD3<Double>) -> (point: SIMD2<Double>, depth: Double)? {
    guard let projection = camera.project(p) else { return nil }
    return (viewport.viewPoint(forImagePixel: projection.pixel), projection.depth)
  }
}
