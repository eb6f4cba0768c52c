import ARMath

/// How the user interface is turned relative to the camera sensor, as UIKit names it.
///
/// ARKit's captured image (and its intrinsics) is always in the sensor's landscape orientation:
/// the device held sideways with the home button (or the USB port) on the right. That is
/// `landscapeRight`, where image and screen axes coincide.
public enum InterfaceOrientation: String, Sendable, CaseIterable, Codable {
  case landscapeRight = "landscape-right"
  case landscapeLeft = "landscape-left"
  case portrait
  case portraitUpsideDown = "portrait-upside-down"
}
