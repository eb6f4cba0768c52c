import Foundation

/// A geoid: the height of mean sea level above the WGS 84 ellipsoid (the undulation N), as a
/// grid of nodes interpolated bilinearly, so that phones' altitudes above mean sea level can meet
/// geodesy's ellipsoidal heights: `height = altitudeMSL + N`.
///
/// ``egm96`` is the Earth Gravitational Model 1996 on a 15-arc-minute grid, the grid PROJ ships
/// as `egm96_15.gtx` (Debian proj-data) and the geoid iOS and Android report altitudes against.
/// Its nodes are kept to the centimetre, and it interpolates as PROJ's `vgridshift` does:
/// `GeoidTests` checks it within 5 cm of PROJ anywhere on Earth.
public struct Geoid: Sendable {
  /// Undulations at the nodes, centimetres, row by row from the southernmost.
  private let centimetres: [Int16]
  /// The grid: its south-west node (degrees), the spacing (degrees), and its size.
  private let south: Double, west: Double, step: Double, rows: Int, columns: Int

  /// A grid of `rows` × `columns` undulations in centimetres, row by row from `south` (degrees)
  /// northwards, each row from `west` eastwards, nodes `step` degrees apart; its columns wrap
  /// around the globe (`columns × step` is 360°).
  init(centimetres: [Int16], south: Double, west: Double, step: Double, rows: Int, columns: Int) {
    precondition(centimetres.count == rows * columns && Double(columns) * step == 360, "a global grid")
    self.centimetres = centimetres
    (self.south, self.west, self.step, self.rows, self.columns) = (south, west, step, rows, columns)
  }

  /// EGM96, from the grid shipped with this module (`Geoid/egm96-15min.cm16`: 721 × 1440
  /// little-endian centimetres, from PROJ's `egm96_15.gtx` by `Tools/make-geoid-grid`).
  public static let egm96: Geoid = {
    guard let url = Bundle.module.url(forResource: "egm96-15min", withExtension: "cm16"),
      let data = try? Data(contentsOf: url), data.count == 721 * 1440 * 2
    else {
      fatalError("ARGeo's EGM96 grid (egm96-15min.cm16) is missing from its resources: a broken build")
    }
    let values = data.withUnsafeBytes { raw in
      (0..<721 * 1440).map { Int16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * $0, as: Int16.self)) }
    }
    return Geoid(centimetres: values, south: -90, west: -180, step: 0.25, rows: 721, columns: 1440)
  }()

  /// The undulation N at a place, metres: how far mean sea level lies above the ellipsoid there
  /// (negative where it lies below).
  /// - Parameters:
  ///   - latitude: Geodetic latitude, degrees, −90…90.
  ///   - longitude: Longitude, degrees, any finite value (wrapped).
  /// - Throws: ``GeoError/invalidCoordinate(field:value:reason:)`` for a latitude beyond ±90° or
  ///   a value that is not finite.
  public func undulation(latitude: Double, longitude: Double) throws(GeoError) -> Double {
    _ = try GeodeticCoordinate(latitudeDegrees: latitude, longitudeDegrees: longitude).validated()
    // Fractional row and column; rows clamp at the poles, columns wrap.
    let y = min(max((latitude - south) / step, 0), Double(rows - 1))
    var x = (longitude - west).truncatingRemainder(dividingBy: 360) / step
    if x < 0 { x += Double(columns) }
    let row = min(Int(y), rows - 2), column = min(Int(x), columns - 1)
    let (fy, fx) = (y - Double(row), x - Double(column))
    let east = (column + 1) % columns
    func node(_ r: Int, _ c: Int) -> Double { Double(centimetres[r * columns + c]) / 100 }
    let lower = node(row, column) * (1 - fx) + node(row, east) * fx
    let upper = node(row + 1, column) * (1 - fx) + node(row + 1, east) * fx
    return lower * (1 - fy) + upper * fy
  }

  /// The ellipsoidal height of an altitude above mean sea level at a place, metres:
  /// `altitudeMSL + N`.
  public func ellipsoidalHeight(altitudeMSL: Double, latitude: Double, longitude: Double) throws(GeoError)
    -> Double
  {
    altitudeMSL + (try undulation(latitude: latitude, longitude: longitude))
  }
}
