import ARMath

/// How the user interface is turned relative to the camera sensor, as UIKit names it.
///
/// ARKit's captured image (and its intrinsics) is always in the sensor's landscape orientation:
/// the device held sideways with the home button (or the USB port) on the right. That is
/// `landscapeRight`, where image and screen axes coincide.
public enum InterfaceOrientation: String, Sendable, CaseIterable, Codable {
  /// The sensor's own orientation: image and screen axes coincide.
  case landscapeRight = "landscape-right"
  /// Turned half a turn from `landscapeRight`.
  case landscapeLeft = "landscape-left"
  /// Upright: the screen's x is the image's −y.
  case portrait
  /// Upside down: the screen's x is the image's +y.
  case portraitUpsideDown = "portrait-upside-down"
}
