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
