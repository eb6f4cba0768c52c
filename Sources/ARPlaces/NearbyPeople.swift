import ARGeo
import Foundation

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
  /// The grid people's positions are snapped to.
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
    /// The person's id.
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
