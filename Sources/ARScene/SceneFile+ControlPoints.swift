extension SceneFile {
  /// One entry of `control_points`: a surveyed point, or a surveyed printed marker (ARGeo's
  /// `ControlPoint` is what it resolves to).
  public struct ControlPointEntry: Codable, Sendable, Equatable {
    /// The name clicks and taps refer to it by; unique in the file.
    public var name: String
    /// Where it is: degrees, and `height` above the ellipsoid or `altitude_msl` (metres).
    public var geo: GeoPosition
    /// The survey's 1σ per axis, metres (default 0.02, an RTK GNSS survey).
    public var sigmaM: Double?
    /// A printed marker centred on the point.
    public var marker: Marker?
    /// For a marker: the compass heading of its −Z axis, degrees clockwise from north (its
    /// printed side faces the other way; default 0).
    public var headingDeg: Double?

    /// The `marker` field of a control point.
    public struct Marker: Codable, Sendable, Equatable {
      /// A dictionary `arscene marker detect` knows (`aruco_6x6_250`, `apriltag_36h11`).
      public var dictionary: String
      /// The marker's id in that dictionary.
      public var id: Int
      /// The black square's side, metres.
      public var size: Double
    }

    enum CodingKeys: String, CodingKey {
      case name, geo, marker
      case sigmaM = "sigma_m"
      case headingDeg = "heading_deg"
    }
  }
}
