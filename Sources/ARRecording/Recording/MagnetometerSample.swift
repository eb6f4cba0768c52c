import ARMath

/// A raw magnetometer reading in the device's frame (`CMMagnetometerData`).
public struct MagnetometerSample: Sendable, Equatable {
  /// Seconds.
  public var time: Double
  /// The field, microtesla, device axes.
  public var field: SIMD3<Double>

  /// A value with these fields, as given (no validation: readers validate what they read).
  public init(time: Double, field: SIMD3<Double>) {
    self.time = time
    self.field = field
  }
}
