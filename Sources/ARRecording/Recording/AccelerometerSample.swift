import ARMath

/// An accelerometer reading in the device's frame (x to the right of the screen, y to its top,
/// z out of it: iOS's and Android's sensor axes alike).
///
/// The value is what an accelerometer measures, the specific force: at rest it is gravity's
/// reaction, +9.81 m/s² along the device's up (a phone lying face up reads z ≈ +9.81). Android
/// reports it so; iOS's Core Motion reports the opposite sign in units of g, which readers
/// convert.
public struct AccelerometerSample: Sendable, Equatable {
  /// Seconds.
  public var time: Double
  /// The specific force, metres per second squared, device axes.
  public var acceleration: SIMD3<Double>

  /// A value with these fields, as given (no validation: readers validate what they read).
  public init(time: Double, acceleration: SIMD3<Double>) {
    self.time = time
    self.acceleration = acceleration
  }

  /// Standard gravity, m/s² a g: Core Motion's unit.
  public static let standardGravity = 9.80665

  /// A reading from Core Motion's `CMAcceleration` (g, the direction of gravity's pull).
  public init(time: Double, coreMotionG g: SIMD3<Double>) {
    self.init(time: time, acceleration: -Self.standardGravity * g)
  }
}
