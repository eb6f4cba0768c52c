import ARGeo
import Foundation

/// A grid of square-ish cells of a chosen size over the Earth: rows of equal latitude span,
/// each cut into columns of the chosen width at the row's middle latitude. People's positions
/// are replaced by their cell's centre before anything else sees them.
public struct PrivacyGrid: Sendable, Equatable {
  /// The cells' side, metres.
  public let cellSize: Double
  private let rowDegrees: Double

  /// A grid of `cellSize`-metre cells (10 m to 100 km).
  ///
  /// - Throws: `GeoError` for a size out of that range.
  public init(cellSize: Double) throws(GeoError) {
    guard cellSize >= 10, cellSize <= 100_000 else {
      throw .invalidCoordinate(field: "cell size", value: cellSize, reason: "must be 10 m to 100 km")
    }
    self.cellSize = cellSize
    // A degree of latitude is 110.57–111.69 km; its mean keeps rows within 1% of the size.
    rowDegrees = cellSize / 111_132.954
  }

  /// A cell: its row (south to north) and column (west to east, from the antimeridian).
  public struct Cell: Hashable, Sendable {
    /// The cell's row and column.
    public var row: Int, column: Int
  }

  /// The cell holding `p`.
  public func cell(of p: GeodeticCoordinate) -> Cell {
    let row = Int(((p.latitudeDegrees + 90) / rowDegrees).rounded(.down))
    let columns = columnCount(row)
    let longitude = wrappedLongitude(p.longitudeDegrees) + 180
    return Cell(row: row, column: min(columns - 1, Int((longitude / 360 * Double(columns)).rounded(.down))))
  }

  /// The centre of `cell` (height 0).
  public func centre(of cell: Cell) -> GeodeticCoordinate {
    let latitude = min(90, -90 + (Double(cell.row) + 0.5) * rowDegrees)
    let longitude = -180 + (Double(cell.column) + 0.5) * 360 / Double(columnCount(cell.row))
    return GeodeticCoordinate(latitudeDegrees: latitude, longitudeDegrees: longitude)
  }

  /// Columns in a row: the row's circumference at its middle latitude over the cell size.
  private func columnCount(_ row: Int) -> Int {
    let middle = min(89.999, abs(-90 + (Double(row) + 0.5) * rowDegrees))
    let circumference = 2 * Double.pi * Ellipsoid.wgs84.equatorialRadius * cos(middle * .pi / 180)
    return max(1, Int((circumference / cellSize).rounded(.down)))
  }

  private func wrappedLongitude(_ x: Double) -> Double {
    let r = (x + 180).truncatingRemainder(dividingBy: 360)
    return (r < 0 ? r + 360 : r) - 180
  }
}
