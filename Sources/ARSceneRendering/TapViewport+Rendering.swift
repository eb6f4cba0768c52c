import ARHit
import ARImage
import ARMath
import ARScene

extension Scene {
  /// The scene as a phone's view shows it: its camera replaced by the view's camera
  /// (`TapViewport.viewCamera(for:)`) and its camera frame turned and aspect-filled into the
  /// view; the output is the view's size. Hit-test the original scene, not this one: taps are
  /// mapped through the viewport already.
  ///
  /// - Throws: `SceneError.invalidField(path:field:reason:)` when the view is not whole pixels.
  public func viewed(in viewport: TapViewport) throws(SceneError) -> Scene {
    guard viewport.pixelSize != nil else {
      throw .invalidField(
        path: path, field: "view", reason: "the view size \(viewport.size) must be whole pixels up to 16384")
    }
    var viewed = self
    viewed.camera = viewport.viewCamera(for: camera)
    viewed.background = background.map(viewport.viewImage)
    return viewed
  }
}

extension TapViewport {
  /// A phone screen of `size` pixels in `orientation` showing the camera image `intrinsics`
  /// are for; without a size, the image's own, turned to the orientation.
  ///
  /// - Throws: ARHit's `HitError` for a size that is not positive.
  public static func screen(
    showing intrinsics: CameraIntrinsics<Double>, size: SIMD2<Int>?, orientation: InterfaceOrientation
  ) throws(HitError) -> TapViewport {
    let image = SIMD2(Double(intrinsics.width), Double(intrinsics.height))
    let turned =
      orientation == .portrait || orientation == .portraitUpsideDown ? SIMD2(image.y, image.x) : image
    return try TapViewport(
      size: size.map { SIMD2(Double($0.x), Double($0.y)) } ?? turned, orientation: orientation,
      imageSize: image)
  }
}
