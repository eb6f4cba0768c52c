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

/// Who is nearby, and how far, without letting anyone find out where a person is.
///
/// Positions never enter exactly: a person's position is replaced at once by the centre of its
/// ``PrivacyGrid`` cell, and a requester's too; distances are measured between the two centres
/// and rounded to ``distancePrecision``. Answers depend only on the two cells, so they are the
/// same for every query from the same cell (per-requester consistency: asking again, or from
/// elsewhere in the cell, reveals nothing new), and an attacker who asks from many places and
/// trilaterates can at best find the person's cell: the error stays about the cell's size
/// (tested with the attack, which finds the naive version's people to a metre).
public struct NearbyPeople: Sendable {
  public let grid: PrivacyGrid
  /// Distances are rounded to this many metres.
  public let distancePrecision: Double
  /// Each person's cell: all that is kept.
  public private(set) var cells: [String: PrivacyGrid.Cell] = [:]
  private let geodesic = Geodesic()

  /// A service with `cellSize`-metre cells and distances rounded to `distancePrecision` metres.
  public init(cellSize: Double = 500, distancePrecision: Double = 100) throws(GeoError) {
    guard distancePrecision > 0, distancePrecision.isFinite else {
      throw .invalidCoordinate(
        field: "distance precision", value: distancePrecision, reason: "must be metres > 0")
    }
    grid = try PrivacyGrid(cellSize: cellSize)
    self.distancePrecision = distancePrecision
  }

  /// Records where `person` is (kept only as its cell).
  public mutating func update(_ person: String, at position: GeodeticCoordinate) throws(GeoError) {
    cells[person] = grid.cell(of: try position.validated())
  }

  /// A person near the requester, as the service reports it.
  public struct Nearby: Encodable, Sendable, Hashable {
    public var id: String
    /// Metres between the two cells' centres, rounded to the precision (0 in the same cell).
    public var distanceMetres: Double
    enum CodingKeys: String, CodingKey {
      case id
      case distanceMetres = "distance_m"
    }
  }

  /// The people within `radius` metres (by rounded cell distance) of `requester`, nearest
  /// first (ties by id), the requester's own id left out.
  public func nearby(_ requester: GeodeticCoordinate, radius: Double, excluding own: String? = nil)
    throws(GeoError)
    -> [Nearby]
  {
    let here = grid.centre(of: grid.cell(of: try requester.validated()))
    var out: [Nearby] = []
    for (id, cell) in cells where id != own {
      let d = try geodesic.inverse(from: here, to: grid.centre(of: cell)).distance
      let rounded = (d / distancePrecision).rounded() * distancePrecision
      if rounded <= radius { out.append(Nearby(id: id, distanceMetres: rounded)) }
    }
    return out.sorted { ($0.distanceMetres, $0.id) < ($1.distanceMetres, $1.id) }
  }
}
