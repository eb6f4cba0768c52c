import ARMath

/// A compass reading, as `CLHeading` reports it.
public struct HeadingSample: Sendable, Equatable {
  /// Seconds.
  public var time: Double
  /// Degrees clockwise from true north; nil when invalid (no location to correct with).
  public var trueHeadingDegrees: Double?
  /// Degrees clockwise from magnetic north.
  public var magneticHeadingDegrees: Double
  /// The largest likely error, degrees; nil when invalid.
  public var accuracyDegrees: Double?

  /// A value with these fields, as given (no validation: readers validate what they read).
  public init(
    time: Double, trueHeadingDegrees: Double?, magneticHeadingDegrees: Double, accuracyDegrees: Double?
  ) {
    self.time = time
    self.trueHeadingDegrees = trueHeadingDegrees
    self.magneticHeadingDegrees = magneticHeadingDegrees
    self.accuracyDegrees = accuracyDegrees
  }
}
