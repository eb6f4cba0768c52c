import ARGeo
import ARMath

/// An area whose entering, leaving and lingering an app reacts to.
public struct Geofence: Sendable, Equatable {
  /// The fence's identifier (its place's).
  public var id: String
  /// Its place's name, if any.
  public var name: String?
  /// Where it is.
  public var shape: Shape

  /// A fence's area.
  public enum Shape: Sendable, Equatable {
    /// Within `radius` metres (geodesic) of `center`.
    case circle(center: GeodeticCoordinate, radius: Double)
    /// Inside a ring of vertices (WGS84, not closed: the last joins the first), up to a few
    /// kilometres across (measured in the local plane at its first vertex).
    case polygon([GeodeticCoordinate])
  }

  /// A fence with these fields.
  public init(id: String, name: String? = nil, shape: Shape) {
    self.id = id
    self.name = name
    self.shape = shape
  }

  /// A circle of `radius` metres around a place.
  public init(around place: PointOfInterest, radius: Double) {
    self.init(id: place.id, name: place.name, shape: .circle(center: place.coordinate, radius: radius))
  }
}
