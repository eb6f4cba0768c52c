import ARFiles
import ARGeo
import Foundation

/// A path a map draws: a walkway, a rampart, a trail.
public struct PlacePath: Sendable, Equatable {
  /// The feature's `id` (or `properties.id`), if any.
  public var id: String?
  /// `properties.name`, if any.
  public var name: String?
  /// The path's vertices, WGS84.
  public var coordinates: [GeodeticCoordinate]
}
