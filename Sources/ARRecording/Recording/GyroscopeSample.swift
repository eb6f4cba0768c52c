import ARMath

/// A gyroscope reading: the device's rotation rate about its own axes (x to the right of the
/// screen, y to its top, z out of it), right-handed, as iOS's `CMRotationRate` and Android's
/// gyroscope give it.
public struct GyroscopeSample: Sendable, Equatable {
  /// Seconds.
  public var time: Double
  /// Radians a second about the device's x, y and z.
  public var rotationRate: SIMD3<Double>

  /// A value with these fields, as given (no validation: readers validate what they read).
  public init(time: Double, rotationRate: SIMD3<Double>) {
    self.time = time
    self.rotationRate = rotationRate
  }
}
