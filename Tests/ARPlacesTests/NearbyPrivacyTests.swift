import ARGeo
import ARMath
import ARPlaces
import ARTestSupport
import Foundation
import Testing

/// Nearby people without locating anyone: the trilateration attack finds a person to a metre
/// from exact distances, and only to their grid cell from the service's.
@Suite("Nearby people, privately")
struct NearbyPrivacyTests {
  static let origin = GeodeticCoordinate(latitudeDegrees: 50.0875, longitudeDegrees: 14.4213)
  static let frame = try! LocalTangentFrame(origin: origin)

  /// The attack: ask from a grid of places around the area, then find the point whose
  /// distances best explain the answers (Gauss–Newton in the local plane, from the nearest
  /// asking place).
  static func trilaterate(_ distance: (GeodeticCoordinate) throws -> Double) rethrows -> SIMD2<Double> {
    var asked: [(SIMD2<Double>, Double)] = []
    for i in -7...7 {
      for j in -7...7 {
        let p = SIMD2(Double(i) * 400 + 37, Double(j) * 400 - 23)
        asked.append((p, try distance(frame.geodetic(enu: SIMD3(p.x, p.y, 0)))))
      }
    }
    var x = asked.min { $0.1 < $1.1 }!.0
    for _ in 0..<50 {
      // Normal equations of the linearised residuals |x − p| − r.
      var (a11, a12, a22, b1, b2) = (0.0, 0.0, 0.0, 0.0, 0.0)
      for (p, r) in asked {
        let d = x - p, length = max((d * d).sum().squareRoot(), 1e-6)
        let (gx, gy) = (d.x / length, d.y / length), residual = length - r
        (a11, a12, a22) = (a11 + gx * gx, a12 + gx * gy, a22 + gy * gy)
        (b1, b2) = (b1 + gx * residual, b2 + gy * residual)
      }
      let det = a11 * a22 - a12 * a12
      guard abs(det) > 1e-12 else { break }
      x -= SIMD2((a22 * b1 - a12 * b2) / det, (a11 * b2 - a12 * b1) / det)
    }
    return x
  }

  @Test(
    "the attack locates a person to a metre from exact distances, and no closer than their cell from the service's"
  )
  func trilaterationAttack() throws {
    var random = SplitMix64(seed: 17)
    let geodesic = Geodesic()
    var (naiveWorst, privateSquares, towardsCell) = (0.0, 0.0, 0)
    let targets = 40
    for _ in 0..<targets {
      let truth = SIMD2(
        Double.random(in: -2000...2000, using: &random), Double.random(in: -2000...2000, using: &random))
      let person = Self.frame.geodetic(enu: SIMD3(truth.x, truth.y, 0))
      // The naive service: exact geodesic distances, rounded to a metre.
      let naive = try Self.trilaterate { try (geodesic.inverse(from: $0, to: person).distance).rounded() }
      naiveWorst = max(naiveWorst, ((naive - truth) * (naive - truth)).sum().squareRoot())
      // The private one: 500 m cells, distances to 100 m.
      var service = try NearbyPeople(cellSize: 500, distancePrecision: 100)
      try service.update("target", at: person)
      let estimate = try Self.trilaterate { try service.nearby($0, radius: 1e9).first!.distanceMetres }
      let error = ((estimate - truth) * (estimate - truth)).sum().squareRoot()
      privateSquares += error * error
      let centre = Self.frame.enu(service.grid.centre(of: service.grid.cell(of: person)))
      let fromCentre = ((estimate - SIMD2(centre.x, centre.y)) * (estimate - SIMD2(centre.x, centre.y))).sum()
        .squareRoot()
      if fromCentre < error { towardsCell += 1 }
    }
    #expect(naiveWorst < 1.5, "the naive service gives a person away to \(naiveWorst) m")
    let rms = (privateSquares / Double(targets)).squareRoot()
    // A point uniform in a 500 m cell is 204 m from its centre (RMS): the attack does no better.
    #expect(rms > 150, "the attack finds people to \(rms) m RMS")
    #expect(
      towardsCell >= targets * 3 / 4,
      "the estimates point at the cell, not the person (\(towardsCell) of \(targets))")
  }

  @Test(
    "answers depend only on the two cells: the same from anywhere in the requester's cell, rounded, nearest first"
  )
  func consistentAnswers() throws {
    var service = try NearbyPeople(cellSize: 500, distancePrecision: 100)
    let positions = [(900.0, 40.0), (-1300, 700), (2400, -2400), (100, 100)]
    for (k, p) in positions.enumerated() {
      try service.update("p\(k)", at: Self.frame.geodetic(enu: SIMD3(p.0, p.1, 0)))
    }
    let grid = service.grid
    let cell = grid.cell(of: Self.origin)
    let centre = Self.frame.enu(grid.centre(of: cell))
    var answers: Set<[NearbyPeople.Nearby]> = []
    for dx in stride(from: -240.0, through: 240, by: 60) {
      for dy in stride(from: -240.0, through: 240, by: 60) {
        let p = Self.frame.geodetic(enu: SIMD3(centre.x + dx, centre.y + dy, 0))
        guard grid.cell(of: p) == cell else { continue }
        answers.insert(try service.nearby(p, radius: 3000, excluding: "p3"))
      }
    }
    #expect(answers.count == 1)
    let answer = try #require(answers.first)
    #expect(answer.map(\.id) == ["p0", "p1"])  // p2 is about 3.4 km away
    #expect(answer.allSatisfy { $0.distanceMetres.truncatingRemainder(dividingBy: 100) == 0 })
    #expect(service.cells.count == 4)  // only cells are kept
    expectError(GeoError.self, "invalidCoordinate") { try NearbyPeople(cellSize: 1) }
  }

  @Test(
    "grid cells are about their size everywhere, and a cell's centre is in the cell",
    arguments: [0.0, 45, 70, 89.9])
  func cells(latitude: Double) throws {
    let grid = try PrivacyGrid(cellSize: 250)
    var random = SplitMix64(seed: UInt64(latitude * 10))
    for _ in 0..<200 {
      let p = GeodeticCoordinate(
        latitudeDegrees: latitude + Double.random(in: -0.05...0.05, using: &random),
        longitudeDegrees: Double.random(in: -180...180, using: &random))
      let cell = grid.cell(of: p)
      #expect(grid.cell(of: grid.centre(of: cell)) == cell)
      if abs(p.latitudeDegrees) < 89 {
        let d = try LocalDistance.between(p, grid.centre(of: cell))
        #expect(d <= 250 * 0.75, "\(d) m from its cell's centre")
      }
    }
  }
}
