import ARFiles
import ARGeo
import Foundation

/// An area a map shades and a geofence watches: a site's precinct, a park.
public struct PlaceArea: Sendable, Equatable {
  /// The feature's `id` (or `properties.id`), else its index.
  public var id: String
  /// `properties.name`, if any.
  public var name: String?
  /// The outer ring's vertices, WGS84, without the closing repeat of the first.
  public var ring: [GeodeticCoordinate]

  /// The area as a polygon geofence.
  public var geofence: Geofence { Geofence(id: id, name: name, shape: .polygon(ring)) }
}
