import ARGeo
import ARMath
import ArgumentParser
import Foundation

/// `arscene geo`: WGS84 conversions, geodesics and magnetic declination.
struct GeoCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "geo",
    abstract: "WGS84 geodesy: local ENU conversions, distance and bearing, magnetic declination, the geoid.",
    discussion: """
      Latitudes and longitudes are degrees (north and east positive), heights metres above the \
      WGS84 ellipsoid (not above mean sea level). Input lines take spaces or commas; blank lines \
      and lines starting with # are skipped; a bad line stops with an error naming it, exit code 2.
      """,
    subcommands: [ToENU.self, FromENU.self, Declination.self, Distance.self, GeoidUndulation.self]
  )

  /// Parses `LAT,LON[,H]` for an option or argument.
  /// Converts stdin line by line in the local frame at `origin`.
  static func convertInFrame(
    origin: GeodeticCoordinate, _ convert: (LocalTangentFrame, [Double], Int) throws -> String
  ) throws {
    let frame: LocalTangentFrame
    do { frame = try LocalTangentFrame(origin: origin) } catch {
      throw InputFailure(message: "--origin: \(error)")
    }
    try convertLines(columns: 3) { values, line in try convert(frame, values, line) }
  }

  /// Reads `columns` numbers per line of standard input and writes what `convert` makes of them.
  static func convertLines(columns: Int, _ convert: ([Double], Int) throws -> String) throws {
    try forEachNumberLine(columns: columns) { values, line in
      FileHandleOutput.standardOutput.write(try convert(values, line) + "\n")
    }
  }

  struct ToENU: ParsableCommand, StreamsStandardInput {
    static let configuration = CommandConfiguration(
      commandName: "to-enu",
      abstract: "Geodetic `lat lon h` lines on stdin to local `e n u` lines (metres, 10 decimals).")

    @Option(
      parsing: .unconditional, help: "The ENU origin LAT,LON,H (degrees, degrees, metres).",
      transform: GeoPositionValue.init(parsing:))
    var origin: GeoPositionValue

    func validate() throws {
      guard origin.hasHeight else { throw ValidationError("--origin: expected LAT,LON,H") }
    }

    func run() throws {
      try reportingInputFailures {
        try GeoCommand.convertInFrame(origin: origin.coordinate) { frame, v, line in
          let p: GeodeticCoordinate
          do {
            p = try GeodeticCoordinate(latitudeDegrees: v[0], longitudeDegrees: v[1], height: v[2])
              .validated()
          } catch { throw InputFailure(message: "stdin:\(line): \(error)") }
          let enu = frame.enu(p)
          return [enu.x, enu.y, enu.z].map { fixed($0, 10) }.joined(separator: " ")
        }
      }
    }
  }

  struct FromENU: ParsableCommand, StreamsStandardInput {
    static let configuration = CommandConfiguration(
      commandName: "from-enu",
      abstract: "Local `e n u` lines (metres) on stdin to geodetic `lat lon h` lines.",
      discussion: "Latitude and longitude get 12 decimals (0.1 µm), heights 10.")

    @Option(
      parsing: .unconditional, help: "The ENU origin LAT,LON,H (degrees, degrees, metres).",
      transform: GeoPositionValue.init(parsing:))
    var origin: GeoPositionValue

    func validate() throws {
      guard origin.hasHeight else { throw ValidationError("--origin: expected LAT,LON,H") }
    }

    func run() throws {
      try reportingInputFailures {
        try GeoCommand.convertInFrame(origin: origin.coordinate) { frame, v, _ in
          let p = frame.geodetic(enu: SIMD3(v[0], v[1], v[2]))
          return [fixed(p.latitudeDegrees, 12), fixed(p.longitudeDegrees, 12), fixed(p.height, 10)]
            .joined(separator: " ")
        }
      }
    }
  }

  struct Declination: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Magnetic declination in degrees (east positive) from the World Magnetic Model 2025.",
      discussion:
        "True heading = magnetic heading + declination. Valid for dates from 2025-01-01 to 2029-12-31.")

    @Option(
      parsing: .unconditional, help: "Position LAT,LON,H (degrees, degrees, metres above the ellipsoid).",
      transform: GeoPositionValue.init(parsing:))
    var at: GeoPositionValue

    @Option(help: "Date YYYY-MM-DD (UTC); today when omitted.")
    var date: String?

    func validate() throws {
      guard at.hasHeight else { throw ValidationError("--at: expected LAT,LON,H") }
      if let date {
        do { _ = try MagneticModel.decimalYear(isoDate: date) } catch {
          throw ValidationError("--date: \(error)")
        }
      }
    }

    @Flag(help: "Print the whole field as JSON (nT and degrees) instead of the declination alone.")
    var json = false

    func run() throws {
      try reportingInputFailures {
        let position = at.coordinate
        let report: MagneticFieldReport
        do {
          let year =
            try date.map { try MagneticModel.decimalYear(isoDate: $0) }
            ?? MagneticModel.decimalYear(secondsSince1970: Date().timeIntervalSince1970)
          report = try MagneticFieldReport(.wmm2025, at: position, decimalYear: year)
        } catch { throw InputFailure(message: "--date: \(error)") }
        if json {
          try JSONOutput.write(report)
        } else {
          FileHandleOutput.standardOutput.write(fixed(report.field.declination.degrees, 6) + "\n")
        }
      }
    }
  }

  struct Distance: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Geodesic distance and bearings between two points on the WGS84 ellipsoid.",
      discussion: """
        Prints `distance_m initial_bearing_deg final_bearing_deg`: the shortest path's length in \
        metres and its azimuths at A and at B (direction of travel), degrees clockwise from north, \
        in (-180, 180]. Accurate to nanometres anywhere, nearly antipodal points included.
        """)

    // Collected as unrecognised input so that southern and western points (-33.9,151.2) are
    // not taken for options.
    @Argument(parsing: .allUnrecognized, help: "Points A and B, each as LAT,LON (degrees).")
    var points: [String] = []

    func validate() throws {
      guard points.count == 2 else { throw ValidationError("expected two points A_LAT,A_LON B_LAT,B_LON") }
      for (name, text) in zip(["A", "B"], points) {
        do {
          guard try !GeoPositionValue(parsing: text).hasHeight else {
            throw OptionValueError("expected LAT,LON")
          }
        } catch { throw ValidationError("\(name) '\(text)': \(error)") }
      }
    }

    func run() throws {
      try reportingInputFailures {
        guard let from = GeoPositionValue(argument: points[0])?.coordinate,
          let to = GeoPositionValue(argument: points[1])?.coordinate
        else { throw ValidationError("expected two points A_LAT,A_LON B_LAT,B_LON") }
        let line = try Geodesic().inverse(from: from, to: to)
        FileHandleOutput.standardOutput.write(
          "\(fixed(line.distance, 9)) \(fixed(line.initialBearingDegrees, 12)) \(fixed(line.finalBearingDegrees, 12))\n"
        )
      }
    }
  }
}
