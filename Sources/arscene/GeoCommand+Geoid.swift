import ARGeo
import ArgumentParser

extension GeoCommand {
  /// `arscene geo geoid --at LAT,LON`: the EGM96 undulation.
  struct GeoidUndulation: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "geoid",
      abstract: "The EGM96 geoid's height above the WGS84 ellipsoid (the undulation N), metres.",
      discussion: """
        Phones report altitudes above mean sea level; geodesy needs heights above the ellipsoid: \
        height = altitude + N. Prints N with millimetres; with --altitude-msl, the height instead. \
        EGM96 on PROJ's 15-minute grid (proj-data's egm96_15.gtx), interpolated as PROJ does.
        """)

    @Option(
      parsing: .unconditional, help: "Position LAT,LON (degrees).", transform: GeoPositionValue.init(parsing:)
    )
    var at: GeoPositionValue

    @Option(name: .customLong("altitude-msl"), help: "An altitude above mean sea level (metres) to convert.")
    var altitudeMSL: Double?

    func validate() throws {
      if let altitudeMSL, !altitudeMSL.isFinite || abs(altitudeMSL) > GeodeticCoordinate.heightLimit {
        throw ValidationError("--altitude-msl: expected a finite altitude within ±100,000 km")
      }
    }

    func run() throws {
      try reportingInputFailures {
        let (latitude, longitude) = (at.coordinate.latitudeDegrees, at.coordinate.longitudeDegrees)
        let undulation: Double
        do { undulation = try Geoid.egm96.undulation(latitude: latitude, longitude: longitude) } catch {
          throw InputFailure(message: "--at: \(error)")
        }
        FileHandleOutput.standardOutput.write(fixed((altitudeMSL ?? 0) + undulation, 3) + "\n")
      }
    }
  }
}
