/// Converts a projected coordinate reference system's coordinates to WGS84, for modules that
/// link no projection library: given the CRS's name (`EPSG:32633`, `EPSG:5514`, a PROJ string),
/// a function from a position's easting and northing (the CRS's units, easting first as GeoJSON
/// and survey files write them) to latitude and longitude, degrees.
///
/// ARCRS's `CoordinateOperation.projectionToWGS84` is one, through PROJ; the `arscene` command
/// line passes it to scene and places files.
public typealias CRSProjection =
  (_ crs: String) throws -> (_ easting: Double, _ northing: Double) throws -> (
    latitude: Double, longitude: Double
  )
