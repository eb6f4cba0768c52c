import ARHit
import ARMath

/// A phone's back camera as ARKit reports it, and the screen its app shows it on: what a tap
/// test needs to turn screen points into rays.
///
/// The captured image is in the sensor's orientation (landscape, top-left origin, pixel centres
/// at +0.5); the view is in UIKit points in portrait. ARHit's `TapViewport` turns the image for the
/// interface orientation and fills the view with it, as `ARSCNView` and `RealityKit`'s `ARView`
/// do. The presets are typical values, not one device's calibration: a test that depends on the
/// exact pixel should give its own intrinsics.
public struct PhoneCamera: Sendable, Hashable {
  /// The captured image's intrinsics (pixels).
  public var intrinsics: CameraIntrinsics<Double>
  /// The app's view in portrait, in points (width, height).
  public var portraitViewSize: SIMD2<Double>

  /// A phone whose camera has `intrinsics` and whose screen shows `portraitViewSize` points in
  /// portrait.
  public init(intrinsics: CameraIntrinsics<Double>, portraitViewSize: SIMD2<Double>) {
    self.intrinsics = intrinsics
    self.portraitViewSize = portraitViewSize
  }

  /// A 6.1-inch phone (393 × 852 points) with ARKit's 1920 × 1440 wide-camera image and a
  /// focal length of 1445 px (about 67° across the long side), principal point at the centre.
  public static let sixPointOneInch = PhoneCamera(
    intrinsics: CameraIntrinsics(fx: 1445, fy: 1445, cx: 960, cy: 720, width: 1920, height: 1440),
    portraitViewSize: [393, 852])

  /// A 6.7-inch phone (430 × 932 points), same camera as ``sixPointOneInch``.
  public static let sixPointSevenInch = PhoneCamera(
    intrinsics: sixPointOneInch.intrinsics, portraitViewSize: [430, 932])

  /// The view's size in points for `orientation`: portrait's, turned for landscape.
  public func viewSize(for orientation: InterfaceOrientation) -> SIMD2<Double> {
    switch orientation {
    case .portrait, .portraitUpsideDown: portraitViewSize
    case .landscapeLeft, .landscapeRight: SIMD2(portraitViewSize.y, portraitViewSize.x)
    }
  }
}
