import ARMath

/// A frame's focal lengths and principal point, pixels, in ARScene's pixel convention (top-left
/// origin, pixel centres at +0.5, y down; ARKit's `intrinsics` are already so).
public struct FrameIntrinsics: Sendable, Equatable {
  public var fx: Double, fy: Double, cx: Double, cy: Double

  /// A value with these fields, as given (no validation: readers validate what they read).
  public init(fx: Double, fy: Double, cx: Double, cy: Double) {
    (self.fx, self.fy, self.cx, self.cy) = (fx, fy, cx, cy)
  }
}

extension FrameIntrinsics {
  /// The ideal pinhole pixel of the pixel `lens` shows at `pixel` (ARScene's pixel convention),
  /// or nil where the lens has no inverse (past a fisheye's image circle).
  public func undistortedPixel(_ pixel: SIMD2<Double>, lens: LensDistortion) -> SIMD2<Double>? {
    guard lens != .none else { return pixel }
    let normalized = SIMD2((pixel.x - cx) / fx, (pixel.y - cy) / fy)
    guard let ideal = lens.undistort(normalized) else { return nil }
    return SIMD2(fx * ideal.x + cx, fy * ideal.y + cy)
  }
}
