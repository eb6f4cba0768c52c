import ARMath
import RealModule

/// A spherical-harmonic main-field model with linear secular variation, in the format of the
/// World Magnetic Model's `.COF` files. ``wmm2025`` is built in.
///
/// Evaluation follows the WMM technical report: the geodetic position becomes geocentric
/// spherical coordinates, the field is the gradient of the potential expanded in Schmidt
/// semi-normalised associated Legendre functions, and the result is rotated back to the geodetic
/// north/east/down frame. The east component's 1/cos φ′ is folded into the Legendre recursion, so
/// the poles need no special case.
public struct MagneticModel: Sendable {
  /// The model's name from the file header, e.g. `WMM-2025`.
  public let name: String
  /// The reference epoch as a decimal year, e.g. 2025.0.
  public let epoch: Double
  /// The last decimal year the model is valid for (epoch + 5 for the WMM).
  public let validUntil: Double
  /// The highest degree of the expansion.
  public let degree: Int
  // Gauss coefficients (nT) and their secular variation (nT/year), indexed [n][m].
  private let g: [[Double]], h: [[Double]], gDot: [[Double]], hDot: [[Double]]
  /// The geomagnetic reference radius, metres.
  public static let referenceRadius = 6_371_200.0

  /// The World Magnetic Model 2025 (valid 2025.0 to 2030.0).
  public static let wmm2025: MagneticModel = {
    do { return try MagneticModel(cofText: wmm2025Text) } catch { fatalError("built-in WMM2025: \(error)") }
  }()

