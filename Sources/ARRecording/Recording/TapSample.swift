import ARMath

/// A tap on the screen, in the pixels of the camera image it was made over.
public struct TapSample: Sendable, Equatable {
  /// Seconds.
  public var time: Double
  /// Pixels, ARScene's convention (top-left origin, centres at +0.5).
  public var point: SIMD2<Double>
  /// What the tap should select, when the recording knows (a test's expectation).
  public var expected: String?

  /// A value with these fields, as given (no validation: readers validate what they read).
  public init(time: Double, point: SIMD2<Double>, expected: String? = nil) {
    self.time = time
    self.point = point
    self.expected = expected
  }
}
