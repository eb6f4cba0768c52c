extension ValidationReport {
  /// A point of a track on the site's ground: east and north, metres in its ENU frame. JSON
  /// `[east, north]`.
  public struct GroundPoint: Codable, Sendable, Equatable {
    /// Metres east of the site's origin.
    public var east: Double
    /// Metres north of the site's origin.
    public var north: Double

    /// The point `east`, `north` metres from the site's origin.
    public init(east: Double, north: Double) { (self.east, self.north) = (east, north) }

    public init(from decoder: any Decoder) throws {
      var row = try decoder.unkeyedContainer()
      (east, north) = (try row.decode(Double.self), try row.decode(Double.self))
    }

    public func encode(to encoder: any Encoder) throws {
      var row = encoder.unkeyedContainer()
      try row.encode(east)
      try row.encode(north)
    }
  }

  /// A point of a track with a radius around it, metres: the fused camera with the alignment's
  /// claimed 1σ there (per axis), or a GPS fix with the accuracy the phone reported (a 68%
  /// radius). JSON `[east, north, radius]`.
  public struct GroundCircle: Codable, Sendable, Equatable {
    /// The point.
    public var ground: GroundPoint
    /// The radius around it, metres.
    public var radius: Double

    /// A circle of `radius` metres about `ground`.
    public init(_ ground: GroundPoint, radius: Double) { (self.ground, self.radius) = (ground, radius) }

    public init(from decoder: any Decoder) throws {
      var row = try decoder.unkeyedContainer()
      ground = GroundPoint(east: try row.decode(Double.self), north: try row.decode(Double.self))
      radius = try row.decode(Double.self)
    }

    public func encode(to encoder: any Encoder) throws {
      var row = encoder.unkeyedContainer()
      try row.encode(ground.east)
      try row.encode(ground.north)
      try row.encode(radius)
    }
  }

  /// An anchor's largest frame-to-frame jitter in one second of the recording. JSON `[seconds,
  /// anchor, pixels]` (the anchor's index as a number).
  public struct JitterPoint: Codable, Sendable, Equatable {
    /// Seconds since the first record.
    public var time: Double
    /// The anchor's index in ``ValidationReport/anchors``.
    public var anchor: Int
    /// The largest jitter in that second, pixels.
    public var pixels: Double

    /// Anchor `anchor`'s largest jitter, `pixels`, in the second at `time`.
    public init(time: Double, anchor: Int, pixels: Double) {
      (self.time, self.anchor, self.pixels) = (time, anchor, pixels)
    }

    public init(from decoder: any Decoder) throws {
      var row = try decoder.unkeyedContainer()
      time = try row.decode(Double.self)
      let index = try row.decode(Double.self)
      guard let exact = Int(exactly: index), exact >= 0 else {
        throw DecodingError.dataCorruptedError(
          in: row, debugDescription: "an anchor index must be a whole number")
      }
      anchor = exact
      pixels = try row.decode(Double.self)
    }

    public func encode(to encoder: any Encoder) throws {
      var row = encoder.unkeyedContainer()
      try row.encode(time)
      try row.encode(Double(anchor))  // a number, as the report has always written it
      try row.encode(pixels)
    }
  }
}