  /// A model read from the text of a `.COF` file: a header `epoch name date`, then lines
  /// `n m g h ġ ḣ`, ended by a line of 9s or the end of the text.
  public init(cofText: String, validYears: Double = 5) throws(GeoError) {
    var lines = cofText.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).makeIterator()
    guard let header = lines.next() else { throw .badCoefficientFile(line: 1, reason: "empty") }
    let headerFields = header.split(whereSeparator: \.isWhitespace)
    guard headerFields.count >= 2, let epoch = Double(headerFields[0]), epoch.isFinite else {
      throw .badCoefficientFile(line: 1, reason: "header must start with the epoch and the model name")
    }
    var rows: [(n: Int, m: Int, values: [Double])] = []
    var lineNumber = 1
    while let line = lines.next() {
      lineNumber += 1
      let fields = line.split(whereSeparator: \.isWhitespace)
      if fields.isEmpty { continue }
      // The end marker, not degree 9.
      if fields[0].count >= 8 && fields[0].allSatisfy({ $0 == "9" }) { break }
      guard fields.count == 6, let n = Int(fields[0]), let m = Int(fields[1]), n >= 1, m >= 0, m <= n,
        n <= 100
      else {
        throw .badCoefficientFile(line: lineNumber, reason: "expected `n m g h gdot hdot` with 0 ≤ m ≤ n")
      }
      let values = fields[2...].compactMap { Double($0) }.filter(\.isFinite)
      guard values.count == 4 else {
        throw .badCoefficientFile(line: lineNumber, reason: "coefficients must be finite numbers")
      }
      rows.append((n, m, values))
    }
    let degree = rows.map(\.n).max() ?? 0
    guard degree >= 1 else { throw .badCoefficientFile(line: lineNumber, reason: "no coefficients") }
    let zero = (0...degree).map { [Double](repeating: 0, count: $0 + 1) }
    var g = zero, h = zero, gDot = zero, hDot = zero
    for row in rows {
      (g[row.n][row.m], h[row.n][row.m], gDot[row.n][row.m], hDot[row.n][row.m]) =
        (row.values[0], row.values[1], row.values[2], row.values[3])
    }
    self.name = String(headerFields[1])
    self.epoch = epoch
    self.validUntil = epoch + validYears
    self.degree = degree
    (self.g, self.h, self.gDot, self.hDot) = (g, h, gDot, hDot)
  }

  /// The field at `position` (WGS84 ellipsoidal height) at `decimalYear` (e.g. 2026.5; see
  /// ``decimalYear(year:month:day:)``).
  /// - Throws: ``GeoError/outOfValidity(_:)`` outside [epoch, epoch + 5].
  public func field(at position: GeodeticCoordinate, decimalYear: Double) throws(GeoError) -> MagneticField {
    let position = try position.validated()
    guard decimalYear.isFinite, decimalYear >= epoch, decimalYear <= validUntil else {
      throw .outOfValidity("\(name) is valid from \(epoch) to \(validUntil), not \(decimalYear)")
    }
    let dt = decimalYear - epoch
    // Geodetic → geocentric spherical (radius r, latitude φ′).
    let wgs84 = Ellipsoid.wgs84
    let (sinLat, cosLat) = sinCos(degrees: position.latitudeDegrees)
    let n = wgs84.primeVerticalRadius(sinLatitude: sinLat)
    let p = (n + position.height) * cosLat
    let z = (n * (1 - wgs84.eccentricitySquared) + position.height) * sinLat
    let r = (p * p + z * z).squareRoot()
    let sinPhi = z / r, cosPhi = p / r  // geocentric latitude φ′

    // Schmidt semi-normalised P(n, m)(sin φ′), its derivative in φ′, and P(n, m)/cos φ′ (m ≥ 1).
    let size = degree + 1
    var pnm = [Double](repeating: 0, count: size * size)
    var dpnm = pnm, pOverCos = pnm
    pnm[0] = 1
    for deg in 1...degree {
      for m in 0...deg {
        let i = deg * size + m
        if m == deg {
          let k = deg == 1 ? 1 : ((2 * Double(deg) - 1) / (2 * Double(deg))).squareRoot()
          let prev = (deg - 1) * size + (deg - 1)
          pnm[i] = k * cosPhi * pnm[prev]
          dpnm[i] = k * (cosPhi * dpnm[prev] - sinPhi * pnm[prev])
          pOverCos[i] = deg == 1 ? 1 : k * cosPhi * pOverCos[prev]
        } else {
          let a = 2 * Double(deg) - 1
          let c = Double((deg - 1) * (deg - 1) - m * m).squareRoot()
          let d = Double(deg * deg - m * m).squareRoot()
          let p1 = (deg - 1) * size + m, p2 = deg >= 2 ? (deg - 2) * size + m : -1
          let older = p2 >= 0 && m <= deg - 2
          pnm[i] = (a * sinPhi * pnm[p1] - (older ? c * pnm[p2] : 0)) / d
          dpnm[i] = (a * (cosPhi * pnm[p1] + sinPhi * dpnm[p1]) - (older ? c * dpnm[p2] : 0)) / d
          pOverCos[i] = (a * sinPhi * pOverCos[p1] - (older ? c * pOverCos[p2] : 0)) / d
        }
      }
    }

    var xPrime = 0.0, yPrime = 0.0, zPrime = 0.0
    let ratio = Self.referenceRadius / r
    var radial = ratio * ratio  // (a/r)^(n+2), starting at n = 0
    var cosM = [Double](repeating: 0, count: size), sinM = cosM
    let (sinLon, cosLon) = sinCos(degrees: position.longitudeDegrees)
    cosM[0] = 1
    for m in 1..<size {
      cosM[m] = cosM[m - 1] * cosLon - sinM[m - 1] * sinLon
      sinM[m] = sinM[m - 1] * cosLon + cosM[m - 1] * sinLon
    }
    for deg in 1...degree {
      radial *= ratio
      for m in 0...deg {
        let gnm = g[deg][m] + dt * gDot[deg][m], hnm = h[deg][m] + dt * hDot[deg][m]
        let i = deg * size + m
        let cosTerm = gnm * cosM[m] + hnm * sinM[m]
        xPrime -= radial * cosTerm * dpnm[i]
        if m > 0 { yPrime += radial * Double(m) * (gnm * sinM[m] - hnm * cosM[m]) * pOverCos[i] }
        zPrime -= radial * Double(deg + 1) * cosTerm * pnm[i]
      }
    }
    // Rotate from geocentric to geodetic north/down by the angle φ′ − φ.
    let sinD = sinPhi * cosLat - cosPhi * sinLat, cosD = cosPhi * cosLat + sinPhi * sinLat
    return MagneticField(
      north: xPrime * cosD - zPrime * sinD, east: yPrime, down: xPrime * sinD + zPrime * cosD)
  }

  /// The declination at `position` and `decimalYear`: true heading = magnetic heading + this.
  public func declination(at position: GeodeticCoordinate, decimalYear: Double) throws(GeoError) -> Angle<
    Double
  > {
    try field(at: position, decimalYear: decimalYear).declination
  }
}
