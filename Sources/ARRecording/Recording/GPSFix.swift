import ARMath

/// A GNSS fix, as `CLLocation` reports it.
public struct GPSFix: Sendable, Equatable {
  /// Seconds.
  public var time: Double
  /// Degrees, −90…90, north positive.
  public var latitude: Double
  /// Degrees, −180…180, east positive.
  public var longitude: Double
  /// Metres above the WGS84 ellipsoid, when the source gives it.
  public var height: Double?
  /// Metres above mean sea level (what `CLLocation.altitude` is), when the source gives it.
  public var altitudeMSL: Double?
  /// The radius of 68% confidence about the position, metres (`horizontalAccuracy`).
  public var horizontalAccuracy: Double
  /// 68% confidence of the height, metres; nil when invalid or not given.
  public var verticalAccuracy: Double?
  /// Direction of travel, degrees clockwise from true north; nil when invalid.
  public var courseDegrees: Double?
  /// Metres per second; nil when invalid.
  public var speed: Double?

  /// A value with these fields, as given (no validation: readers validate what they read).
  public init(
    time: Double, latitude: Double, longitude: Double, height: Double? = nil, altitudeMSL: Double? = nil,
    horizontalAccuracy: Double, verticalAccuracy: Double? = nil, courseDegrees: Double? = nil,
    speed: Double? = nil
  ) {
    self.time = time
    self.latitude = latitude
    self.longitude = longitude
    self.height = height
    self.altitudeMSL = altitudeMSL
    self.horizontalAccuracy = horizontalAccuracy
    self.verticalAccuracy = verticalAccuracy
    self.courseDegrees = courseDegrees
    self.speed = speed
  }
}
