import ARGeo

extension GPSFix {
  /// The fix's height above the WGS 84 ellipsoid, metres: ``height`` when the source gives it,
  /// else ``altitudeMSL`` plus the EGM96 undulation at the fix (the geoid phones report
  /// altitudes against: 45 m at Závist, 23 m in Seoul), else nil.
  public var ellipsoidalHeight: Double? {
    if let height { return height }
    guard let altitudeMSL else { return nil }
    return try? Geoid.egm96.ellipsoidalHeight(
      altitudeMSL: altitudeMSL, latitude: latitude, longitude: longitude)
  }
}
