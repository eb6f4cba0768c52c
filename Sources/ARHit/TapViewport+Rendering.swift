import ARImage
import ARMath

/// Rendering what a phone's screen shows: the camera image turned to the interface orientation
/// and aspect-filled into the view (``TapViewport``'s mapping, the one taps are hit-tested
/// with), with the content drawn by the camera that view amounts to.
extension TapViewport {
  /// The view's size in whole pixels: rendering needs one pixel per point.
  public var pixelSize: (width: Int, height: Int)? {
    guard size.x == size.x.rounded(), size.y == size.y.rounded(), size.x <= 16384, size.y <= 16384 else {
      return nil
    }
    return (Int(size.x), Int(size.y))
  }

  /// The camera whose image is this view, pixel for point: `camera` (intrinsics of the
  /// captured image, sensor orientation) turned about its view axis to the interface
  /// orientation, its focal lengths scaled by the aspect fill (swapped when the image is turned
  /// a quarter) and its principal point where the view shows the image's.
  ///
  /// A world point projects through the result to `viewPoint(forImagePixel:)` of its
  /// projection through `camera`.
  ///
  /// - Precondition: ``pixelSize`` is not nil.
  public func viewCamera(for camera: PinholeCamera<Double>) -> PinholeCamera<Double> {
    let k = camera.intrinsics
    let (width, height) = pixelSize!
    // The view's axes in the sensor camera's frame: the view's +x is the image's +y for
    // portrait (the image's top is on the screen's right), and so on round.
    let quarterTurns: Double
    let quarter: Bool
    switch orientation {
    case .landscapeRight: (quarterTurns, quarter) = (0, false)
    case .portrait: (quarterTurns, quarter) = (1, true)
    case .landscapeLeft: (quarterTurns, quarter) = (2, false)
    case .portraitUpsideDown: (quarterTurns, quarter) = (-1, true)
    }
    let turn = RigidTransform<Double>(
      rotation: Quaternion(angle: .radians(quarterTurns * .pi / 2), axis: SIMD3(0, 0, 1)))
    let centre = viewPoint(forImagePixel: SIMD2(k.cx, k.cy))
    let (fx, fy) = quarter ? (k.fy, k.fx) : (k.fx, k.fy)
    return PinholeCamera(
      intrinsics: CameraIntrinsics(
        fx: fx * scale, fy: fy * scale, cx: centre.x, cy: centre.y, width: width, height: height),
      worldFromCamera: camera.worldFromCamera * turn)
  }

  /// The camera image as the view shows it: turned, scaled to cover the view, centred, the
  /// overflow cropped; bilinear between pixel centres (edges clamped).
  ///
  /// - Precondition: ``pixelSize`` is not nil; `image` has `imageSize`.
  public func viewImage(_ image: LinearImage) -> LinearImage {
    let (width, height) = pixelSize!
    if orientation == .landscapeRight, width == image.width, height == image.height, scale == 1 {
      return image
    }
    var pixels = [SIMD4<Float>](repeating: .zero, count: width * height)
    let (maxX, maxY) = (image.width - 1, image.height - 1)
    for y in 0..<height {
      for x in 0..<width {
        let p = imagePixel(forViewPoint: SIMD2(Double(x) + 0.5, Double(y) + 0.5)) - 0.5
        let (x0, y0) = (Int(p.x.rounded(.down)), Int(p.y.rounded(.down)))
        let (ax, ay) = (Float(p.x - Double(x0)), Float(p.y - Double(y0)))
        func at(_ i: Int, _ j: Int) -> SIMD4<Float> { image[min(max(i, 0), maxX), min(max(j, 0), maxY)] }
        let top = at(x0, y0) + (at(x0 + 1, y0) - at(x0, y0)) * ax
        let bottom = at(x0, y0 + 1) + (at(x0 + 1, y0 + 1) - at(x0, y0 + 1)) * ax
        pixels[y * width + x] = top + (bottom - top) * ay
      }
    }
    return LinearImage(width: width, height: height, pixels: pixels)
  }

  /// A per-pixel map of the camera image (a depth or confidence image: any size with the
  /// image's shape) as the view shows it, nearest pixel: measurements are never blended
  /// across an edge.
  ///
  /// - Precondition: ``pixelSize`` is not nil.
  public func viewMap<Pixel>(_ map: Image<Pixel>) -> Image<Pixel> {
    let (width, height) = pixelSize!
    let (sx, sy) = (Double(map.width) / imageSize.x, Double(map.height) / imageSize.y)
    var pixels: [Pixel] = []
    pixels.reserveCapacity(width * height)
    for y in 0..<height {
      for x in 0..<width {
        let p = imagePixel(forViewPoint: SIMD2(Double(x) + 0.5, Double(y) + 0.5))
        let i = min(max(Int(p.x * sx), 0), map.width - 1), j = min(max(Int(p.y * sy), 0), map.height - 1)
        pixels.append(map.pixels[j * map.width + i])
      }
    }
    return Image(width: width, height: height, pixels: pixels)
  }
}
