import ARGeo

/// A position `LAT,LON` or `LAT,LON,HEIGHT`: degrees (latitude −90…90, longitude −180…180) and
/// metres above the WGS84 ellipsoid, all finite.
struct GeoPositionValue: OptionValue {
  var coordinate: GeodeticCoordinate
  /// Whether the text gave a height (otherwise it is 0).
  var hasHeight: Bool

  init(parsing text: String) throws(OptionValueError) {
    let fields = text.split(separator: ",", omittingEmptySubsequences: false).count
    let v = try NumberList.parse(text, count: fields == 3 ? 3 : 2)
    do {
      coordinate = try GeodeticCoordinate(
        latitudeDegrees: v[0], longitudeDegrees: v[1], height: fields == 3 ? v[2] : 0
      )
      .validated()
    } catch { throw OptionValueError("\(error)") }
    hasHeight = fields == 3
  }
}
