import ARMath

/// A surveyed ground control point: a place whose position is known far better than a phone's
/// GPS knows its own, and that a person can click in a camera frame, a tap can name, or (when
/// it is a printed marker) the marker detector can find. Observations of control points tell
/// where an AR session truly was, on recordings that carry no truth of their own.
public struct ControlPoint: Hashable, Sendable {
  /// The name observations refer to it by (a click's `name`, a tap's `expected`).
  public var name: String
  /// Where it is (WGS84, height above the ellipsoid).
  public var coordinate: GeodeticCoordinate
  /// The survey's 1σ per axis, metres (a total station: millimetres; RTK GNSS: about 2 cm).
  public var sigma: Double
  /// The printed square marker at the point, when it is one: its centre is at ``coordinate``.
  public var marker: Marker?

  /// A square fiducial marker surveyed as a control point. Its frame is that of a geo-anchor
  /// (``GeoAnchor``) at the point facing ``heading``: the marker stands upright in the anchor's
  /// x-y plane, its printed side facing the anchor's +Z (towards a viewer standing on that side),
  /// x to the right and y up as the viewer sees it.
  public struct Marker: Hashable, Sendable {
    /// The dictionary's name as `arscene marker detect --dictionary` takes it (`aruco_6x6_250`).
    public var dictionary: String
    /// The marker's id in that dictionary.
    public var id: Int
    /// The side of the black square, metres.
    public var size: Double
    /// The compass heading of the marker's −Z axis (clockwise from north): the printed side
    /// faces the opposite way.
    public var heading: Angle<Double>

    /// A marker; nothing is validated (scene readers validate what they read).
    public init(dictionary: String, id: Int, size: Double, heading: Angle<Double>) {
      self.dictionary = dictionary
      self.id = id
      self.size = size
      self.heading = heading
    }

    /// The four corners in the marker's own frame (metres), in OpenCV's order as a viewer
    /// facing the printed side sees them: top-left, top-right, bottom-right, bottom-left.
    public var cornersInMarker: [SIMD3<Double>] {
      let h = size / 2
      return [[-h, h, 0], [h, h, 0], [h, -h, 0], [-h, -h, 0]]
    }
  }

  /// A control point; nothing is validated (scene readers validate what they read).
  public init(name: String, coordinate: GeodeticCoordinate, sigma: Double, marker: Marker? = nil) {
    self.name = name
    self.coordinate = coordinate
    self.sigma = sigma
    self.marker = marker
  }

  /// The marker's corners in the geographic world at `frame`'s origin (x east, y up, z south,
  /// metres), or nil when the point is no marker.
  public func markerCorners(in frame: LocalTangentFrame) -> [SIMD3<Double>]? {
    guard let marker else { return nil }
    let pose = GeoAnchor(coordinate: coordinate, heading: marker.heading).geoWorldFromAnchor(in: frame)
    return marker.cornersInMarker.map(pose.transformPoint)
  }
}
