import ARMath

/// A view showing the camera image aspect-filled (scaled to cover, centred, the overflow cropped),
/// as `ARSCNView`/`ARView` do, and the mapping between its points and the camera's pixels.
///
/// View points: origin at the view's top-left corner, x right, y down, in the view's units
/// (UIKit points). Image pixels: ARKit's captured image in sensor orientation, top-left origin,
/// pixel centres at +0.5 (docs/CONVENTIONS.md).
public struct TapViewport: Hashable, Sendable {
  /// The view's size in points.
  public var size: SIMD2<Double>
  /// The interface orientation the view is shown in.
  public var orientation: InterfaceOrientation
  /// The camera image's size in pixels, in sensor (landscape) orientation.
  public var imageSize: SIMD2<Double>

  /// A viewport; sizes must be positive and finite.
  public init(size: SIMD2<Double>, orientation: InterfaceOrientation, imageSize: SIMD2<Double>)
    throws(HitError)
  {
    guard size.x > 0, size.y > 0, size.x.isFinite, size.y.isFinite else {
      throw .invalidTap("viewport size \(size) must be positive")
    }
    guard imageSize.x > 0, imageSize.y > 0, imageSize.x.isFinite, imageSize.y.isFinite else {
      throw .invalidTap("image size \(imageSize) must be positive")
    }
    self.size = size
    self.orientation = orientation
    self.imageSize = imageSize
  }

  /// The image's size as shown (turned to the interface orientation).
  var turnedImageSize: SIMD2<Double> {
    switch orientation {
    case .landscapeRight, .landscapeLeft: imageSize
    case .portrait, .portraitUpsideDown: SIMD2(imageSize.y, imageSize.x)
    }
  }

  /// Points per image pixel of the aspect fill.
  public var scale: Double {
    let turned = turnedImageSize
    return max(size.x / turned.x, size.y / turned.y)
  }

  /// The image pixel (sensor orientation) under a view point.
  public func imagePixel(forViewPoint p: SIMD2<Double>) -> SIMD2<Double> {
    let turned = turnedImageSize
    // View → turned image: undo the centred aspect fill.
    let q = (p - size / 2) / scale + turned / 2
    // Turned image → sensor image. Turning the device from landscape-right to portrait turns
    // the picture a quarter turn: the image's +x runs down the screen, its +y to the left.
    switch orientation {
    case .landscapeRight: return q
    case .landscapeLeft: return SIMD2(imageSize.x - q.x, imageSize.y - q.y)
    case .portrait: return SIMD2(q.y, imageSize.y - q.x)
    case .portraitUpsideDown: return SIMD2(imageSize.x - q.y, q.x)
    }
  }

  /// The view point showing an image pixel (the inverse of ``imagePixel(forViewPoint:)``).
  public func viewPoint(forImagePixel pixel: SIMD2<Double>) -> SIMD2<Double> {
    let turned = turnedImageSize
    let q: SIMD2<Double>
    switch orientation {
    case .landscapeRight: q = pixel
    case .landscapeLeft: q = SIMD2(imageSize.x - pixel.x, imageSize.y - pixel.y)
    case .portrait: q = SIMD2(imageSize.y - pixel.y, pixel.x)
    case .portraitUpsideDown: q = SIMD2(pixel.y, imageSize.x - pixel.x)
    }
    return (q - turned / 2) * scale + size / 2
  }

  /// Whether a view point lies in the view.
  public func contains(_ p: SIMD2<Double>) -> Bool { p.x >= 0 && p.y >= 0 && p.x <= size.x && p.y <= size.y }
}
