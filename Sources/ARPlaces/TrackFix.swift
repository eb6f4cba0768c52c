import ARFiles
import ARGeo
import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// A GNSS fix of a track: when, where, and how sure.
public struct TrackFix: Sendable, Equatable {
  /// Seconds since 1970 (UTC).
  public var time: Double
  /// WGS84 degrees; metres above the ellipsoid.
  public var coordinate: GeodeticCoordinate
  /// The 68% horizontal radius, metres (Core Location's `horizontalAccuracy`), when known.
  public var accuracy: Double?

  /// A fix at `time` (seconds since 1970) at `coordinate`, with its horizontal accuracy in metres
  /// if known.
  public init(time: Double, coordinate: GeodeticCoordinate, accuracy: Double? = nil) {
    self.time = time
    self.coordinate = coordinate
    self.accuracy = accuracy
  }
}
